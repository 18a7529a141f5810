"""A request as the API server's authorizer sees it, read from flags or from a file of many, with the expectation to check.

The fields are those of a SubjectAccessReview (`kubectl auth can-i` names): user, groups, uid,
extra, verb, and either a resource (`RESOURCE[.GROUP][/SUBRESOURCE]`, namespace, name) or a
non-resource path.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from ..model import go_quote, render_value

# Keys of one request in a requests file; the flags carry the same names (`--group` for groups).
FIELDS = ("user", "groups", "uid", "extra", "verb", "resource", "namespace", "name", "path", "expect")
_PLAIN = re.compile(r"^[\w.:@/*~+=%-]+$", re.ASCII)


class RequestError(Exception):
    """A request that cannot be evaluated; the message starts with the field (`unknown`: a key that is no field)."""

    def __init__(self, message: str, unknown: str | None = None) -> None:
        super().__init__(message)
        self.unknown = unknown


class Request(NamedTuple):
    verb: str
    user: str | None = None  # None: the request carries no user at all (authentication failed)
    groups: tuple = ()
    uid: str = ""
    extra: dict | None = None  # key -> list of values
    resource: str = ""
    group: str = ""
    subresource: str = ""
    namespace: str = ""
    name: str = ""
    path: str | None = None  # set for a non-resource request
    expect: str | None = None
    line: int | None = None  # where the request starts in a requests file

    @property
    def is_resource(self) -> bool:
        return self.path is None

    @property
    def combined_resource(self) -> str:
        """`resource/subresource`, as audit policies and RBAC rules name a subresource."""
        return f"{self.resource}/{self.subresource}" if self.subresource else self.resource

    def spec(self) -> dict:
        """The SubjectAccessReview spec the server builds, with every field present (what CEL sees as `request`)."""
        spec: dict[str, Any] = {"user": self.user or "", "groups": list(self.groups), "uid": self.uid, "extra": dict(self.extra or {})}
        if self.is_resource:
            spec["resourceAttributes"] = {
                "namespace": self.namespace,
                "verb": self.verb,
                "group": self.group,
                "version": "",
                "resource": self.resource,
                "subresource": self.subresource,
                "name": self.name,
            }
        else:
            spec["nonResourceAttributes"] = {"path": self.path, "verb": self.verb}
        return spec

    def as_json(self) -> dict:
        spec = self.spec()
        spec["user"] = self.user  # null: no user
        if self.is_resource:
            del spec["resourceAttributes"]["version"]
        return spec

    def describe(self) -> str:
        """One line for people: `get pods/log busybox in namespace default as jane (groups: dev)`."""
        if self.is_resource:
            target = self.resource + (f".{self.group}" if self.group else "") + (f"/{self.subresource}" if self.subresource else "")
            words = [show(self.verb), show(target)]
            if self.name:
                words.append(show(self.name))
            if self.namespace:
                words.append(f"in namespace {show(self.namespace)}")
        else:
            words = [show(self.verb), show(self.path or "")]
        if self.user is None:
            words.append("with no user")
        else:
            words.append(f"as {show(self.user)}")
            if self.groups:
                words.append(f"(groups: {', '.join(show(g) for g in self.groups)})")
        return " ".join(words)


def show(value: str) -> str:
    """A value as typed when it is plain, else quoted like Go's %q (never a control character)."""
    return value if _PLAIN.match(value) else go_quote(value)


def parse_resource(text: str) -> tuple[str, str, str]:
    """`deployments.apps/scale` -> ("deployments", "apps", "scale"); the group follows the first dot."""
    head, _, subresource = text.partition("/")
    resource, _, group = head.partition(".")
    if not resource or (text.count("/") and not subresource) or "/" in subresource:
        raise RequestError(f"resource: {render_value(text)} is not RESOURCE[.GROUP][/SUBRESOURCE]")
    return resource, group, subresource


def build(values: dict, expects: tuple = (), need_subject: bool = False, line: int | None = None) -> Request:
    """A Request from field values (flags or one item of a requests file); RequestError names what is wrong."""
    verb = values.get("verb")
    if not verb:
        raise RequestError("verb: required")
    path, resource = values.get("path"), values.get("resource")
    if path is not None:
        if resource or values.get("namespace") or values.get("name"):
            raise RequestError("path: a non-resource request has no resource, namespace or name")
        if not path.startswith("/"):
            raise RequestError(f"path: {render_value(path)} must start with /")
    elif not resource:
        raise RequestError("resource or path: required")
    user, groups = values.get("user"), tuple(values.get("groups") or ())
    extra = values.get("extra") or {}
    if user is None and (groups or values.get("uid") or extra):
        user = ""
    if need_subject and not (user or groups):
        raise RequestError("user or groups: required (a SubjectAccessReview names a user or a group)")
    expect = values.get("expect")
    if expect is not None and expect not in expects:
        raise RequestError(f"expect: {render_value(expect)} is not one of {', '.join(expects)}")
    name, group, subresource = parse_resource(resource) if resource else ("", "", "")
    return Request(
        verb=verb,
        user=user,
        groups=groups,
        uid=values.get("uid") or "",
        extra=extra,
        resource=name,
        group=group,
        subresource=subresource,
        namespace=values.get("namespace") or "",
        name=values.get("name") or "",
        path=path,
        expect=expect,
        line=line,
    )


def from_flags(args, expects: tuple = (), need_subject: bool = False) -> Request:
    values = {field: getattr(args, field, None) for field in FIELDS if field not in ("groups", "extra")}
    try:
        extra: dict[str, list[str]] = {}
        for item in args.extra or []:
            key, sep, value = item.partition("=")
            if not sep or not key:
                raise RequestError(f"extra: {render_value(item)} is not KEY=VALUE")
            extra.setdefault(key, []).append(value)
        values.update(groups=args.group or [], extra=extra)
        return build(values, expects, need_subject)
    except RequestError as problem:
        # Name the flags: "resource or path: required" -> "--resource or --path: required".
        fields, _, detail = str(problem).partition(":")
        flags = re.sub(
            r"[a-z]+", lambda m: "--group" if m.group() == "groups" else f"--{m.group()}" if m.group() in FIELDS else m.group(), fields
        )
        raise RequestError(f"{flags}:{detail}") from None


# --------------------------------------------------------------------------- requests file


def from_file(path: str, expects: tuple = (), need_subject: bool = False) -> list[Request]:
    """Every request of a YAML or JSON list; a problem raises RequestError with `file:line:col: field: message`."""
    from ..load.files import TooLarge
    from ..load.source import load_bytes, position
    from ..model import Anchor
    from .config import read_input, unreadable

    try:
        source = load_bytes(path, read_input(path))
    except (OSError, TooLarge) as problem:
        raise RequestError(unreadable(path, problem)) from None
    if source.problems:
        problem = source.problems[0]
        raise RequestError(f"{path}:{problem.line}:{problem.column}: {problem.message}")
    if len(source.documents) != 1 or not isinstance(source.documents[0].data, list) or not source.documents[0].data:
        raise RequestError(f"{path}: expected one YAML or JSON list of requests")
    document = source.documents[0]
    requests = []
    for index, item in enumerate(document.data):
        line, column = position(document.root, (index,))
        try:
            requests.append(build(_item_values(item), expects, need_subject, line))
        except RequestError as problem:
            # Point at the unknown key, the field's value, or the request when the field is absent.
            if problem.unknown is not None:
                line, column = position(document.root, (index, problem.unknown), Anchor.KEY)
            else:
                line, column = position(document.root, (index, str(problem).split(":", 1)[0]))
            raise RequestError(f"{path}:{line}:{column}: requests[{index}].{problem}") from None
    return requests


def _item_values(item: Any) -> dict:
    if not isinstance(item, dict):
        raise RequestError(f"must be a mapping of {', '.join(FIELDS)}")
    for key in item:
        if key not in FIELDS:
            raise RequestError(f"{show(str(key))}: unknown field (known: {', '.join(FIELDS)})", unknown=key)
    for key, value in item.items():
        if key == "groups":
            if not isinstance(value, list) or not all(isinstance(g, str) for g in value):
                raise RequestError("groups: must be a list of strings")
        elif key == "extra":
            if not isinstance(value, dict) or not all(
                isinstance(k, str) and isinstance(v, list) and all(isinstance(s, str) for s in v) for k, v in value.items()
            ):
                raise RequestError("extra: must map keys to lists of strings")
        elif not isinstance(value, str):
            raise RequestError(f"{key}: must be a string")
    return item

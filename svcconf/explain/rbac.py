"""Offline RBAC: the Roles, ClusterRoles and bindings of some files, asked about a request as the API server's RBAC authorizer asks the cluster's.

Semantics of kubernetes `plugin/pkg/auth/authorizer/rbac/rbac.go` and
`pkg/registry/rbac/validation/rule.go`: ClusterRoleBindings first, then the RoleBindings of the
request's namespace; the first rule that allows the request decides; RBAC never denies (no rule:
no opinion). A ClusterRole with an aggregationRule also holds the rules of the ClusterRoles its
selectors match, as the aggregation controller would have filled them in.
"""

from __future__ import annotations

from typing import NamedTuple

from ..model import go_quote, items, mapping, text
from .audit import path_matches
from .request import Request

GROUP = "rbac.authorization.k8s.io"
DEFAULT_NAMESPACE = "default"  # where kubectl puts a namespaced object that names none
# Roles the API server creates itself; a binding to one of them is not an error in a cluster.
_SERVER_ROLES = ("cluster-admin", "admin", "edit", "view")


class PolicyRule(NamedTuple):
    verbs: frozenset
    groups: frozenset
    resources: frozenset
    names: frozenset  # empty: any name
    urls: tuple


class ClusterRole(NamedTuple):
    rules: tuple
    labels: dict
    selectors: tuple | None  # aggregationRule.clusterRoleSelectors


class Binding(NamedTuple):
    kind: str  # ClusterRoleBinding or RoleBinding
    name: str
    namespace: str
    role_kind: str
    role_name: str
    subjects: tuple


class Decision(NamedTuple):
    allowed: bool
    reason: str


def _strings(value) -> list[str]:
    return [v for _i, v in items(value) if isinstance(v, str)]


def _rule(body) -> PolicyRule:
    body = mapping(body)
    return PolicyRule(
        frozenset(_strings(body.get("verbs"))),
        frozenset(_strings(body.get("apiGroups"))),
        frozenset(_strings(body.get("resources"))),
        frozenset(_strings(body.get("resourceNames"))),
        tuple(_strings(body.get("nonResourceURLs"))),
    )


class Policy:
    """The RBAC objects of some files, indexed as the authorizer's listers index a cluster's."""

    def __init__(self) -> None:
        self.roles: dict[tuple[str, str], tuple] = {}
        self.cluster_roles: dict[str, ClusterRole] = {}
        self.cluster_bindings: list[Binding] = []
        self.role_bindings: dict[str, list[Binding]] = {}
        self._aggregated: dict[str, tuple] = {}
        self._by_label: dict[tuple, set[str]] | None = None  # (label, value): ClusterRoles carrying it

    def add(self, data) -> None:
        kind, meta = data.get("kind"), mapping(data.get("metadata"))
        name = text(meta.get("name"))
        namespace = text(meta.get("namespace")) or DEFAULT_NAMESPACE
        rules = tuple(_rule(r) for _i, r in items(data.get("rules")))
        if kind == "Role":
            self.roles[(namespace, name)] = rules
        elif kind == "ClusterRole":
            aggregation = data.get("aggregationRule")
            selectors = tuple(mapping(s) for _i, s in items(mapping(aggregation).get("clusterRoleSelectors"))) if aggregation else None
            self.cluster_roles[name] = ClusterRole(rules, mapping(meta.get("labels")), selectors)
        elif kind in ("RoleBinding", "ClusterRoleBinding"):
            ref = mapping(data.get("roleRef"))
            subjects = tuple(mapping(s) for _i, s in items(data.get("subjects")))
            scope = namespace if kind == "RoleBinding" else ""
            binding = Binding(kind, name, scope, text(ref.get("kind")), text(ref.get("name")), subjects)
            if kind == "RoleBinding":
                self.role_bindings.setdefault(namespace, []).append(binding)
            else:
                self.cluster_bindings.append(binding)

    # ----------------------------------------------------------------------- resolving roles

    def rules_of(self, binding: Binding) -> tuple[tuple, str | None]:
        """The rules a binding grants, or an error the way the server's listers word it."""
        if binding.role_kind == "Role":
            rules = self.roles.get((binding.namespace, binding.role_name))
            return (rules, None) if rules is not None else ((), _not_found("role", binding.role_name))
        if binding.role_kind == "ClusterRole":
            if binding.role_name not in self.cluster_roles:
                return (), _not_found("clusterrole", binding.role_name)
            return self._cluster_rules(binding.role_name), None
        return (), f"unsupported role reference kind: {go_quote(binding.role_kind)}"

    def _cluster_rules(self, name: str) -> tuple:
        """A ClusterRole's rules with those of the roles its selectors match, theirs included, each rule once.

        Depth first with a stack of its own: a chain of aggregating roles may be thousands long. A
        role met again while its own rules are being gathered (a cycle) gives only its own rules.
        """
        role = self.cluster_roles[name]
        if role.selectors is None or name in self._aggregated:
            return self._aggregated.get(name, role.rules)
        gathering = {name}
        stack = [(name, iter(self._members(name)), list(role.rules))]
        while stack:
            current, members, rules = stack[-1]
            for member in members:
                other = self.cluster_roles[member]
                if other.selectors is None or member in gathering:
                    rules += other.rules
                elif member in self._aggregated:
                    rules += self._aggregated[member]
                else:
                    gathering.add(member)
                    stack.append((member, iter(self._members(member)), list(other.rules)))
                    break
            else:
                stack.pop()
                self._aggregated[current] = tuple(dict.fromkeys(rules))  # each rule once, as the controller keeps them
                if stack:
                    stack[-1][2].extend(self._aggregated[current])
        return self._aggregated[name]

    def _members(self, name: str) -> list[str]:
        """The other ClusterRoles an aggregating role's selectors match, by name.

        Roles are indexed by label, so a selector with matchLabels looks only at the roles that
        carry them: a thousand aggregating roles cost a thousand lookups, not a million matches.
        """
        if self._by_label is None:
            self._by_label = {}
            for other, role in self.cluster_roles.items():
                for pair in role.labels.items():
                    if isinstance(pair[1], str):
                        self._by_label.setdefault(pair, set()).add(other)
        found: set[str] = set()
        for selector in self.cluster_roles[name].selectors or ():
            wanted = [pair for pair in mapping(selector.get("matchLabels")).items() if isinstance(pair[1], str)]
            candidates = set.intersection(*(self._by_label.get(pair, set()) for pair in wanted)) if wanted else self.cluster_roles
            found.update(other for other in candidates if selector_matches(selector, self.cluster_roles[other].labels))
        found.discard(name)
        return sorted(found)

    # ----------------------------------------------------------------------- authorizing

    def authorize(self, request: Request) -> Decision:
        errors: list[str] = []
        scopes = [(self.cluster_bindings, "")]
        if request.namespace:
            scopes.append((self.role_bindings.get(request.namespace, []), request.namespace))
        for bindings, namespace in scopes:
            for binding in bindings:
                subject = next((s for s in binding.subjects if applies(s, request, namespace)), None)
                if subject is None:
                    continue
                rules, error = self.rules_of(binding)
                if error:
                    errors.append(error)
                if any(rule_allows(rule, request) for rule in rules):
                    return Decision(True, f"allowed by {_describe(binding, subject)}")
        reason = "no rule bound to the user allows it"
        if errors:
            reason += f"; unresolved: {', '.join(errors)}"
        return Decision(False, reason)


def _not_found(resource: str, name: str) -> str:
    hint = " (a role the API server creates; not in the --rbac files)" if name in _SERVER_ROLES or name.startswith("system:") else ""
    return f"{resource}.{GROUP} {go_quote(name)} not found{hint}"


def _describe(binding: Binding, subject: dict) -> str:
    """Upstream's wording: ClusterRoleBinding "x" of ClusterRole "y" to User "z"."""
    name = f"{binding.name}/{binding.namespace}" if binding.kind == "RoleBinding" else binding.name
    kind, who = text(subject.get("kind")), text(subject.get("name"))
    if kind == "ServiceAccount":
        who = f"{who}/{text(subject.get('namespace')) or binding.namespace}"
    return f"{binding.kind} {go_quote(name)} of {binding.role_kind} {go_quote(binding.role_name)} to {kind} {go_quote(who)}"


def applies(subject: dict, request: Request, namespace: str) -> bool:
    kind, name = subject.get("kind"), text(subject.get("name"))
    if kind == "User":
        return request.user == name
    if kind == "Group":
        return name in request.groups
    if kind == "ServiceAccount":
        account_namespace = text(subject.get("namespace")) or namespace
        return bool(account_namespace) and request.user == f"system:serviceaccount:{account_namespace}:{name}"
    return False


def rule_allows(rule: PolicyRule, request: Request) -> bool:
    """RuleAllows of upstream: verb, then API group, resource (`*`, exact, `*/subresource`) and name; or the URL."""
    if not ("*" in rule.verbs or request.verb in rule.verbs):
        return False
    if not request.is_resource:
        return any(path_matches(request.path or "", url) for url in rule.urls)
    if not ("*" in rule.groups or request.group in rule.groups):
        return False
    combined = request.combined_resource
    resource_ok = (
        "*" in rule.resources or combined in rule.resources or (bool(request.subresource) and f"*/{request.subresource}" in rule.resources)
    )
    return resource_ok and (not rule.names or request.name in rule.names)


def selector_matches(selector: dict, labels: dict) -> bool:
    """metav1.LabelSelector: matchLabels and matchExpressions; an empty selector matches everything."""
    for key, value in mapping(selector.get("matchLabels")).items():
        if labels.get(key) != value:
            return False
    for _i, expression in items(selector.get("matchExpressions")):
        expression = mapping(expression)
        key, operator, values = expression.get("key"), expression.get("operator"), _strings(expression.get("values"))
        present = key in labels
        if operator == "In":
            ok = present and labels[key] in values
        elif operator == "NotIn":
            ok = not present or labels[key] not in values
        elif operator == "Exists":
            ok = present
        elif operator == "DoesNotExist":
            ok = not present
        else:
            return False  # the server refuses the selector: it selects nothing
        if not ok:
            return False
    return True


def load(paths: list[str]) -> Policy:
    """Every Role, ClusterRole and binding in files and folders (List kinds are opened)."""
    from ..known.naming import Naming, default_domain
    from ..load.discovery import discover
    from .config import Unusable, objects, read

    files, missing = discover(paths)
    if missing:
        raise Unusable(f"cannot read {missing[0]}: no such file or folder")
    policy, naming = Policy(), Naming(default_domain())
    for path in files:
        for data, _root, _where in objects(read(path)):
            if not isinstance(data, dict) or not isinstance(data.get("apiVersion"), str):
                continue
            gv = naming.api_version(data["apiVersion"])
            if gv is not None and gv.group == GROUP:
                policy.add(data)
    return policy

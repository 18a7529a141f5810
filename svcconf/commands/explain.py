"""`svcconf explain claims|audit|authz|encryption`: what the API server would do with a request under a configuration.

The evaluation lives in `svcconf/explain/` and is imported inside the topic's run. A topic's
parser is built only when `svcconf explain TOPIC` runs: every svcconf start builds the command
parsers, and five more argparse parsers would cost each start ~1.5 ms. `explain claims` is the
`explain-claims` command's own parser under this name.
"""

from __future__ import annotations

import argparse
import sys

from . import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, error, explain_claims

FORMATS = ("text", "json")
LEVELS = ("None", "Metadata", "Request", "RequestResponse")  # audit levels, as --expect takes them
DECISIONS = ("Allow", "Deny", "NoOpinion", "Unknown")
# Flags that describe one request; --requests replaces all of them.
REQUEST_FLAGS = ("user", "group", "uid", "extra", "verb", "resource", "namespace", "name", "path", "expect")
TOPICS = {
    "claims": "the JWT authenticator that takes a token's claims, and the user it maps",
    "audit": "the audit policy rule, level and stages of a request",
    "authz": "the authorizer chain's decision on a request",
    "encryption": "the providers that write and read a resource at rest",
}


def add_parser(commands) -> None:
    listing = "\n".join(f"  {name:<11} {text}" for name, text in TOPICS.items())
    parser = commands.add_parser(
        "explain",
        help="show what the API server would do with a request under a configuration",
        description="Explain a configuration's behaviour: the JWT claims mapping, the audit level of a request,\n"
        "the authorizer chain's decision, or the encryption providers of a resource.\n"
        "Exit code 1 when an --expect fails, 2 for a usage error or a configuration the server refuses.",
        epilog=f"topics:\n{listing}\n\nsvcconf explain TOPIC --help shows a topic's arguments.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("topic", choices=TOPICS, metavar="TOPIC", help=", ".join(TOPICS))
    parser.add_argument("arguments", nargs=argparse.REMAINDER, metavar="...", help="the topic's arguments")
    parser.set_defaults(run=run)


def run(args) -> int:
    topic = topic_parser(args.topic)
    options = topic.parse_args(args.arguments)
    return options.run(options)


def topic_parser(topic: str) -> argparse.ArgumentParser:
    prog = f"svcconf explain {topic}"
    if topic == "claims":
        standalone = explain_claims.Standalone(prog)
        explain_claims.add_parser(standalone)
        parser = standalone.parser
        _format_flag(parser)
        parser.set_defaults(run=_run_claims)
    elif topic == "audit":
        parser = argparse.ArgumentParser(
            prog=prog,
            description="Show the first audit policy rule that matches each request, its level, the stages recorded, and why "
            "earlier rules do not match, as the API server's policy checker decides.",
        )
        parser.add_argument("config", metavar="POLICY", help="audit Policy file")
        _request_flags(parser, f"expected level ({', '.join(LEVELS)})")
        parser.set_defaults(run=_run_audit)
    elif topic == "authz":
        parser = argparse.ArgumentParser(
            prog=prog,
            description="Walk an AuthorizationConfiguration's authorizers for each request: webhook matchConditions evaluated in "
            "the server's CEL environment, and where the decision depends on cluster state.",
        )
        parser.add_argument("config", metavar="CONFIG", help="AuthorizationConfiguration file")
        parser.add_argument(
            "--rbac", action="append", default=[], metavar="PATH", help="Roles, ClusterRoles and bindings (file or folder, repeatable)"
        )
        _request_flags(parser, f"expected decision ({', '.join(DECISIONS)})")
        parser.set_defaults(run=_run_authz)
    else:
        parser = argparse.ArgumentParser(
            prog=prog,
            description="Show which provider encrypts new writes of a resource, which providers and keys can read stored data, and "
            "which entries that also name the resource are never used for it. Key secrets are never printed.",
        )
        parser.add_argument("config", metavar="CONFIG", help="EncryptionConfiguration file")
        parser.add_argument("--resource", required=True, metavar="RESOURCE[.GROUP]", help="resource, e.g. secrets or deployments.apps")
        _format_flag(parser)
        parser.set_defaults(run=_run_encryption)
    if topic != "claims":  # explain-claims' parser has them
        explain_claims.add_settings_arguments(parser)
    return parser


def _format_flag(parser) -> None:
    parser.add_argument("-f", "--format", choices=FORMATS, default="text", help="output format (default: text)")


def _request_flags(parser, expect_help: str) -> None:
    group = parser.add_argument_group("request (as kubectl auth can-i and a SubjectAccessReview name it)")
    group.add_argument("--user", metavar="USER", help="user name (default: no user)")
    group.add_argument("--group", action="append", metavar="GROUP", help="group of the user (repeatable)")
    group.add_argument("--uid", metavar="UID", help="user UID")
    group.add_argument("--extra", action="append", metavar="KEY=VALUE", help="extra user information (repeatable)")
    group.add_argument("--verb", metavar="VERB", help="get, list, create, ... (or the HTTP verb of a non-resource URL)")
    group.add_argument("--resource", metavar="RESOURCE[.GROUP][/SUBRESOURCE]", help="e.g. pods, deployments.apps/scale")
    group.add_argument("-n", "--namespace", metavar="NAMESPACE", help="namespace of the resource (default: none)")
    group.add_argument("--name", metavar="NAME", help="name of the object")
    group.add_argument("--path", metavar="/URL", help="non-resource URL, e.g. /healthz (instead of --resource)")
    group.add_argument("--expect", metavar="VALUE", help=expect_help + "; exit code 1 when it differs")
    group.add_argument("--requests", metavar="FILE", help="YAML or JSON list of requests (same fields, groups as a list, expect)")
    _format_flag(parser)


def _problem(problem) -> int:
    """Report why nothing can be explained; config diagnostics first, as validate prints them."""
    lines = getattr(problem, "lines", None) or (str(problem),)
    for line in lines[:-1]:
        sys.stderr.write(line + "\n")
    error(lines[-1])
    return EXIT_USAGE


def _requests(args, expects: tuple, need_subject: bool = False) -> list:
    from ..explain.request import RequestError, from_file, from_flags

    if args.requests is not None:
        given = [f"--{flag}" for flag in REQUEST_FLAGS if getattr(args, flag) not in (None, [])]
        if given:
            raise RequestError(f"--requests cannot be combined with {', '.join(given)}")
        return from_file(args.requests, expects, need_subject)
    return [from_flags(args, expects, need_subject)]


def _emit(args, outcomes: list, actual, as_json, as_text, as_table) -> int:
    from ..explain import render

    file = args.config
    if args.format == "json":
        results = [as_json(o, file) for o in outcomes]
        out = render.many_json(results) if args.requests is not None else {"version": render.JSON_VERSION, **results[0]}
        sys.stdout.write(render.dump(out))
    else:
        sys.stdout.write(as_table(outcomes) if args.requests is not None else as_text(outcomes[0], file))
    failed = any(render.expectation_met(o.request, actual(o)) is False for o in outcomes)
    return EXIT_FINDINGS if failed else EXIT_OK


def _run_audit(args) -> int:
    from ..explain import audit, render
    from ..explain.config import Unusable, load
    from ..explain.request import RequestError

    options = explain_claims.settings(args)
    if options is None:
        return EXIT_USAGE
    try:
        requests = _requests(args, LEVELS)
        loaded = load(args.config, (("audit.k8s.io", "Policy"),), "audit Policy (audit.k8s.io)", options)
    except (RequestError, Unusable) as problem:
        return _problem(problem)
    policy = audit.policy(loaded.data, loaded.root)
    outcomes = [audit.explain(policy, request) for request in requests]
    return _emit(args, outcomes, lambda o: o.level, render.audit_json, render.audit_text, render.audit_table)


def _run_authz(args) -> int:
    from ..explain import authz, rbac, render
    from ..explain.config import Unusable, load
    from ..explain.request import RequestError

    options = explain_claims.settings(args)
    if options is None:
        return EXIT_USAGE
    try:
        requests = _requests(args, DECISIONS, need_subject=True)
        loaded = load(args.config, ((None, "AuthorizationConfiguration"),), "AuthorizationConfiguration", options)
        roles = rbac.load(args.rbac) if args.rbac else None
    except (RequestError, Unusable) as problem:
        return _problem(problem)
    chain = authz.chain(loaded.data, loaded.root, options.resolved_target())
    outcomes = [authz.explain(chain, request, roles) for request in requests]
    return _emit(args, outcomes, lambda o: o.decision, render.authz_json, render.authz_text, render.authz_table)


def _run_encryption(args) -> int:
    from ..explain import encryption, render
    from ..explain.config import Unusable, load
    from ..explain.request import RequestError

    options = explain_claims.settings(args)
    if options is None:
        return EXIT_USAGE
    try:
        resource, group = _one_resource(args.resource)
        kinds = ((None, "EncryptionConfiguration"), (None, "EncryptionConfig"))
        loaded = load(args.config, kinds, "EncryptionConfiguration", options)
    except (RequestError, Unusable) as problem:
        return _problem(problem)
    outcome = encryption.explain(loaded.data, loaded.root, resource, group)
    if args.format == "json":
        sys.stdout.write(render.dump({"version": render.JSON_VERSION, **render.encryption_json(outcome, loaded.name)}))
    else:
        sys.stdout.write(render.encryption_text(outcome, loaded.name))
    return EXIT_OK


def _one_resource(text: str) -> tuple[str, str]:
    """RESOURCE[.GROUP] of --resource: one resource, no subresource or wildcard."""
    from ..explain.request import RequestError, parse_resource
    from ..model import render_value

    try:
        resource, group, subresource = parse_resource(text)
    except RequestError:
        resource, group, subresource = "", "", text
    if not resource or subresource or "*" in (resource, group):
        raise RequestError(f"--resource: name one resource as RESOURCE[.GROUP], not {render_value(text)}")
    return resource, group


def _run_claims(args) -> int:
    """Text is `explain-claims` itself; JSON renders the same explanation, with the same redaction."""
    if args.format == "text":
        return explain_claims.run(args)
    import time

    from ..claims import explain
    from ..explain.render import claims_json, dump

    options = explain_claims.settings(args)
    if options is None:
        return EXIT_USAGE
    config = explain_claims.load_config(args.config, options)
    claims = explain_claims.load_claims(args.claims)
    if config is None or claims is None:
        return EXIT_USAGE
    result = explain(config, claims, time.time() if args.now is None else args.now, args.secret)
    secrets = [value for name in args.secret for value in explain_claims.secret_values(claims.get(name))]
    sys.stdout.write(dump(claims_json(result, secrets)))
    return EXIT_FINDINGS if result.rejected else EXIT_OK

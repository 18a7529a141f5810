"""`svcconf explain-claims`: which authenticator takes a JWT payload, and the user the server would make of it."""

from __future__ import annotations

import sys

from . import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, error

AUTHN_KIND = "AuthenticationConfiguration"


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "explain-claims",
        help="evaluate an AuthenticationConfiguration against a JWT payload",
        description="Show which JWT authenticator takes the token, each claim validation rule's result, and the "
        "username, uid, groups and extra the API server would map. The signature is not checked.",
    )
    parser.add_argument("config", metavar="CONFIG", help="AuthenticationConfiguration file")
    parser.add_argument("--claims", required=True, metavar="CLAIMS.json", help="JWT payload as JSON, or a compact JWT ('-' reads stdin)")
    parser.add_argument("--secret", action="append", default=[], metavar="CLAIM", help="claim whose value is never printed (repeatable)")
    parser.add_argument("--now", type=float, default=None, metavar="SECONDS", help="time to check exp against (Unix seconds; default: now)")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


class Standalone:
    """Hands a command module's `add_parser` a parser of its own (an explain topic, validate's defaults)."""

    def __init__(self, prog: str) -> None:
        self.prog, self.parser = prog, None

    def add_parser(self, _name: str, **options):
        import argparse

        options.pop("help", None)  # a subcommand's one-line summary; a parser of its own has none
        self.parser = argparse.ArgumentParser(prog=self.prog, **options)
        return self.parser


def add_settings_arguments(parser) -> None:
    """The settings an explain command reads its file with: validate's, from the same configuration file."""
    from ..settings.options import add_target_argument

    add_target_argument(
        parser, help="release the server runs: 1.31, v1.31 or 1.31.2 (default: target-version of the configuration file, else the newest)"
    )
    parser.add_argument(
        "--config", dest="settings_file", metavar="FILE", help="configuration file (default: .svcconf.yaml or pyproject.toml found upward)"
    )
    parser.add_argument("--no-config", action="store_true", help="ignore configuration files")


def settings(args):
    """validate's options for this run (ValidateOptions), read as validate reads them: its defaults, the
    configuration file (read_config) and --target-version; None after saying why they cannot be used."""
    from ..settings.config import ConfigError, read_config
    from ..settings.options import OptionsError, validate_options
    from . import config_error
    from .validate import add_parser

    standalone = Standalone("svcconf validate")  # validate's own parser, for its defaults
    add_parser(standalone)
    given = standalone.parser.parse_args([])
    given.target_version, given.config, given.no_config = args.target_version, args.settings_file, args.no_config
    try:
        return validate_options(given, read_config(given))
    except ConfigError as err:
        config_error(err)
    except OptionsError as err:
        error(str(err))
    return None


def run(args) -> int:
    import time

    from ..claims import explain

    options = settings(args)
    if options is None:
        return EXIT_USAGE
    config = load_config(args.config, options)
    claims = load_claims(args.claims)
    if config is None or claims is None:
        return EXIT_USAGE
    result = explain(config, claims, time.time() if args.now is None else args.now, args.secret)
    secrets = [v for name in args.secret for v in secret_values(claims.get(name))]
    sys.stdout.write(render(result, secrets))
    return EXIT_FINDINGS if result.rejected else EXIT_OK


def load_config(path: str, options=None) -> dict | None:
    """The file's AuthenticationConfiguration, read as validate reads it (with `options`, ValidateOptions);
    None (errors printed) when the server would refuse it."""
    from ..explain.config import Unusable, load, read_input
    from ..load.files import TooLarge

    try:
        data = read_input(path)
    except (OSError, TooLarge) as problem:  # say why without echoing the argument: it may be a token pasted in
        _unreadable("CONFIG", path, problem)
        return None
    try:
        return load(path, ((None, AUTHN_KIND),), AUTHN_KIND, options, data).data
    except Unusable as unusable:
        for line in unusable.lines:
            error(line)
        return None


def load_claims(path: str) -> dict | None:
    import base64
    import json

    from ..explain.config import read_input
    from ..load.files import TooLarge

    try:
        text = read_input(path).decode("utf-8")
    except (OSError, TooLarge, UnicodeDecodeError) as problem:
        _unreadable("--claims", path, problem)
        return None
    text = text.strip()
    if not text.startswith("{") and text.count(".") == 2:
        # A compact JWT: only its payload is read; the token itself is never printed.
        payload = text.split(".")[1]
        try:
            text = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).decode("utf-8")
        except (ValueError, UnicodeDecodeError):
            error(f"{path}: not a JSON payload or a JWT")
            return None
    try:
        claims = json.loads(text)
    except ValueError as problem:
        error(f"{path}: not a JSON payload or a JWT ({problem.__class__.__name__})")
        return None
    if not isinstance(claims, dict):
        error(f"{path}: the payload must be a JSON object")
        return None
    return claims


def _unreadable(argument: str, path: str, problem: Exception) -> None:
    """Say why the file an argument names cannot be read; the --claims argument, maybe a token pasted in, is never echoed."""
    if isinstance(problem, OSError):
        reason = (problem.strerror or "it cannot be read").lower()
    else:
        reason = "it is not UTF-8 text" if isinstance(problem, UnicodeDecodeError) else f"it is {problem}"
    shape = _token_shape(path)
    if argument == "CONFIG" and shape is None:
        error(f"cannot read {path}: {reason}")
        return
    looks = f", {shape}," if shape else ""
    wanted = "the AuthenticationConfiguration file" if argument == "CONFIG" else "a file with the JWT or its payload, or - for stdin"
    error(
        f"{argument}: cannot read the file it names ({reason}); the argument is {len(path)} characters{looks} "
        f"and is not printed, as it may be a token: give {wanted}"
    )


def _token_shape(text: str) -> str | None:
    """What a token pasted where a file name belongs looks like, told without its content."""
    import base64
    import binascii

    text = text.strip()
    if text.startswith("{"):
        return "starting with '{' like a JSON payload"
    header = text.split(".")[0]
    try:
        is_jwt = text.count(".") == 2 and base64.urlsafe_b64decode(header + "=" * (-len(header) % 4)).startswith(b"{")
    except (binascii.Error, ValueError):
        is_jwt = False
    return "in three dot-separated parts like a compact JWT" if is_jwt else None


def secret_values(value) -> list[str]:
    """The strings a secret claim holds, nested ones included: any text that holds one is printed as REDACTED."""
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, dict):
        value = list(value.values())
    return [text for item in value for text in secret_values(item)] if isinstance(value, list) else []


def render(result, secrets: list[str] = ()) -> str:
    """The explanation as text; a value holding a secret claim's value prints as REDACTED.

    Claim values are quoted and the rules' own text (expressions, messages) is escaped, so neither
    the payload nor the config can add a line or a terminal escape.
    """
    from ..claims import REDACTED
    from ..escape import printable
    from ..model import render_value

    def q(value: str) -> str:
        return REDACTED if value == REDACTED or any(secret in value for secret in secrets) else render_value(value)

    lines = []
    if result.index is None:
        lines.append("authenticator: none")
    else:
        lines.append(f"authenticator: jwt[{result.index}] (issuer {result.issuer})")
        if result.audience:
            lines.append(f"audience: {q(result.audience)}")
    if result.claim_rules:
        lines.append("claim validation rules:")
        lines += [_outcome(i, r) for i, r in enumerate(result.claim_rules)]
    if result.user is not None:
        user = result.user
        lines.append("user:")
        lines.append(f"  username: {q(user['username'])}")
        if user["uid"]:
            lines.append(f"  uid: {q(user['uid'])}")
        if user["groups"]:
            lines.append(f"  groups: {', '.join(q(g) for g in user['groups'])}")
        for key in sorted(user["extra"]):
            lines.append(f"  extra {key}: {', '.join(q(v) for v in user['extra'][key])}")
    if result.user_rules:
        lines.append("user validation rules:")
        lines += [_outcome(i, r) for i, r in enumerate(result.user_rules)]
    if result.rejected:
        reason = result.rejected
        for secret in secrets:
            reason = reason.replace(secret, REDACTED)
        lines.append(f"result: rejected: {reason}")
    else:
        lines.append("result: authenticated")
    return "".join(printable(line) + "\n" for line in lines)


def _outcome(index: int, outcome) -> str:
    verdict = "pass" if outcome.passed else "fail"
    note = f" ({outcome.note})" if outcome.note else ""
    return f"  [{index}] {outcome.label}: {verdict}{note}"

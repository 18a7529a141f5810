"""One component's command line against its flag table: names per release, values, feature gates, refused combinations."""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.known.catalog import format_release
from svcconf.known.feature_gates import SPECIAL, gate_table, spec_at
from svcconf.known.flags.arguments import Arg, CommandLine, merged
from svcconf.known.flags.table import BUILT_IN, Flag, lookup, table
from svcconf.model import Finding, Severity

from .proxy import ignored_beside_config
from .repeats import repeated_flags
from .values import GO_BOOLS, csv_items, enumeration_problems, parse_problem

TRUE = frozenset({"1", "t", "T", "TRUE", "true", "True"})
AUTHORIZATION_LEGACY = (
    "authorization-mode",
    "authorization-webhook-config-file",
    "authorization-webhook-version",
    "authorization-webhook-cache-authorized-ttl",
    "authorization-webhook-cache-unauthorized-ttl",
)


def check_command_line(line: CommandLine, target: tuple) -> Iterator[Finding]:
    flags = table(line.component)
    for arg in line.args:
        flag = lookup(line.component, arg.name)
        if arg.name in BUILT_IN:
            continue
        if flag is None:
            if flags.complete_through is not None and target > flags.complete_through:
                yield _not_in_table(line.component, arg, flags.complete_through)
            elif flags.complete_from is not None and target >= flags.complete_from:
                yield _unknown(line.component, arg, target)
            continue
        finding = _lifecycle(line.component, flag, arg, target)
        if finding is not None:
            yield finding
            if finding.severity == Severity.ERROR:
                continue
        if arg.value is not None:
            yield from _value(line.component, flag, arg, target)
    yield from repeated_flags(line)
    if line.component == "kube-apiserver":
        yield from _apiserver_combinations(line.args)
    elif line.component == "kube-proxy":
        yield from ignored_beside_config(line)


def _unknown_words(component: str, name: str) -> str:
    # etcd reads its flags with Go's flag package, the Kubernetes components with pflag.
    return f"flag provided but not defined: -{name}" if component == "etcd" else f"unknown flag: --{name}"


def _unknown(component: str, arg: Arg, target: tuple) -> Finding:
    from svcconf.known.flags.table import suggestion

    close = suggestion(component, arg.name, target)
    hint = f"; did you mean --{close}?" if close else ""
    return Finding("unknown-flag", arg.name_path, f"{_unknown_words(component, arg.name)}{hint}", Severity.ERROR, arg.name_anchor)


def _not_in_table(component: str, arg: Arg, through: tuple) -> Finding:
    """A name the table does not know, at a release newer than its newest source: a newer flag or a typo."""
    message = (
        f"--{arg.name} is not a {component} flag up to {format_release(through)}, the newest release svcconf's table was read from: "
        f"{_unknown_words(component, arg.name)} unless the target release added it"
    )
    return Finding("flag-not-in-table", arg.name_path, message, Severity.WARNING, arg.name_anchor)


def _lifecycle(component: str, flag: Flag, arg: Arg, target: tuple) -> Finding | None:
    shown = format_release(target)
    if flag.introduced is not None and target < flag.introduced:
        who = "kubeadm's etcd" if component == "etcd" else component
        message = f"{_unknown_words(component, arg.name)}: {who} has it from {format_release(flag.introduced)} (target {shown})"
        return Finding("unknown-flag", arg.name_path, message, Severity.ERROR, arg.name_anchor)
    instead = f"; use --{flag.renamed_to}" if flag.renamed_to else f"; {flag.replacement}" if flag.replacement else ""
    if flag.removed is not None and target >= flag.removed:
        message = f"{_unknown_words(component, arg.name)}: removed in {format_release(flag.removed)} (target {shown}){instead}"
        return Finding("removed-flag", arg.name_path, message, Severity.ERROR, arg.name_anchor)
    if flag.deprecated is not None and target >= flag.deprecated:
        until = f" and is removed in {format_release(flag.removed)}" if flag.removed else ""
        message = f"Flag --{arg.name} has been deprecated since {format_release(flag.deprecated)}{until}{instead}"
        return Finding("deprecated-flag", arg.name_path, message, Severity.WARNING, arg.name_anchor)
    return None


def _value(component: str, flag: Flag, arg: Arg, target: tuple) -> Iterator[Finding]:
    value = arg.value or ""
    problem = parse_problem(flag, value)
    if problem:
        yield Finding("invalid-flag-value", arg.value_path, problem)
        return
    for text in enumeration_problems(flag.name, value, target):
        yield Finding("invalid-flag-value", arg.value_path, text)
    if flag.name == "feature-gates" and component != "etcd":
        yield from _feature_gates(arg, target)


# --------------------------------------------------------------------------- --feature-gates


def _feature_gates(arg: Arg, target: tuple) -> Iterator[Finding]:
    """component-base featuregate.Set: `Name=bool,...` (from 1.31 also `kube:Name=bool`), then SetFromMap."""
    for item in (arg.value or "").split(","):
        if not item:
            continue
        key, equals, raw = item.partition("=")
        key = key.strip()
        if not equals:
            yield Finding("invalid-flag-value", arg.value_path, f"missing bool value for {key}")
            continue
        component, colon, gate = key.rpartition(":")
        if colon and component != "kube":
            continue  # another component's gates (an aggregated server's): not in the table
        raw = raw.strip()
        if raw not in GO_BOOLS:
            yield Finding("invalid-flag-value", arg.value_path, f"invalid value of {key}={raw}, err: {_parse_bool_error(raw)}")
            continue
        yield from _gate(arg, gate, raw in TRUE, target)


def _parse_bool_error(raw: str) -> str:
    return f'strconv.ParseBool: parsing "{raw}": invalid syntax'


def _gate(arg: Arg, gate: str, value: bool, target: tuple) -> Iterator[Finding]:
    if gate in SPECIAL:
        return
    spec = spec_at(gate, target)
    if spec is None:
        gates = gate_table()
        if gate in gates.gates or target in gates.complete_for:
            yield Finding("unknown-gate-in-flag", arg.value_path, f"unrecognized feature gate: {gate}")
        return
    if spec.locked and value != spec.default:
        words = {True: "true", False: "false"}
        yield Finding(
            "locked-gate-in-flag",
            arg.value_path,
            f"cannot set feature gate {gate} to {words[value]}, feature is locked to {words[spec.default]}",
        )


# --------------------------------------------------------------------------- combinations


def _apiserver_combinations(args: list[Arg]) -> Iterator[Finding]:
    """Combinations kube-apiserver refuses at start (pkg/kubeapiserver/options/authorization.go, authentication.go, admission)."""
    last = merged(args)
    config = last.get("authorization-config")
    if config is not None and config.value:
        legacy = [last[name] for name in AUTHORIZATION_LEGACY if name in last]
        for arg in legacy:
            yield Finding(
                "conflicting-flags",
                arg.name_path,
                "--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined",
                Severity.ERROR,
                arg.name_anchor,
            )
    authn = last.get("authentication-config")
    if authn is not None and authn.value:
        for arg in (arg for name, arg in last.items() if name.startswith("oidc-")):
            yield Finding(
                "conflicting-flags",
                arg.name_path,
                "authentication-config file and oidc-* flags are mutually exclusive",
                Severity.ERROR,
                arg.name_anchor,
            )
    yield from _admission_overlap(args)


def _admission_overlap(args: list[Arg]) -> Iterator[Finding]:
    enabled = {item for arg in args if arg.name == "enable-admission-plugins" for item in csv_items(arg.value or "")}
    disabled = [arg for arg in args if arg.name == "disable-admission-plugins"]
    both = sorted(enabled & {item for arg in disabled for item in csv_items(arg.value or "")})
    if both and disabled:
        yield Finding(
            "conflicting-flags",
            disabled[-1].value_path,
            f"[{' '.join(both)}] in enable-admission-plugins and disable-admission-plugins overlapped",
        )

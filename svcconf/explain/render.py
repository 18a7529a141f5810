"""Text and JSON for `svcconf explain`: one explanation in full, many requests as a table with their expectations.

Values from a file or a flag are quoted where they could be mistaken for the text around them,
and every line goes out through `escape`, so input never breaks a line, carries a
terminal escape or starts a CI command.
"""

from __future__ import annotations

from ..escape import json_text, printable
from ..model import go_quote
from . import audit, authz, encryption
from .request import Request, show

JSON_VERSION = 1


def expectation_met(request: Request, actual: str) -> bool | None:
    return None if request.expect is None else request.expect == actual


def dump(data: dict) -> str:
    return json_text(data) + "\n"


def _text(lines: list[str]) -> str:
    return "".join(printable(line) + "\n" for line in lines)


def _with_expectation(data: dict, request: Request, actual: str) -> dict:
    if request.expect is not None:
        data.update(expect=request.expect, ok=request.expect == actual)
    return data


def many_json(results: list[dict]) -> dict:
    failed = sum(1 for r in results if r.get("ok") is False)
    return {"version": JSON_VERSION, "results": results, "failed": failed}


def table(outcomes: list, actual, columns: tuple, cells) -> str:
    """One row per request (its line in the requests file, the request, `cells(outcome)`, the expectation) and a count."""
    rows = []
    expected = failed = 0
    for outcome in outcomes:
        request, got = outcome.request, actual(outcome)
        met = expectation_met(request, got)
        expected += met is not None
        failed += met is False
        result = "-" if met is None else "ok" if met else "FAIL"
        rows.append((str(request.line or ""), request.describe(), *cells(outcome), request.expect or "-", result))
    lines = [("LINE", "REQUEST", *columns, "EXPECT", "RESULT"), *rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    out = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(line)).rstrip() for line in lines]
    count = f"{len(rows)} request{'' if len(rows) == 1 else 's'}"
    if not expected:
        out.append(f"{count}, no expectations")
    elif failed:
        out.append(f"{count}, {failed} of {expected} expectation{'' if expected == 1 else 's'} failed")
    else:
        out.append(f"{count}, every expectation met")
    return _text(out)


def _expect_line(request: Request, actual: str) -> list[str]:
    met = expectation_met(request, actual)
    return [] if met is None else [f"expect: {request.expect}: {'ok' if met else f'FAILED (got {actual})'}"]


# --------------------------------------------------------------------------- audit


def audit_json(outcome: audit.Outcome, file: str) -> dict:
    data = {
        "request": outcome.request.as_json(),
        "rule": outcome.rule,
        "file": file,
        "line": outcome.line,
        "level": outcome.level,
        "stages": list(outcome.stages),
        "longRunning": outcome.long_running,
        "omitStages": list(outcome.omit_stages),
        "omitManagedFields": outcome.omit_managed_fields,
        "unmatched": [{"rule": m.rule, "line": m.line, "reason": m.reason} for m in outcome.misses],
    }
    return _with_expectation(data, outcome.request, outcome.level)


_LONG_RUNNING = "watch, proxy, or a subresource attach, exec, proxy, log or portforward"


def audit_text(outcome: audit.Outcome, file: str) -> str:
    lines = [f"request: {outcome.request.describe()}"]
    if outcome.rule is None:
        lines.append(f"rule: none matches, so level {audit.NO_MATCH_LEVEL} applies")
    else:
        lines.append(f"rule: rules[{outcome.rule}] ({file}:{outcome.line})")
    lines.append(f"level: {outcome.level}")
    if outcome.level == audit.NO_MATCH_LEVEL:
        lines.append("stages: none (level None records no event)")
    else:
        lines.append(f"stages: {', '.join(outcome.stages) or 'none (every stage is omitted)'}")
        if outcome.omit_stages:
            lines.append(f"omitted stages: {', '.join(outcome.omit_stages)}")
        if not outcome.long_running and audit.RESPONSE_STARTED not in outcome.omit_stages:
            lines.append(f"no {audit.RESPONSE_STARTED} event: the server sends it only for long-running requests ({_LONG_RUNNING})")
        if outcome.omit_managed_fields and outcome.level in ("Request", "RequestResponse"):
            lines.append("managed fields: omitted from the recorded bodies")
    if outcome.misses:
        lines.append("earlier rules:" if outcome.rule is not None else "rules that do not match:")
        lines += [f"  rules[{m.rule}] ({file}:{m.line}): {m.reason}" for m in outcome.misses]
    lines += _expect_line(outcome.request, outcome.level)
    return _text(lines)


def audit_table(outcomes: list[audit.Outcome]) -> str:
    return table(outcomes, lambda o: o.level, ("RULE", "LEVEL"), lambda o: ("-" if o.rule is None else f"rules[{o.rule}]", o.level))


# --------------------------------------------------------------------------- authorization


def _step_json(step: authz.Step) -> dict:
    data = {"index": step.index, "name": step.name, "type": step.type, "line": step.line}
    data.update(outcome=step.outcome, reason=step.reason)
    if step.type == "Webhook":
        data.update(called=step.called, failurePolicy=step.failure_policy)
        data["matchConditions"] = [
            {"index": c.index, "expression": c.expression, "result": c.result, "message": c.message} for c in step.conditions
        ]
    return data


def authz_json(outcome: authz.Outcome, file: str) -> dict:
    data = {
        "request": outcome.request.as_json(),
        "file": file,
        "decision": outcome.decision,
        "allowed": outcome.allowed,
        "decidedBy": outcome.decided_by,
        "authorizers": [_step_json(step) for step in outcome.steps],
    }
    return _with_expectation(data, outcome.request, outcome.decision)


def _decision_line(outcome: authz.Outcome) -> str:
    by = show(outcome.decided_by or "")
    if outcome.decision == authz.NO_OPINION:
        return "decision: NoOpinion: no authorizer has an opinion, so the request is forbidden"
    if outcome.decision == authz.UNKNOWN:
        return f"decision: Unknown: depends on {by}"
    return f"decision: {outcome.decision} (by {by})"


def authz_text(outcome: authz.Outcome, file: str) -> str:
    lines = [f"request: {outcome.request.describe()}", "authorizers:"]
    for step in outcome.steps:
        where = "" if step.line is None else f", {file}:{step.line}"
        label = step.name if step.index is None else f"authorizers[{step.index}] {show(step.name)}"
        verdict = f"{step.outcome}: {step.reason}" if step.outcome else step.reason
        lines.append(f"  {label} ({step.type}{where}): {verdict}")
        for condition in step.conditions:
            note = f" ({condition.message})" if condition.message else ""
            lines.append(f"    matchConditions[{condition.index}] {condition.expression}: {condition.result}{note}")
    lines.append(_decision_line(outcome))
    lines += _expect_line(outcome.request, outcome.decision)
    return _text(lines)


def authz_table(outcomes: list[authz.Outcome]) -> str:
    return table(outcomes, lambda o: o.decision, ("DECISION", "BY"), lambda o: (o.decision, show(o.decided_by) if o.decided_by else "-"))


# --------------------------------------------------------------------------- encryption


def _provider_json(provider: encryption.Provider) -> dict:
    data = {"entry": provider.entry, "index": provider.index, "line": provider.line, "type": provider.type}
    if provider.type == "kms":
        data.update(name=provider.name, apiVersion=provider.api_version, endpoint=provider.endpoint)
    elif provider.type != "identity":
        data["keys"] = list(provider.keys)
    data["prefixes"] = list(provider.prefixes())
    return data


def _listed_json(listed: encryption.Listed) -> dict:
    return {"entry": listed.entry, "resource": listed.written, "line": listed.line}


def encryption_json(outcome: encryption.Outcome, file: str) -> dict:
    writer = outcome.writer
    return {
        "file": file,
        "resource": outcome.resource,
        "group": outcome.group,
        "note": outcome.note or None,
        "encrypted": outcome.encrypted,
        "entries": [_listed_json(listed) for listed in outcome.listed],
        "writer": _provider_json(writer) if writer else None,
        "writeKey": (writer.keys[0] if writer.keys else None) if writer else None,
        "readers": [_provider_json(p) for p in outcome.readers],
        "masked": [{**_listed_json(listed), "takenBy": _listed_json(by)} for listed, by in outcome.masked],
    }


def _provider_text(provider: encryption.Provider) -> str:
    where = f"resources[{provider.entry}].providers[{provider.index}] {provider.type}"
    if provider.type == "kms":
        return f"{where} {provider.api_version} {go_quote(provider.name)} (endpoint {go_quote(provider.endpoint)})"
    return where


def encryption_text(outcome: encryption.Outcome, file: str) -> str:
    scope = "core group" if not outcome.group else f"group {show(outcome.group)}"
    lines = [f"resource: {show(outcome.resource)} ({scope})"]
    if outcome.note:
        lines.append(f"note: {outcome.note}")
    if not outcome.listed:
        lines.append("entry: none matches, so new data is stored unencrypted and only unencrypted data can be read")
        return _text(lines)
    entries = ", ".join(f"resources[{e.entry}] {go_quote(e.written)} ({file}:{e.line})" for e in outcome.listed)
    lines.append(f"{'entry' if len(outcome.listed) == 1 else 'entries'}: {entries}")
    writer = outcome.writer
    if writer is None:
        lines.append("writes: no provider")
    elif writer.type == "identity":
        lines.append(f"writes: {_provider_text(writer)}: stored unencrypted")
    else:
        key = f", key {go_quote(writer.keys[0])}" if writer.keys else ""
        lines.append(f"writes: {_provider_text(writer)}{key} (prefix {writer.prefixes()[0]})")
    lines.append("reads:")
    for provider in outcome.readers:
        if provider.type == "identity":
            what = "unencrypted data"
        elif provider.keys:
            what = f"key{'s' if len(provider.keys) > 1 else ''} {', '.join(go_quote(k) for k in provider.keys)}"
        else:
            what = f"data with prefix {provider.prefixes()[0]}"
        lines.append(f"  {_provider_text(provider)} ({file}:{provider.line}): {what}")
    if outcome.masked:
        lines.append("masked for this resource:")
        lines += [
            f"  resources[{m.entry}] {go_quote(m.written)} ({file}:{m.line}): resources[{by.entry}] {go_quote(by.written)} takes precedence"
            for m, by in outcome.masked
        ]
    return _text(lines)


# --------------------------------------------------------------------------- JWT claims


def claims_json(result, secrets: list[str]) -> dict:
    """The claims explanation as data; any value holding a secret claim's value becomes REDACTED."""
    from ..claims import REDACTED

    def q(value):
        if isinstance(value, str):
            return REDACTED if any(secret in value for secret in secrets) else value
        if isinstance(value, list):
            return [q(v) for v in value]
        if isinstance(value, dict):
            return {k: q(v) for k, v in value.items()}
        return value

    def rules(outcomes) -> list[dict]:
        return [{"rule": o.label, "passed": o.passed, "note": o.note} for o in outcomes]

    rejected = result.rejected
    for secret in secrets:
        rejected = rejected.replace(secret, REDACTED) if rejected else rejected
    return {
        "version": JSON_VERSION,
        "authenticator": result.index,
        "issuer": result.issuer or None,
        "audience": q(result.audience) or None,
        "claimValidationRules": rules(result.claim_rules),
        "user": q(result.user),
        "userValidationRules": rules(result.user_rules),
        "authenticated": result.rejected is None,
        "rejected": rejected,
    }

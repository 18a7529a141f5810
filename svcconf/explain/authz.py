"""The authorizer chain of an AuthorizationConfiguration walked for one request: who decides, and where that depends on cluster state.

kube-apiserver puts a system:masters authorizer before the configured ones; the first Allow or
Deny decides, NoOpinion passes the request on, and a request nobody has an opinion on is
forbidden. AlwaysDeny never decides: `alwaysDenyAuthorizer.Authorize`
(`pkg/authorization/authorizerfactory/builtin.go`) returns NoOpinion ("Everything is forbidden."),
so the authorizers after it are consulted. A webhook's matchConditions run in the server's CEL environment with `request` the
SubjectAccessReview spec (`plugin/pkg/authorizer/webhook/webhook.go`,
`pkg/authorization/cel/matcher.go`, `CELMatcher.Eval`): they are evaluated in order and the first
false skips the webhook (NoOpinion) without evaluating the rest; an evaluation error does not stop
the loop, and errors with no false apply failurePolicy (Deny, or NoOpinion: skip); all true calls
the webhook, whose answer is not known here. The listing says which conditions ran.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from ..load.source import position
from ..model import items, mapping, text
from .request import Request

ALLOW, DENY, NO_OPINION, UNKNOWN = "Allow", "Deny", "NoOpinion", "Unknown"
DECISIONS = (ALLOW, DENY, NO_OPINION, UNKNOWN)
SUPERUSER_GROUP = "system:masters"
NODE_USER_PREFIX, NODES_GROUP = "system:node:", "system:nodes"
ALWAYS_DENY_REASON = "Everything is forbidden."  # alwaysDenyAuthorizer's reason beside DecisionNoOpinion

# Condition results.
TRUE, FALSE, ERROR, CANNOT, NOT_EVALUATED = "true", "false", "error", "cannot evaluate", "not evaluated"

_STATUS = re.compile(r"^[A-Z_]+: ")
_NO_KEY = re.compile(r'^Key not found in map : "(.*)"$')
_NOT_HERE = re.compile(r"No overload found in reference resolve step for (\S+)")
# Kubernetes list functions the C++ runtime does not implement (cel.py declares them for type-checks only).
_LIBRARY_GAP = re.compile(r"No matching overloads found : \(list\)\.(indexOf|lastIndexOf)\(")
_ISSUE = re.compile(r"^ERROR: <input>:\d+:\d+: ")


class Condition(NamedTuple):
    index: int
    expression: str
    result: str  # true, false, error, cannot evaluate, not evaluated
    message: str = ""


class Step(NamedTuple):
    index: int | None  # authorizers[index]; None for the system:masters authorizer
    name: str
    type: str
    line: int | None
    outcome: str | None  # Allow, Deny, NoOpinion, Unknown; None: not consulted
    reason: str
    conditions: tuple = ()
    called: bool | None = None  # webhooks: whether the server would call it (None: unknown)
    failure_policy: str | None = None


class Outcome(NamedTuple):
    request: Request
    steps: tuple
    decision: str
    decided_by: str | None  # the step whose outcome is the decision

    @property
    def allowed(self) -> bool | None:
        return True if self.decision == ALLOW else None if self.decision == UNKNOWN else False


class Authorizer(NamedTuple):
    index: int
    name: str
    type: str
    line: int
    failure_policy: str
    conditions: tuple  # (expression, compiled program or the reason it cannot run here)


def chain(data: dict, root, target: tuple) -> tuple:
    """The configured authorizers with their match conditions compiled once."""
    env = None  # the CEL runtime loads only for a chain with match conditions
    out = []
    for index, body in items(data.get("authorizers")):
        body = mapping(body)
        webhook = mapping(body.get("webhook"))
        conditions = []
        for _k, condition in items(webhook.get("matchConditions")):
            expression = text(mapping(condition).get("expression"))
            if env is None:
                from ..cel.bounded import Program
                from ..cel.runtime import environment, release_bucket

                bucket = release_bucket(target)
                env = environment("request", bucket)
            try:
                env.compile(expression)
                program: Any = Program(expression, "request", bucket)
            except RuntimeError as err:  # a declaration the binding cannot make (see cel._NOT_DECLARABLE)
                issue = _ISSUE.sub("", _message(err).split("\n", 1)[0])
                program = f"the runtime here cannot compile it: {issue}"
            conditions.append((expression, program))
        out.append(
            Authorizer(
                index,
                text(body.get("name")),
                text(body.get("type")),
                position(root, ("authorizers", index))[0],
                text(webhook.get("failurePolicy")),
                tuple(conditions),
            )
        )
    return tuple(out)


def explain(authorizers: tuple, request: Request, rbac=None) -> Outcome:
    """Every step up to the first definite decision; after an Unknown one, what follows if it has no opinion."""
    in_group = SUPERUSER_GROUP in request.groups
    first = Step(
        None,
        SUPERUSER_GROUP,
        "Superuser",
        None,
        ALLOW if in_group else NO_OPINION,
        f"the user is in group {SUPERUSER_GROUP}" if in_group else f"the user is not in group {SUPERUSER_GROUP}",
    )
    steps, decision, decided_by = [first], None, None
    if in_group:
        decision, decided_by = ALLOW, SUPERUSER_GROUP
    for authorizer in authorizers:
        if decision in (ALLOW, DENY) or (decision == UNKNOWN and steps[-1].outcome in (ALLOW, DENY)):
            steps.append(Step(authorizer.index, authorizer.name, authorizer.type, authorizer.line, None, "not consulted"))
            continue
        step = _step(authorizer, request, rbac)
        steps.append(step)
        if decision is None and step.outcome != NO_OPINION:
            decision, decided_by = step.outcome, step.name
    return Outcome(request, tuple(steps), decision or NO_OPINION, decided_by)


def _step(authorizer: Authorizer, request: Request, rbac) -> Step:
    kind = authorizer.type
    base = Step(authorizer.index, authorizer.name, kind, authorizer.line, UNKNOWN, "")
    if kind == "AlwaysAllow":
        return base._replace(outcome=ALLOW, reason="allows every request")
    if kind == "AlwaysDeny":
        return base._replace(outcome=NO_OPINION, reason=f'no opinion (reason "{ALWAYS_DENY_REASON}"): the next authorizer is asked')
    if kind == "Node":
        return base._replace(**_node(request))
    if kind == "RBAC":
        if rbac is None:
            return base._replace(reason="depends on cluster state: the Roles and bindings of the cluster (--rbac evaluates files)")
        decision = rbac.authorize(request)
        return base._replace(outcome=ALLOW if decision.allowed else NO_OPINION, reason=decision.reason)
    if kind == "ABAC":
        return base._replace(reason="depends on the ABAC policy file (--authorization-policy-file), which is not read here")
    return _webhook(base, authorizer, request)


def _node(request: Request) -> dict:
    """The node authorizer has an opinion only for node identities: user system:node:NAME in group system:nodes."""
    user = request.user or ""
    if not user.startswith(NODE_USER_PREFIX) or NODES_GROUP not in request.groups:
        return {"outcome": NO_OPINION, "reason": f"not a node identity (user {NODE_USER_PREFIX}NAME in group {NODES_GROUP})"}
    node = user[len(NODE_USER_PREFIX) :]
    if not node:
        return {"outcome": NO_OPINION, "reason": "unknown node"}
    return {"outcome": UNKNOWN, "reason": "depends on cluster state: the objects bound to this node (the node graph) and the node rules"}


def _webhook(base: Step, authorizer: Authorizer, request: Request) -> Step:
    """CELMatcher.Eval: conditions in order, the first false ends it (later ones never run), errors gather."""
    policy = authorizer.failure_policy
    base = base._replace(failure_policy=policy)
    conditions, errors, cannot, false_at = [], [], [], None
    spec = request.spec()
    for k, (expression, program) in enumerate(authorizer.conditions):
        if false_at is not None:
            conditions.append(Condition(k, expression, NOT_EVALUATED))
            continue
        result, message = evaluate(expression, program, spec)
        if cannot:  # the server runs this one only if the condition it cannot tell here is not false
            message = "; ".join(filter(None, (message, f"runs only if matchConditions[{cannot[0]}] is not false")))
        conditions.append(Condition(k, expression, result, message))
        if result == FALSE:
            false_at = k
        elif result == ERROR:
            errors.append(k)
        elif result == CANNOT:
            cannot.append(k)
    base = base._replace(conditions=tuple(conditions))
    if false_at is not None:
        return base._replace(outcome=NO_OPINION, called=False, reason=f"matchConditions[{false_at}] is false: the webhook is not called")
    if cannot:
        return base._replace(reason=f"matchConditions[{cannot[0]}] cannot be evaluated here, so whether the webhook is called is unknown")
    if errors:
        outcome = DENY if policy == "Deny" else NO_OPINION
        failed = ", ".join(f"matchConditions[{k}]" for k in errors)
        verb = "fails" if len(errors) == 1 else "fail"
        return base._replace(outcome=outcome, called=False, reason=f"{failed} {verb} to evaluate: failurePolicy {policy} applies")
    why = "every matchCondition is true" if conditions else "no matchConditions"
    return base._replace(
        called=True, reason=f"{why}: the webhook is called and its answer decides (failurePolicy {policy} if it fails or times out)"
    )


def evaluate(expression: str, program: Any, spec: dict) -> tuple[str, str]:
    """(result, message) of one match condition, with cel-go's error wording where the server's is known."""
    from ..cel.bounded import BudgetExceeded

    if isinstance(program, str):
        return CANNOT, program
    try:
        value = program.eval(spec)
    except RuntimeError as err:
        return CANNOT, _message(err)
    except BudgetExceeded as over:  # the server fails the evaluation: an error, and failurePolicy applies
        return ERROR, f"cel evaluation error: expression '{expression}' resulted in error: {over}"
    if value.type_name == "ERROR":
        message = _message(value.value)
        gap = _LIBRARY_GAP.search(message)
        if gap:
            return CANNOT, f"the function {gap.group(1)} is not available offline"
        return ERROR, f"cel evaluation error: expression '{expression}' resulted in error: {message}"
    if not isinstance(value.value, bool):
        return ERROR, f"cel evaluation error: expression '{expression}' eval result type should be bool but got {value.type_name}"
    return (TRUE if value.value else FALSE), ""


def _message(error: Any) -> str:
    message = _STATUS.sub("", str(error)).split(" [", 1)[0].strip()
    missing = _NO_KEY.match(message)
    if missing:
        return f"no such key: {missing.group(1)}"
    gap = _NOT_HERE.search(message)
    if gap:
        return f"the function {gap.group(1)} is not available offline"
    if "Iteration budget exceeded" in message:
        return "the evaluation exceeds the offline iteration budget"
    return message

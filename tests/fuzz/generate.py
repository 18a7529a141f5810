"""Case number i of a campaign: a seed, one or two mutations, and a file name, all decided by (seed, i) alone.

Any case can be made again on its own (`python -m tests.fuzz --seed S --case I`): no case depends
on the ones before it.
"""

from __future__ import annotations

import json
import os
import random
from typing import NamedTuple

from . import damage, values
from . import mutators as m
from .seeds import Seed, first_line_args

# (name, weight, mutation of text); weights favour the families that found most problems.
TEXT_MUTATIONS = (
    ("wrong-type", 12, m.wrong_type),
    ("drop-field", 3, m.drop_field),
    ("rewrap", 5, m.rewrap),
    ("odd-key", 4, m.odd_key),
    ("huge-number", 8, m.huge_number),
    ("long-duration", 5, m.long_duration),
    ("odd-tag", 6, m.odd_tag),
    ("long-string", 8, m.long_string),
    ("long-strings-everywhere", 3, m.long_strings_everywhere),
    ("other-digits", 6, m.other_digits),
    ("control-value", 5, m.control_value),
    ("control-key", 3, m.control_key),
    ("block-scalar-command", 2, m.block_scalar_command),
    ("duplicate-key", 4, m.duplicate_key),
    ("duplicate-api-version", 3, m.duplicate_api_version),
    ("deep-flow", 2, m.deep_flow),
    ("deep-block", 1, m.deep_block),
    ("alias-bomb", 1, m.alias_bomb),
    ("fat-leaf-alias", 1, m.fat_leaf_alias),
    ("many-alias-documents", 1, m.many_alias_documents),
    ("many-documents", 1, m.many_documents),
    ("empty-documents", 1, m.empty_documents),
    ("suppression-comment", 3, m.suppression_comment),
)
WEIGHT_SECRETS = 8
WEIGHT_DAMAGE = 8
WEIGHT_NAME = 5
MIGRATE_SHARE = 0.3  # of cases start from a file with removed API versions
SECOND_MUTATION_MAX = 100_000  # characters: reading a big mutant's nodes again costs more than it finds


class Case(NamedTuple):
    index: int
    seed: str  # the seed file's name
    steps: tuple[str, ...]  # the mutations applied, in order
    name: bytes  # the file name to write the input under
    data: bytes
    markers: tuple[str, ...]  # planted secrets: none of these may appear in any output
    args: tuple[str, ...]  # the seed's first-line flags (target release, bootstrap, --unsafe)

    @property
    def path(self) -> str:
        return os.fsdecode(self.name)


def _choose(rng: random.Random, options: list[tuple[str, int]]) -> str:
    return rng.choices([name for name, _w in options], weights=[w for _n, w in options])[0]


def make_case(campaign_seed: int, index: int, seeds: tuple[Seed, ...]) -> Case:
    rng = random.Random(f"svcconf-fuzz:{campaign_seed}:{index}")
    family = _choose(rng, [("text", 60), ("secrets", WEIGHT_SECRETS), ("damage", WEIGHT_DAMAGE), ("name", WEIGHT_NAME)])
    pool = list(seeds)
    if family == "secrets":
        pool = [s for s in seeds if m.has_secret_home(s.data.decode("utf-8", errors="replace"))] or pool
    elif rng.random() < MIGRATE_SHARE:
        pool = [s for s in seeds if s.migrate] or pool
    seed = rng.choice(pool)
    text = seed.data.decode("utf-8", errors="surrogateescape")
    args = tuple(first_line_args(text))
    steps: list[str] = []
    markers: tuple[str, ...] = ()
    base = seed.name.rsplit("/", 1)[-1]
    name = base.encode()

    def mutate_text(text: str) -> str:
        for _attempt in range(4):
            label, _weight, mutation = rng.choices(TEXT_MUTATIONS, weights=[w for _n, w, _f in TEXT_MUTATIONS])[0]
            mutated = mutation(rng, text)
            if mutated is not None:
                steps.append(label)
                return mutated
        return text

    if family == "secrets":
        planted = m.plant_secrets(rng, text, index)
        if planted is not None:
            text, markers = planted
            steps.append("planted-secrets")
            if rng.random() < 0.3:  # a secret's parent of the wrong shape: its error must not print the secret
                text = m.rewrap(rng, text, inside=m.MARKER) or text
                steps.append("rewrap-parent")
            if rng.random() < 0.5:
                text = mutate_text(text)
    elif family in ("text", "name"):
        text = mutate_text(text)
        if rng.random() < 0.25 and len(text) < SECOND_MUTATION_MAX:
            text = mutate_text(text)
    if family == "name":
        name = damage.odd_name(rng, seed.suffix)
        steps.append("odd-name")
    data = text.encode("utf-8", errors="surrogateescape")
    if family == "damage":
        data = damage.damage(rng, data)
        steps.append("damage")
    return Case(index, seed.name, tuple(steps), name, data, markers, args)


SWEEP = {"wrong-type": m.wrong_type, "drop-field": m.drop_field, "rewrap": m.rewrap}
SWEEP_ROUNDS = 3  # cases per seed


def sweep_case(campaign_seed: int, seed: Seed, round_: int) -> Case:
    """A seed with one to three fields of the wrong type, dropped or rewrapped: cheap, for every fixture."""
    rng = random.Random(f"svcconf-sweep:{campaign_seed}:{seed.name}:{round_}")
    text = seed.data.decode("utf-8", errors="surrogateescape")
    steps = []
    for _ in range(rng.randint(1, 3)):
        label = rng.choices(list(SWEEP), weights=[6, 1, 1])[0]
        mutated = SWEEP[label](rng, text)
        if mutated is not None:
            text = mutated
            steps.append(label)
    if round_ % SWEEP_ROUNDS == 0:  # once per seed, its durations made long: parsers may assume they are short
        mutated = m.long_duration(rng, text, durations_only=True)
        if mutated is not None:
            text = mutated
            steps.append("long-duration")
    name = seed.name.rsplit("/", 1)[-1].encode()
    return Case(round_, seed.name, tuple(steps), name, text.encode("utf-8", errors="surrogateescape"), (), tuple(first_line_args(text)))


# --------------------------------------------------------------------------- named inputs and CEL cost, run as processes

HOSTILE_FILES = ("pipe", "device", "folder", "oversized", "case")  # case: the case's own bytes
NAMED = "NAMED"  # where the hostile file goes in a command line; "-": it is standard input
# Every input a command reads by name, with the files it needs besides (written by the check).
NAMED_INPUTS = (
    ("validate", "--no-config", NAMED),
    ("validate", "--config", NAMED, "audit.yaml"),
    ("validate", "--no-config", "--baseline", NAMED, "audit.yaml"),
    ("validate", "--no-config", "--stdin-filename", "deploy/x.yaml", "-"),
    ("migrate", "--no-config", NAMED),
    ("migrate", "--config", NAMED, "audit.yaml"),
    ("migrate", "--no-config", "--stdin-filename", "deploy/x.yaml", "-"),
    ("config", "--config", NAMED),
    ("explain", "audit", NAMED, "--user", "jane", "--verb", "get", "--resource", "pods"),
    ("explain", "audit", "audit.yaml", "--requests", NAMED),
    ("explain", "authz", NAMED, "--user", "jane", "--verb", "get", "--resource", "pods"),
    ("explain", "authz", "authz.yaml", "--rbac", NAMED, "--user", "jane", "--verb", "get", "--resource", "pods"),
    ("explain", "encryption", NAMED, "--resource", "secrets"),
    ("explain", "claims", NAMED, "--claims", "claims.json"),
    ("explain", "claims", "authn.yaml", "--claims", NAMED),
    ("explain", "claims", "authn.yaml", "--claims", "-"),
)


class Hostile(NamedTuple):
    args: tuple[str, ...]  # NAMED (or "-") stands for the hostile file
    kind: str  # one of HOSTILE_FILES


def hostile_input(case: Case) -> Hostile:
    """The command line and the kind of file a sampled case puts where a file is named (a pipe cannot be stdin)."""
    rng = random.Random(f"svcconf-hostile:{case.seed}:{case.index}")
    args = rng.choice(NAMED_INPUTS)
    kinds = [k for k in HOSTILE_FILES if "-" not in args or k not in ("pipe", "folder")]
    return Hostile(args, rng.choice(kinds))


class CelCost(NamedTuple):
    topic: str  # authz or claims
    config: str
    args: tuple[str, ...]


def cel_cost_config(case: Case) -> CelCost:
    """An authorization or authentication configuration whose expressions grow past any evaluation budget, or take seconds."""
    rng = random.Random(f"svcconf-cel-cost:{case.seed}:{case.index}")
    if rng.random() < 0.5:
        conditions = {f"({values.growing_expression(rng, 'request.user')}).size() > 0" for _ in range(rng.randint(1, 2))}
        config = AUTHZ_CONFIG.format(conditions="".join(f"        - expression: {json.dumps(c)}\n" for c in sorted(conditions)))
        return CelCost("authz", config, ("--user", "aaaa", "--verb", "get", "--resource", "pods"))
    place = rng.choice(["username", "rule", "user-rule"])
    grown = values.growing_expression(rng, "user.username" if place == "user-rule" else "claims.sub")
    expression = {"username": grown, "rule": f"({grown}).size() > 0", "user-rule": f"({grown}).size() > 0"}[place]
    username = json.dumps(expression if place == "username" else "claims.sub")
    rules = f"    claimValidationRules:\n      - expression: {json.dumps(expression)}\n" if place == "rule" else ""
    user_rules = f"    userValidationRules:\n      - expression: {json.dumps(expression)}\n" if place == "user-rule" else ""
    return CelCost("claims", AUTHN_CONFIG.format(username=username, rules=rules, user_rules=user_rules), ("--claims", "claims.json"))


AUTHZ_CONFIG = """apiVersion: apiserver.config.k8s.io/v1
kind: AuthorizationConfiguration
authorizers:
  - type: Webhook
    name: webhook
    webhook:
      timeout: 3s
      subjectAccessReviewVersion: v1
      matchConditionSubjectAccessReviewVersion: v1
      failurePolicy: Deny
      connectionInfo: {{type: KubeConfigFile, kubeConfigFile: /etc/kubernetes/webhook.kubeconfig}}
      matchConditions:
{conditions}"""
AUTHN_CONFIG = """apiVersion: apiserver.config.k8s.io/v1
kind: AuthenticationConfiguration
jwt:
  - issuer:
      url: https://issuer.example.com
      audiences: [kubernetes]
{rules}    claimMappings:
      username:
        expression: {username}
{user_rules}"""

"""What a corpus label (SOURCES.tsv `why`) says svcconf must report: rule ids and, where the label gives one, the path.

A label is read clause by clause (`;` ends one); the first clause in one of these forms decides:

- `removed: [items[N] ]GROUP/VERSION KIND ...`: removed-api-version at `[items[N].]apiVersion`, naming each
  group/version of the clause;
- `duplicate key[s] A [and B] [under PATH]`: duplicate-field at each key;
- `unknown field A [and B] ...`: unknown-field at each path;
- `malformed YAML`: yaml-syntax;
- a clause citing an upstream check by its catalogue id (`(ENC-017)`, from ../shared/reference), or with a
  phrase of PHRASES: that check's rule, at the path the clause starts with (`PATH is ...`, `PATH 'value' ...`).
"""

from __future__ import annotations

import re
from typing import NamedTuple

# Catalogue ids of ../shared/reference/rules-apiserver.md -> the rule svcconf reports for that check.
CATALOGUE = {
    "ENC-001": "missing-field",  # resources: at least one resources is required
    "ENC-014": "missing-field",  # keys: at least one keys is required
    "ENC-016": "missing-field",  # secret is a mandatory field for a key
    "ENC-017": "key-not-base64",  # secrets must be base64 encoded
    "ENC-018": "invalid-key-length",  # secret is not of the expected length
    "ENC-022": "kms-timeout-not-positive",  # timeout should be a positive value
    "ENC-023": "missing-field",  # endpoint is a mandatory field for a kms
    "ENC-028": "unsupported-kms-api-version",  # only v1 and v2 are supported
    "ENC-041": "kms-v1-disabled",  # KMSv1 is deprecated (gate off since 1.29)
    "AUTHN-016": "invalid-certificate-authority",  # data does not contain any valid RSA or ECDSA certificates
}
# Labels that say the server's complaint in words: (phrase, rule, path the phrase is about or None).
PHRASES = (
    ("is not Normal or Warning", "invalid-event-type", "type"),
    ("must be an absolute file path", "admission-path-not-absolute", None),
    ("is a string in an int32 field", "wrong-type", None),
    ("is not an IP", "invalid-advertise-address", None),
    ("is not a valid feature gate list", "invalid-flag-value", None),
)

CATALOGUE_ID = re.compile(r"\b([A-Z]+-[0-9]{3})\b")
API_VERSION = re.compile(r"\b([a-z0-9.-]+/v[0-9]+(?:(?:alpha|beta)[0-9]+)?)\b")
LEADING_PATH = re.compile(r"([A-Za-z][\w-]*(?:\[[0-9]+\]|\.[\w-]+)*)(?= (?:is|has|decodes|defaults|must|')|$| '|\s)")
NAME = r"'?([\w.\[\]-]+)'?"
DUPLICATE = re.compile(rf"duplicate keys? {NAME}(?: and {NAME})?(?: under ([\w.\[\]]+))?")
UNKNOWN = re.compile(rf"unknown field {NAME}(?: and {NAME})?")


class Expect(NamedTuple):
    rule: str
    path: str | None = None  # the field path, or its end (`providers[1].kms` for `resources[0].providers[1].kms`)
    names: str | None = None  # an apiVersion the finding must name (removed-api-version)


def _leading_path(clause: str) -> str | None:
    """The field path a clause starts with (`resources[0].providers[1].kms 'x' defaults ...`, `resources is null`)."""
    match = LEADING_PATH.match(clause)
    if match and ("." in match.group(1) or "[" in match.group(1) or clause[match.end() :].startswith(" is ")):
        return match.group(1)
    return None


def _clause(clause: str, label_path: str | None) -> list[Expect]:
    if clause.startswith("removed: "):
        item = re.match(r"removed: (items\[[0-9]+\]) ", clause)
        path = f"{item.group(1)}.apiVersion" if item else "apiVersion"
        return [Expect("removed-api-version", path, version) for version in dict.fromkeys(API_VERSION.findall(clause))]
    if match := DUPLICATE.search(clause):
        under = f"{match.group(3)}." if match.group(3) else ""
        return [Expect("duplicate-field", under + key) for key in match.groups()[:2] if key]
    if match := UNKNOWN.match(clause):
        return [Expect("unknown-field", key) for key in match.groups() if key]
    if clause.startswith("malformed YAML"):
        return [Expect("yaml-syntax")]
    cited = [CATALOGUE[i] for i in CATALOGUE_ID.findall(clause) if i in CATALOGUE]
    if cited:
        return [Expect(cited[0], _leading_path(clause) or label_path)]
    for phrase, rule, path in PHRASES:
        if phrase in clause:
            return [Expect(rule, path or _leading_path(clause) or label_path)]
    return []


def expectations(why: str) -> list[Expect]:
    """The findings a label names; empty when no clause is in a form above.

    A clause that cites a check without a path takes the path the label starts with (the clause
    before it says what is wrong there).
    """
    label_path = _leading_path(why)
    for clause in why.split(";"):
        found = _clause(clause.strip(), label_path)
        if found:
            return found
    return []


def unmet(expected: list[Expect], errors: list) -> list[Expect]:
    """The expectations no error diagnostic meets."""

    def meets(e: Expect, d) -> bool:
        at = e.path is None or d.path_text == e.path or d.path_text.endswith("." + e.path)
        names = e.names is None or e.names == d.api_version or f"{e.names} " in d.message
        return d.rule == e.rule and at and names

    return [e for e in expected if not any(meets(e, d) for d in errors)]

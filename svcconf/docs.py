"""Rule documentation: what each rule checks, why it matters, a failing example and the fix.

Each rules area keeps its docs beside its code (`rules/<area>.toml`); this module reads them on
demand (`svcconf rules`, SARIF metadata), never on the validate hot path.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import NamedTuple

from .model import Severity

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

RULES_DIR = Path(__file__).with_name("rules")


class RuleDoc(NamedTuple):
    id: str
    area: str
    severity: Severity
    summary: str
    why: str
    example: str
    fix: str
    upstream: str = ""  # catalogue ids and where the server's wording comes from

    def help_text(self) -> str:
        parts = [self.summary, "", self.why]
        if self.example:
            parts += ["", "Fails:", self.example.rstrip()]
        if self.fix:
            parts += ["", "Write instead:", self.fix.rstrip()]
        return "\n".join(parts).strip()

    def help_markdown(self) -> str:
        parts = [f"**{self.summary}**", "", self.why]
        if self.example:
            parts += ["", "Fails:", "```yaml", self.example.rstrip(), "```"]
        if self.fix:
            parts += ["", "Write instead:", "```yaml", self.fix.rstrip(), "```"]
        return "\n".join(parts).strip()


@functools.lru_cache(maxsize=1)
def all_rule_docs() -> dict[str, RuleDoc]:
    docs: dict[str, RuleDoc] = {}
    for path in sorted(RULES_DIR.glob("*.toml")):
        with open(path, "rb") as handle:
            table = tomllib.load(handle)
        for rule_id, entry in table.items():
            if rule_id in docs:
                raise ValueError(f"rule {rule_id} is documented twice ({docs[rule_id].area}, {path.stem})")
            docs[rule_id] = RuleDoc(
                id=rule_id,
                area=path.stem,
                severity=Severity.parse(entry.get("severity", "error")),
                summary=entry["summary"],
                why=entry.get("why", ""),
                example=entry.get("example", ""),
                fix=entry.get("fix", ""),
                upstream=entry.get("upstream", ""),
            )
    return docs


def rule_doc(rule_id: str) -> RuleDoc | None:
    return all_rule_docs().get(rule_id)

"""Run `svcconf explain TOPIC` on configuration text written to a temporary file."""

from __future__ import annotations

from tests.helpers import run


def explainer(tmp_path, topic: str, name: str, *fixed: str):
    """A function (config text, *flags) -> Run for one topic; `fixed` flags follow the config path."""

    def explain(config: str, *args: str):
        path = tmp_path / name
        path.write_text(config, encoding="utf-8")
        return run("explain", topic, str(path), *fixed, *args)

    return explain

"""`svcconf print defaults KIND`: the upstream default documents, in either spelling, validating clean."""

from __future__ import annotations

import re

import pytest
import yaml

from svcconf.defaults.components import kinds
from tests.conftest import SHARED
from tests.helpers import run

CATALOGUE = SHARED / "reference" / "rules-components.md"


def _catalogue_yaml(section: str) -> dict:
    """The default YAML block of a catalogue section, as data (comments dropped)."""
    text = CATALOGUE.read_text(encoding="utf-8")
    start = text.index(section)
    block = re.search(r"```yaml\n(.*?)```", text[start:], re.DOTALL)
    assert block is not None
    return yaml.safe_load(block.group(1))


@pytest.mark.skipif(not CATALOGUE.exists(), reason="../shared/reference is not present")
def test_scheduler_defaults_equal_the_catalogue() -> None:
    printed = run("print", "defaults", "KubeSchedulerConfiguration")
    assert printed.code == 0, printed.err
    assert yaml.safe_load(printed.out) == _catalogue_yaml("### 2.5 Default configuration")


def test_scheduler_defaults_validate_clean() -> None:
    printed = run("print", "defaults", "KubeSchedulerConfiguration")
    checked = run("validate", "-f", "json", "-", stdin=printed.out.encode())
    assert checked.code == 0, checked.out
    assert checked.json()["diagnostics"] == []
    assert checked.json()["summary"]["documents"] == 1


def test_svc_spelling_and_domain() -> None:
    printed = run("print", "defaults", "SvcSchedulerConfiguration", "--naming", "svc", "--api-domain", "example.com")
    assert printed.code == 0, printed.err
    assert printed.out.startswith("apiVersion: svcscheduler.config.example.com/v1\nkind: SvcSchedulerConfiguration\n")
    assert "      apiVersion: svcscheduler.config.example.com/v1\n      kind: DefaultPreemptionArgs\n" in printed.out
    assert "k8s.io" not in printed.out
    checked = run("validate", "--api-domain", "example.com", "-f", "json", "-", stdin=printed.out.encode())
    assert checked.code == 0 and checked.json()["diagnostics"] == [], checked.out


def test_kind_in_either_spelling_prints_the_same_document() -> None:
    upstream = run("print", "defaults", "KubeSchedulerConfiguration")
    spec = run("print", "defaults", "SvcSchedulerConfiguration")
    assert upstream.out == spec.out and upstream.code == spec.code == 0


def test_only_group_and_kind_lines_change() -> None:
    kube = run("print", "defaults", "KubeSchedulerConfiguration").out.splitlines()
    svc = run("print", "defaults", "KubeSchedulerConfiguration", "--naming", "svc").out.splitlines()
    changed = [(a, b) for a, b in zip(kube, svc) if a != b]
    assert len(kube) == len(svc)
    assert all(a.strip().startswith(("apiVersion:", "kind:")) for a, _b in changed)
    assert ("kind: KubeSchedulerConfiguration", "kind: SvcSchedulerConfiguration") in changed


@pytest.mark.parametrize("kind", kinds())
def test_every_installed_default_document_validates_clean(kind: str) -> None:
    printed = run("print", "defaults", kind)
    assert printed.code == 0, printed.err
    checked = run("validate", "-f", "json", "-", stdin=printed.out.encode())
    assert [d for d in checked.json()["diagnostics"] if d["severity"] == "error"] == []


def test_kind_without_defaults_is_a_usage_error() -> None:
    printed = run("print", "defaults", "Policy")
    assert printed.code == 2
    assert printed.out == ""
    assert "no defaults for kind 'Policy'" in printed.err and "KubeSchedulerConfiguration" in printed.err


def test_bad_domain_is_a_usage_error() -> None:
    printed = run("print", "defaults", "KubeSchedulerConfiguration", "--api-domain", "not a domain")
    assert printed.code == 2
    assert "--api-domain" in printed.err

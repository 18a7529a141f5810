"""The shipped kube-proxy defaults equal the catalogue's upstream default YAML, print as such and validate clean."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from svcconf.known.catalog import PACKAGE_DIR, schema_root
from tests.conftest import SHARED
from tests.helpers import run

# As installed: the wheel's data, not the source tree's.
DEFAULTS = Path(PACKAGE_DIR) / "data" / "defaults" / "KubeProxyConfiguration.yaml"
SCHEMA = Path(schema_root()) / "kubeproxy.config.k8s.io" / "v1alpha1" / "KubeProxyConfiguration.json"
CATALOGUE = SHARED / "reference" / "rules-components.md"


def _catalogue_default_yaml() -> str:
    text = CATALOGUE.read_text(encoding="utf-8")
    section = text.split("### 4.3 Default configuration", 1)[1]
    match = re.search(r"```yaml\n(.*?)```", section, re.DOTALL)
    assert match, "section 4.3 has no yaml block"
    return match.group(1)


@pytest.mark.skipif(not CATALOGUE.exists(), reason="../shared/reference is not present")
def test_defaults_file_equals_the_catalogue_default_yaml() -> None:
    assert DEFAULTS.read_text(encoding="utf-8") == _catalogue_default_yaml()


def test_defaults_file_validates_clean() -> None:
    result = run("validate", "--format", "json", str(DEFAULTS))
    assert result.code == 0, result.out + result.err
    assert result.json()["diagnostics"] == []
    assert result.json()["summary"]["documents"] == 1


def test_print_defaults_gives_the_file_in_both_spellings(tmp_path) -> None:
    printed = run("print", "defaults", "KubeProxyConfiguration")
    assert printed.code == 0, printed.err
    assert printed.out == DEFAULTS.read_text(encoding="utf-8")
    svc = run("print", "defaults", "SvcProxyConfiguration", "--naming", "svc")
    assert svc.code == 0, svc.err
    assert svc.out.splitlines()[:2] == ["apiVersion: svcproxy.config.k8s.io/v1alpha1", "kind: SvcProxyConfiguration"]
    target = tmp_path / "proxy.yaml"
    target.write_text(svc.out, encoding="utf-8")
    checked = run("validate", "--format", "json", str(target))
    assert checked.code == 0 and checked.json()["diagnostics"] == []


def test_every_top_level_default_field_is_in_the_schema() -> None:
    import json

    import yaml

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    document = yaml.safe_load(DEFAULTS.read_text(encoding="utf-8"))
    assert set(document) <= set(schema["properties"])

"""Files of an ordinary repository that do not parse (Helm templates, JSON with comments) are skipped, not errors,
unless their text names an API group svcconf checks."""

from __future__ import annotations

import pytest

from svcconf.known.naming import Naming
from svcconf.load.mentions import api_versions, checked_api_version
from tests.helpers import run
from tests.linear_check import worst_case

HELM_TEMPLATE = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "app.fullname" . }}
spec:
  {{- include "app.selector" . | nindent 2 }}
"""
TSCONFIG = """\
{
  // editors and tsc accept comments and trailing commas
  "compilerOptions": {"strict": true,},
}
"""
HELM_VALUES = "image: {{ .Values.image }}\nports: [\n"
BROKEN_AUDIT_POLICY = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [\n  - level: None\n"


def write(tmp_path, files: dict[str, str]) -> list[str]:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return [str(tmp_path / name) for name in files]


def test_files_that_are_not_configuration_are_skipped_and_counted(tmp_path) -> None:
    paths = write(tmp_path, {"chart/templates/deploy.yaml": HELM_TEMPLATE, "tsconfig.json": TSCONFIG, "values.yaml": HELM_VALUES})
    result = run("validate", "--no-config", *paths)
    assert result.code == 0
    assert result.out == "0 errors, 0 warnings in 3 files (0 documents checked, 3 skipped)\n"
    assert result.err == ""
    report = run("validate", "--no-config", "-f", "json", *paths).json()
    assert report["diagnostics"] == [] and report["summary"]["skipped"] == 3


def test_verbose_lists_each_skipped_file_with_its_reason(tmp_path) -> None:
    [path] = write(tmp_path, {"tsconfig.json": TSCONFIG})
    result = run("validate", "--no-config", "-v", path)
    assert result.err == (
        f"svcconf: {path}: skipped: does not parse (line 3: while parsing a flow mapping: did not find expected ',' or '}}')"
        " and names no API group svcconf checks\n"
    )


def test_a_file_naming_a_checked_group_that_does_not_parse_stays_an_error(tmp_path) -> None:
    paths = write(tmp_path, {"audit.yaml": BROKEN_AUDIT_POLICY, "tsconfig.json": TSCONFIG})
    result = run("validate", "--no-config", "-f", "json", *paths)
    assert result.code == 1
    assert [(d["file"], d["line"], d["rule"]) for d in result.json()["diagnostics"]] == [(paths[0], 4, "yaml-syntax")]
    assert result.json()["summary"]["skipped"] == 1


@pytest.mark.parametrize(
    "text,domain,error",
    [
        ('{\n  // scheduler settings\n  "apiVersion": "kubescheduler.config.k8s.io/v1",\n}\n', None, True),  # JSON key
        ("- apiVersion: 'audit.k8s.io/v1'\n  kind: Policy\n  rules: [\n", None, True),  # quoted value
        ("apiVersion: svcadm.example.com/v1beta4\nkind: [\n", "example.com", True),  # svc spelling, configured domain
        ("apiVersion: svcadm.example.com/v1beta4\nkind: [\n", None, False),  # another domain than the configured one
        ("apiVersion: audit.example.com/v1\nkind: [\n", "example.com", True),
        (
            "apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nspec:\n  {{- toYaml .Values.psp | nindent 2 }}\n",
            None,
            True,
        ),  # a removed version
        ("apiVersion: policy/v1\nkind: PodDisruptionBudget\nspec:\n  {{- toYaml .Values.pdb | nindent 2 }}\n", None, False),
        ("apiVersion: v1\nkind: ConfigMap\ndata:\n  {{- toYaml .Values.data | nindent 2 }}\n", None, False),  # core: mostly ordinary kinds
        ("apiVersion: {{ .Values.apiVersion }}\nkind: [\n", None, False),
        ("# apiVersionless: audit.k8s.io/v1\nkind: [\n", None, False),
    ],
)
def test_which_broken_files_name_a_checked_group(tmp_path, text: str, domain: str | None, error: bool) -> None:
    [path] = write(tmp_path, {"file.yaml": text})
    result = run("validate", "--no-config", "-f", "json", *(("--api-domain", domain) if domain else ()), path)
    assert [d["rule"] for d in result.json()["diagnostics"]] == (["yaml-syntax"] if error else [])
    assert result.code == (1 if error else 0)


def test_files_that_cannot_be_decoded_are_still_reported(tmp_path) -> None:
    (tmp_path / "latin1.yaml").write_bytes(b"name: caf\xe9 {{\n")
    result = run("validate", "--no-config", "-f", "json", str(tmp_path / "latin1.yaml"))
    assert [d["rule"] for d in result.json()["diagnostics"]] == ["encoding-error"]


def test_migrate_leaves_templates_alone_and_passes(tmp_path) -> None:
    paths = write(tmp_path, {"templates/deploy.yaml": HELM_TEMPLATE, "tsconfig.json": TSCONFIG})
    result = run("migrate", "--write", *paths)
    assert result.code == 0, result.out + result.err
    assert (tmp_path / "templates" / "deploy.yaml").read_text(encoding="utf-8") == HELM_TEMPLATE


def test_api_versions_are_read_in_every_spelling() -> None:
    text = (
        "apiVersion: a/v1\n\"apiVersion\": \"b/v1\"\n'apiVersion' : 'c/v1'\n{apiVersion: d/v1, kind: X}\n"
        "- apiVersion:\te/v1\napiVersion: {{ x }}\nxapiVersion: f/v1\napiVersion:" + "g" * 400 + "\n"
    )
    assert list(api_versions(text)) == ["a/v1", "b/v1", "c/v1", "d/v1", "e/v1", "f/v1"]


@pytest.mark.parametrize(
    "fragment",
    ["apiVersion", "apiVersion:", "apiVersion: ", "apiVersion  ", 'apiVersion"', "apiVersion: a", "apiVersion:apiVersion", " ", "a", "{{"],
)
def test_the_scan_is_linear_on_adversarial_text(fragment: str) -> None:
    naming = Naming("example.com")
    verdict = worst_case(lambda text: checked_api_version(text, naming), [("", fragment), ("apiVersion: ", fragment)])
    assert verdict.linear, verdict

"""`svcconf explain`: one command family, `explain-claims` kept as it is, and a start-up that does not load the family."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.explain.test_claims import CLAIMS, CONFIG, files  # noqa: F401  (the fixture)
from tests.helpers import run

pytest.importorskip("cel_expr_python")


def test_explain_claims_is_explain_claims(files) -> None:  # noqa: F811
    config, claims = files(CLAIMS)
    for extra in ((), ("--secret", "sub")):
        old = run("explain-claims", config, "--claims", claims, "--now", "1800000000", *extra)
        new = run("explain", "claims", config, "--claims", claims, "--now", "1800000000", *extra)
        assert (new.code, new.out, new.err) == (old.code, old.out, old.err)
        assert old.code == 0 and old.out


def test_explain_claims_json_redacts_secret_claims(files) -> None:  # noqa: F811
    config, claims = files(CLAIMS)
    result = run("explain", "claims", config, "--claims", claims, "--now", "1800000000", "--secret", "sub", "-f", "json")
    assert result.code == 0
    data = result.json()
    assert (data["authenticator"], data["authenticated"], data["rejected"]) == (1, True, None)
    assert data["user"] == {
        "username": "jane.doe",
        "uid": "REDACTED",
        "groups": ["oidc:dev", "oidc:ops"],
        "extra": {"example.com/teams": ["a", "b"]},
    }
    assert "user-1234" not in result.out


def test_explain_claims_json_rejection_exits_1(files) -> None:  # noqa: F811
    config, claims = files({**CLAIMS, "hd": "evil.example"})
    result = run("explain", "claims", config, "--claims", claims, "--now", "1800000000", "-f", "json")
    assert result.code == 1
    assert result.json()["rejected"] == 'claim validation rule failed: claim hd == "example.com"'


def test_explain_without_a_topic_is_a_usage_error() -> None:
    result = run("explain")
    assert result.code == 2 and "required: TOPIC" in result.err and result.out == ""
    assert run("explain", "secrets").code == 2


def test_help_lists_the_topics_and_each_topic_has_its_own() -> None:
    listing = run("explain", "--help")
    assert listing.code == 0
    assert all(f"\n  {topic} " in listing.out for topic in ("claims", "audit", "authz", "encryption"))
    audit = run("explain", "audit", "--help")
    assert audit.code == 0 and audit.out.startswith("usage: svcconf explain audit ") and "--requests FILE" in audit.out
    claims = run("explain", "claims", "--help")
    assert claims.code == 0 and claims.out.startswith("usage: svcconf explain claims ") and "--claims" in claims.out


def test_single_request_json_carries_level_stages_and_rule(tmp_path) -> None:
    policy = tmp_path / "policy.yaml"
    policy.write_text("apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n    verbs: [get]\n", encoding="utf-8")
    data = run("explain", "audit", str(policy), "--verb", "get", "--path", "/", "-f", "json").json()
    assert (data["version"], data["rule"], data["level"]) == (1, 0, "Metadata")
    assert data["stages"] == ["RequestReceived", "ResponseComplete", "Panic"]  # a get of / is not long-running
    data = run("explain", "audit", str(policy), "--verb", "list", "--path", "/", "-f", "json").json()
    assert (data["rule"], data["level"], data["stages"]) == (None, "None", [])


@pytest.mark.parametrize("argv", [["--help"], ["explain", "audit", "--help"], ["explain", "--help"]])
def test_help_does_not_load_the_explain_package(argv: list[str]) -> None:
    code = (
        "import sys\nfrom svcconf.cli import main\n"
        f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
        "loaded = [m for m in sys.modules if m.startswith(('svcconf.explain', 'svcconf.cel', 'svcconf.claims'))]\n"
        "sys.exit(3 if loaded else 0)\n"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False, capture_output=True).returncode == 0


def test_readme_explain_examples_print_what_svcconf_prints(tmp_path, monkeypatch) -> None:
    """Replays the console blocks of README's explain section: files shown with cat, then each command's output."""
    import shlex

    from tests.conftest import ROOT

    section = (ROOT / "README.md").read_text(encoding="utf-8").split("### explain\n", 1)[1].split("\n## ", 1)[0]
    blocks = [part.split("```", 1)[0] for part in section.split("```console\n")[1:]]
    assert len(blocks) == 4
    monkeypatch.chdir(tmp_path)
    code = None
    for block in blocks:
        for step in ("\n" + block).split("\n$ ")[1:]:
            command, _, shown = step.partition("\n")
            shown = shown if shown.endswith("\n") else shown + "\n"  # the split took the newline before the next $
            if command.startswith("cat "):
                (tmp_path / command[4:]).write_text(shown, encoding="utf-8")
            elif command == "echo $?":
                assert shown == f"{code}\n"
            elif command.startswith("echo "):
                words = shlex.split(command[5:])
                (tmp_path / words[2]).write_text(words[0] + "\n", encoding="utf-8")
            else:
                args = shlex.split(command)
                assert args[0] == "svcconf"
                result = run(*args[1:])
                code = result.code
                assert result.out == shown, command


def test_input_never_breaks_a_line_or_starts_a_ci_command(tmp_path) -> None:
    policy = tmp_path / "policy.yaml"
    policy.write_text(
        'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: None\n    users: ["##[error]x"]\n  - level: Metadata\n',
        encoding="utf-8",
    )
    requests = tmp_path / "requests.json"
    users = ["a\n::error::x", "##[error]x", "\x1b[2J", "\u202eevil"]
    requests.write_text(json.dumps([{"user": u, "verb": "get", "path": "/\n::warning::y"} for u in users]), encoding="utf-8")
    for args in (
        ("--requests", str(requests)),
        ("--requests", str(requests), "-f", "json"),
        ("--user", users[0], "--verb", "get", "--path", "/"),
    ):
        result = run("explain", "audit", str(policy), *args)
        assert result.code == 0
        lines = result.out.splitlines()
        assert not any(line.lstrip().startswith("::") for line in lines)
        assert "##[" not in result.out and "\x1b" not in result.out and "\u202e" not in result.out
    table = run("explain", "audit", str(policy), "--requests", str(requests)).out.splitlines()
    assert len(table) == 1 + len(users) + 1  # a header, one row per request, the count


AUTHZ_V1 = """apiVersion: apiserver.config.k8s.io/v1
kind: AuthorizationConfiguration
authorizers:
  - type: Node
    name: node
  - type: RBAC
    name: rbac
"""


def test_explain_reads_the_configuration_file_and_target_version_as_validate_does(tmp_path, monkeypatch) -> None:
    """AuthorizationConfiguration v1 is first served in 1.32 (lifecycle.tsv, --authorization-config): a 1.31 target refuses it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "authz.yaml").write_text(AUTHZ_V1)
    request = ("--user", "jane", "--verb", "get", "--resource", "pods", "-n", "default")
    assert run("explain", "authz", "authz.yaml", *request).code == 0  # the newest release serves it
    refused = run("explain", "authz", "authz.yaml", "--target-version", "1.31", *request)
    assert refused.code == 2 and "[unavailable-api-version]" in refused.err and refused.out == ""
    assert run("validate", "--target-version", "1.31", "authz.yaml").code == 1  # the same verdict
    (tmp_path / ".svcconf.yaml").write_text('target-version: "1.31"\n')
    for topic, extra in (("authz", request), ("audit", request), ("encryption", ("--resource", "secrets"))):
        assert "[unavailable-api-version]" in run("explain", topic, "authz.yaml", *extra).err  # read before the kind is looked for
    assert run("explain", "authz", "authz.yaml", "--target-version", "1.32", *request).code == 0  # the flag wins
    assert run("explain", "authz", "authz.yaml", "--no-config", *request).code == 0
    (tmp_path / ".svcconf.yaml").write_text("target-version: 1.30\n")
    broken = run("explain", "authz", "authz.yaml", *request)
    assert broken.code == 2 and 'quote it: target-version: "1.30"' in broken.err


def test_explain_claims_takes_the_same_settings(files, monkeypatch, tmp_path) -> None:  # noqa: F811
    config, claims = files(CLAIMS)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".svcconf.yaml").write_text('target-version: "1.28"\n')  # before structured authentication
    for command in (("explain-claims",), ("explain", "claims")):
        result = run(*command, config, "--claims", claims, "--now", "1800000000")
        assert result.code == 2 and "[unavailable-api-version]" in result.err
        assert run(*command, config, "--claims", claims, "--now", "1800000000", "--no-config").code == 0

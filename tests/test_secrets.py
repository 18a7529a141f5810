"""Secret values never reach any report, whatever the problem with them."""

from __future__ import annotations

import pytest

from svcconf.commands.validate import FORMATS

from .helpers import run

SECRETS = {
    "not base64": "s3cr3t-Passw0rd!",
    "wrong length": "c2VjcmV0LXBhc3N3b3Jk",  # "secret-password", 15 bytes
    "in a provider item with two providers": "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWY=",
    "unquoted yes": "yes",
    "a number": "123456789012",
}

DOCUMENT = f"""apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - aescbc:
          keys:
            - name: k1
              secret: {SECRETS["not base64"]}
            - name: k2
              secret: {SECRETS["wrong length"]}
            - name: k3
              secret: {SECRETS["unquoted yes"]}
            - name: k4
              secret: {SECRETS["a number"]}
      - identity: {{}}
        aesgcm:
          keys:
            - name: k5
              secret: {SECRETS["in a provider item with two providers"]}
"""


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_secret_in_any_format(tmp_path, fmt: str) -> None:
    path = tmp_path / "enc.yaml"
    path.write_text(DOCUMENT)
    result = run("validate", "--no-config", "--format", fmt, "--fail-on", "info", str(path))
    assert result.code == 1
    output = result.out + result.err
    assert "key-not-base64" in output and "invalid-key-length" in output and "multiple-providers" in output
    for what, secret in SECRETS.items():
        if secret == "yes":
            assert "unquoted yes" not in output, what
        else:
            assert secret not in output, what

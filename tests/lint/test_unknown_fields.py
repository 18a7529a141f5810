"""One mechanism for unknown fields: not in the schema, newer than the target release, or in a leniently decoded object.

Each is reported by the schema check at the level --field-validation gives it.
"""

from __future__ import annotations

import pytest

from svcconf.known.catalog import parse_release
from svcconf.lint.check import check_text
from svcconf.settings.options import ValidateOptions

AUTHN_1_29 = """apiVersion: apiserver.config.k8s.io/v1alpha1
kind: AuthenticationConfiguration
jwt:
  - issuer:
      url: https://issuer.example.com
      audiences: [a]
      discoveryURL: https://issuer.example.com/.well-known/openid-configuration
    claimMappings:
      username: {claim: sub, prefix: ""}
"""
SCHEDULER_PLAIN = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
    notAField: 1
"""
EVENT_RATE_LIMIT = """apiVersion: eventratelimit.admission.k8s.io/v1alpha1
kind: Configuration
limits:
  - type: Server
    qps: 10
    burst: 50
    window: 5s
"""

CASES = [
    ("newer than the target", AUTHN_1_29, "1.29", "unknown-field", "jwt[0].issuer.discoveryURL"),
    ("not in the schema", SCHEDULER_PLAIN, None, "unknown-field", "profiles[0].notAField"),
    ("decoded leniently", EVENT_RATE_LIMIT, None, "lenient-unknown-field", "limits[0].window"),
]


def _unknown(text: str, target: str | None, level: str) -> list[tuple[str, str, str]]:
    options = ValidateOptions(field_validation=level, target=parse_release(target) if target else None)
    return [(d.rule, str(d.severity), d.path_text) for d in check_text(text, options).diagnostics if "unknown-field" in d.rule]


@pytest.mark.parametrize("what,text,target,rule,path", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("level,severity", [("Strict", "error"), ("Warn", "warning"), ("Ignore", None)])
def test_unknown_fields_follow_field_validation(what, text, target, rule, path, level, severity) -> None:
    expected = [(rule, severity, path)] if severity else []
    assert _unknown(text, target, level) == expected


def test_a_field_is_known_from_the_release_that_added_it() -> None:
    assert _unknown(AUTHN_1_29, "1.30", "Strict") == []

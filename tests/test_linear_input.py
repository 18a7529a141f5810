"""Hostile input stays linear: inputs wide enough that any quadratic step would take minutes.

Each check runs under a deadline far above its normal time (about a second), so a step that turns
quadratic fails the test instead of hanging the suite. Nothing here measures speed.
"""

from __future__ import annotations

import contextlib
import signal

import pytest

from svcconf.lint.check import check_text
from svcconf.model import Diagnostic
from tests.helpers import run

DEADLINE = 20  # seconds

POLICY = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: None\n"  # 4 lines


class Hang(BaseException):
    """A check ran past the deadline (a BaseException, so no guard in svcconf turns it into a diagnostic)."""


@contextlib.contextmanager
def deadline():
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def expire(_signum, _frame):
        raise Hang

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(DEADLINE)
    try:
        yield
    except Hang:
        pytest.fail(f"still running after {DEADLINE} s: a step is not linear in its input", pytrace=False)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def check(text: str) -> list[Diagnostic]:
    with deadline():
        return check_text(text).diagnostics


def rules(text: str) -> list[tuple[int, int, str, str]]:
    """(line, column, rule, path) of each diagnostic, in file order."""
    return sorted((d.line, d.column, d.rule, d.path_text) for d in check(text))


def test_every_one_of_60000_unknown_fields_is_placed_at_its_key() -> None:
    found = rules(POLICY + "".join(f"k{i}: 1\n" for i in range(60_000)))
    assert found == [(5 + i, 1, "unknown-field", f"k{i}") for i in range(60_000)]


def test_keys_reached_through_thousands_of_merges_are_placed_where_they_are_written() -> None:
    count = 20_000
    text = (
        "apiVersion: audit.k8s.io/v1\nkind: Policy\n"
        + "defaults: &e {}\n"  # line 3
        + "rules:\n  - &r\n    level: None\n"  # lines 4-6
        + "".join(f"    k{i}: 1\n" for i in range(count))  # lines 7 ...
        + f"<<: [{'*e, ' * count}*r]\n"
    )
    # The root merges rules[0] after thousands of empty mappings: its fields are unknown there too.
    expected = [(3, 1, "unknown-field", "defaults"), (6, 5, "unknown-field", "level")]
    expected += [(7 + i, 5, "unknown-field", path) for i in range(count) for path in (f"k{i}", f"rules[0].k{i}")]
    assert rules(text) == sorted(expected)


def test_40000_null_fields_in_one_mapping() -> None:
    # A null value is the server's "absent": only the one field with a value is unknown.
    found = rules(POLICY + "".join(f"k{i}:\n" for i in range(40_000)) + "extra: 1\n")
    assert found == [(40_005, 1, "unknown-field", "extra")]


def test_150000_merge_keys_in_one_mapping() -> None:
    text = POLICY.replace("  - level: None\n", "  - &b {level: None, bogus: 1}\n") + "<<: *b\n" * 150_000
    level, bogus = (text.splitlines()[3].index(key) + 1 for key in ("level", "bogus"))
    # The root merges rules[0]: its fields are unknown there, shown where rules[0] writes them.
    expected = [(4, level, "unknown-field", "level"), (4, bogus, "unknown-field", "bogus"), (4, bogus, "unknown-field", "rules[0].bogus")]
    assert rules(text) == sorted(expected)


def test_a_line_of_30000_unclosed_suppressions() -> None:
    marker = "#svcconf:ignore["
    found = rules("a: 1 " + marker * 30_000 + "\n")
    # Without `]` none is in a known form: each is an error and suppresses nothing.
    assert found == [(1, 6 + i * len(marker), "invalid-suppression", "") for i in range(30_000)]


def test_20000_suppressed_lines() -> None:
    lines = "".join(f"k{i}: 1  # svcconf: ignore[unknown-field]\n" for i in range(20_000))
    assert rules(POLICY + lines + "last: 1\n") == [(20_005, 1, "unknown-field", "last")]


def test_encryption_resource_lists_of_40000_names() -> None:
    count = 40_000
    core = ", ".join(f"r{i}" for i in range(count))
    wildcards = ", ".join(f"'*.g{i}.io'" for i in range(count))
    masked = ", ".join(f"m{i}.g{count - 1}.io" for i in range(100))
    text = (
        "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n"
        f"  - resources: [{core}, x.apps, '*.apps']\n    providers: [{{identity: {{}}}}]\n"
        f"  - resources: [{wildcards}]\n    providers: [{{identity: {{}}}}]\n"
        f"  - resources: [{masked}]\n    providers: [{{identity: {{}}}}]\n"
    )
    found = check(text)
    overlapping = [(d.line, d.path_text) for d in found if d.rule == "overlapping-resources"]
    assert overlapping == [(4, "resources[0].resources")]
    masking = [(d.path_text, d.message) for d in found if d.rule == "masked-resource"]
    assert masking == [
        (f"resources[2].resources[{i}]", f'resource "m{i}.g{count - 1}.io" is masked by earlier rule "*.g{count - 1}.io"')
        for i in range(100)
    ]
    assert len(found) == 101


def test_a_list_of_6000_items_with_scalars_yaml_versions_read_differently() -> None:
    count = 6_000
    item = "- {apiVersion: audit.k8s.io/v1, kind: Policy, rules: [{level: None, namespaces: [010]}]}\n"
    found = sorted(check("apiVersion: v1\nkind: List\nitems:\n" + item * count))
    assert [(d.line, d.rule, d.path_text) for d in found] == [
        (4 + i, "wrong-type", f"items[{i}].rules[0].namespaces[0]") for i in range(count)
    ]
    assert "reads unquoted 010 as 8" in found[0].message


# --------------------------------------------------------------------------- documents that see each other
# Rules that look across a file's documents index the file once: thousands of documents in one
# file cost thousands of look-ups, not millions (3,000 documents took minutes when each document
# identified every sibling again).

INIT = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\ncertificateKey: {key}\n"  # 3 lines
CLUSTER = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\ncontrolPlaneEndpoint: 10.0.0.10:6443\n"
KUBELET = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n"  # 2 lines
PROXY = "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\niptables:\n  masqueradeBit: 15\n"


def documents(*texts: str) -> str:
    return "---\n" + "---\n".join(texts)


def lines_starting(text: str, prefix: str) -> list[int]:
    return [number for number, line in enumerate(text.splitlines(), 1) if line.lstrip().startswith(prefix)]


def test_1500_bootstrap_sets_in_one_file_each_repeat_a_duplicate() -> None:
    key = "e6a2eb8581237ab72a4f494f30285ec12a9694d750b9785706a83bfcbbbd2204"
    text = documents(*[INIT.format(key=key), CLUSTER] * 1_500)
    kinds = lines_starting(text, "kind:")
    # The tool refuses a kind given twice: every document after the first two repeats one.
    expected = [(line, len("kind: ") + 1, "duplicate-bootstrap-kind", "kind") for line in kinds[2:]]
    # A bare IP endpoint while a certificate key plans more control planes: in every ClusterConfiguration.
    column = len("controlPlaneEndpoint: ") + 1
    expected += [(line, column, "control-plane-endpoint-bare-ip", "controlPlaneEndpoint") for line in lines_starting(text, "controlPlane")]
    assert rules(text) == sorted(expected)


def test_1500_kubelet_and_1500_proxy_documents_in_one_file() -> None:
    text = documents(*[KUBELET, PROXY] * 1_500)
    found = rules(text)
    # Every proxy document marks packets with bit 15, every kubelet with its default 14.
    masquerade = [(line, column) for line, column, rule, _path in found if rule == "proxy-masquerade-bit-differs-from-kubelet"]
    assert masquerade == [(line, len("  masqueradeBit: ") + 1) for line in lines_starting(text, "masqueradeBit:")]
    duplicates = [line for line, _column, rule, _path in found if rule == "duplicate-bootstrap-kind"]
    assert duplicates == lines_starting(text, "kind:")[2:]
    assert len(found) == len(masquerade) + len(duplicates)


def test_a_configuration_file_with_many_unknown_keys_is_reported_in_linear_time(tmp_path) -> None:
    config = tmp_path / ".svcconf.yaml"
    config.write_text("".join(f"k{i}: 1\n" for i in range(20_000)), encoding="utf-8")
    with deadline():
        result = run("validate", "--config", str(config), str(tmp_path))
    assert result.code == 2
    assert result.err.count("invalid configuration") == 20_000


def test_a_huge_configuration_file_is_refused_without_reading_it_whole(tmp_path) -> None:
    config = tmp_path / ".svcconf.yaml"
    with open(config, "wb") as handle:
        handle.truncate(64 * 1024**3)  # sparse: 64 GiB that cost no disk
    result = run("validate", "--config", str(config), str(tmp_path))
    assert result.code == 2 and "over the 1,048,576-byte limit" in result.err

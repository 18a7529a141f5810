"""The campaign's own parts can fail: each check catches the fault it is for, and cases are reproducible."""

from __future__ import annotations

import json
import random

import pytest

from . import mutators, reports
from .checks import Failure, check_case
from .frames import Hang, time_limit
from .generate import TEXT_MUTATIONS, Case, make_case
from .seeds import FIXTURES, load_seeds


def test_a_case_is_the_same_every_time_and_differs_by_seed() -> None:
    seeds = load_seeds(False)
    assert make_case(5, 42, seeds) == make_case(5, 42, seeds)
    assert {make_case(5, i, seeds).data for i in range(20)} != {make_case(6, i, seeds).data for i in range(20)}


@pytest.mark.parametrize("label,mutation", [(label, mutation) for label, _weight, mutation in TEXT_MUTATIONS])
def test_every_mutation_changes_a_fixture(label: str, mutation) -> None:
    text = (FIXTURES / "encryption" / "key-invalid-length-secretbox.yaml").read_text(encoding="utf-8")
    mutated = mutation(random.Random(1), text)
    assert mutated is not None and mutated != text, label


def test_planted_secrets_reach_every_secret_field() -> None:
    text = (FIXTURES / "bootstrap" / "join-valid.yaml").read_text(encoding="utf-8")
    planted = mutators.plant_secrets(random.Random(2), text, 9)
    assert planted is not None
    assert planted.text.count(mutators.MARKER) >= 2 and planted.markers[0] == mutators.MARKER


LONG = "::x " + "y" * 300  # a long offending line is quoted clipped: 160 characters and "..."
MALFORMED = [
    (
        "text",
        "a.yaml:1:1: error [x] \x1b[31mred\n",
        "text: raw control character in output",
        "'\\x1b' in 'a.yaml:1:1: error [x] \\x1b[31mred'",
    ),
    ("text", "a.yaml:1:1: error [x] \x9b31m\n", "text: raw control character in output", "'\\x9b' in "),
    ("text", "a.yaml:1:1: error [x] y\n  ::error::injected\n", "text: a line starts a workflow command", "'  ::error::injected'"),
    ("text", LONG, "text: a line starts a workflow command", repr(LONG[:160] + "...")),
    (
        "github",
        "::error file=a,b.yaml,line=1,col=1,title=svcconf x::m\n",
        "github: line is not one escaped workflow command",
        "'::error file=a,b",
    ),
    (
        "github",
        "::error file=a.yaml,line=1,col=1,title=svcconf x::m\nplain\n  ::warning::z\n",
        "github: line is not one escaped workflow command",
        "'  ::warning::z'",
    ),
    (
        "github",
        "::error file=a.yaml,line=1,col=1,title=svcconf x::m",
        "github: output does not end with a line break",
        "'::error file=a.yaml",
    ),
    ("github", "::notice file=a.yaml,line=1,col=1,title=t::m\x07\n", "github: raw control character in output", "'\\x07' in "),
    ("json", '{"version": 1, "summary": {}', "json: does not parse", "Expecting ',' delimiter"),
    ("json", "[]", "json: not the report contract", "'[]'"),
    ("json", '{"version": 1, "diagnostics": []}', "json: not the report contract", "'{"),
    (
        "json",
        '{"version": 1, "summary": {}, "diagnostics": [{"line": "1", "rule": "x"}]}',
        "json: diagnostic without line or rule",
        '"line": "1"',
    ),
    (
        "json",
        '{"version": 1, "summary": {}, "diagnostics": [{"line": 1, "rule": 2}]}',
        "json: diagnostic without line or rule",
        '"rule": 2',
    ),
    ("junit", "<testsuites><testsuite></testsuites>", "junit: XML does not parse", "mismatched tag"),
    ("junit", "<testsuite/>", "junit: root is not testsuites", "testsuite"),
    ("sarif", '{"version": "2.1.0"', "sarif: does not parse", "Expecting ',' delimiter"),
    (
        "sarif",
        '{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"level": "error"}]}]}',
        "sarif: schema: required at runs/N/results/N",
        "'message' is a required property",
    ),
    ("gitlab", "[{", "gitlab: does not parse", "Expecting property name"),
    ("gitlab", '{"description": "x"}', "gitlab: not an array of issues", '\'{"description": "x"}\''),
    ("gitlab", '[{"description": "x", "location": {"path": "a.yaml"}}]', "gitlab: issue without path or line", '"path": "a.yaml"'),
    ("gitlab", '[{"description": "x"}]', "gitlab: issue without path or line", '"description": "x"'),
    (
        "github",
        "1 error, 0 warnings in 1 file\n::error file=a.yaml,line=1,col=1,title=t::m\n",
        "github: line is not one escaped workflow command",
        "'::error file=a.yaml",
    ),
    ("gitlab", '[{"description": "x", "location": {"path": 1, "lines": {"begin": 1}}}]', "gitlab: issue without path or line", '"path": 1'),
    (
        "gitlab",
        '[{"fingerprint": "f", "location": {"path": "a", "lines": {"begin": 1}}}, '
        + '{"fingerprint": "f", "location": {"path": "a", "lines": {"begin": 2}}}]',
        "gitlab: fingerprints are not unique",
        '"fingerprint": "f"',
    ),
]
WELL_FORMED = [
    ("text", "a.yaml:1:1: error [x] y\n1 error, 0 warnings in 1 file\n"),
    ("text", "X::y\n"),  # "::" that does not start the line, after spaces, starts no command
    ("github", "X::y\n"),
    ("github", ""),
    ("json", '{"version": 1, "summary": {}, "diagnostics": [{"line": 1, "rule": "x"}]}'),
    ("junit", "<testsuites/>"),
    ("gitlab", ""),
    ("gitlab", "[]"),
    (
        "gitlab",
        '[{"fingerprint": "f", "location": {"path": "a", "lines": {"begin": 1}}}, {"fingerprint": "g", "location": {"path": "a", "lines": {"begin": 2}}}]',
    ),
]


@pytest.mark.parametrize("fmt,output,cause,detail", MALFORMED, ids=[f"{m[0]}-{m[2].split(': ', 1)[1][:30]}" for m in MALFORMED])
def test_a_malformed_report_is_caught(fmt: str, output: str, cause: str, detail: str) -> None:
    [(found, shown)] = reports.CHECKS[fmt](output)
    assert found == cause and detail in shown


@pytest.mark.parametrize("fmt,output", WELL_FORMED)
def test_a_well_formed_report_passes(fmt: str, output: str) -> None:
    assert reports.CHECKS[fmt](output) == []


def test_a_sarif_log_of_many_results_is_checked_at_both_ends() -> None:

    good = {"ruleId": "x", "message": {"text": "m"}, "level": "error"}
    for broken in (0, 1999):
        results = [dict(good) for _ in range(2000)]
        results[broken] = {"level": "error"}  # no message
        log = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": results}]}
        assert [cause for cause, _d in reports.check_sarif(json.dumps(log))] == ["sarif: schema: required at runs/N/results/N"]


def test_a_long_sarif_log_is_checked_in_sample_its_first_and_last_150_results() -> None:
    # The pure-Python schema validator takes ~0.5 ms a result: a long log's middle is left out, by design.
    good = {"ruleId": "x", "message": {"text": "m"}, "level": "error"}
    caught = {}
    for broken in (149, 150, 1849, 1850):
        results = [dict(good) for _ in range(2000)]
        results[broken] = {"level": "error"}  # no message
        log = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": results}]}
        caught[broken] = bool(reports.check_sarif(json.dumps(log)))
    assert caught == {149: True, 150: False, 1849: False, 1850: True}


@pytest.mark.parametrize("log", ["[]", "{}", '{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": null}]}'])
def test_a_sarif_log_of_the_wrong_shape_is_a_schema_problem_not_a_crash(log: str) -> None:
    [(cause, _detail)] = reports.check_sarif(log)
    assert cause.startswith("sarif: schema: ")


def test_a_well_formed_github_line_passes() -> None:
    line = "::error file=a%3Ab%2Cc.yaml,line=3,col=7,title=svcconf wrong-type::[wrong-type] x: 50%25 done%0A::error::no\n"
    assert reports.check_github(line) == []
    assert reports.check_github(line + "1 error, 0 warnings in 1 file (1 document checked, 0 skipped)\n") == []


def test_a_shown_secret_is_found() -> None:
    markers = ("SVCCONF-SECRET-MARKER",)
    assert reports.secrets_shown("ok\nkey: SVCCONF-SECRET-MARKER-3\n", markers) == ["key: SVCCONF-SECRET-MARKER-3"]
    assert reports.secrets_shown("ok\n", markers) == []


def test_a_busy_loop_is_stopped_and_charged_to_the_module_it_spins_in() -> None:
    import itertools

    from svcconf.model import render_path

    with pytest.raises(Hang) as stopped, time_limit(0.5):
        render_path(itertools.repeat("a"))  # an endless path: the loop runs inside svcconf
    assert stopped.value.owner == "svcconf/model.py"


def test_a_call_past_its_limit_is_a_hang_named_by_phase_and_place() -> None:
    import itertools

    from svcconf.model import render_path

    from .checks import guarded

    failures: list[Failure] = []
    assert guarded("validate", lambda: render_path(itertools.repeat("a")), failures, 0.3) is None
    [(category, cause, detail)] = failures
    assert (category, cause) == ("hang", "hang: validate in svcconf/model.py")
    assert detail.startswith("over 0.3 s; stopped in svcconf/model.py:")


def test_migrate_may_take_40_cpu_seconds_a_megabyte_and_never_less_than_any_call() -> None:
    from .checks import TIME_LIMIT, migrate_limit

    assert migrate_limit(1_000_000) == 40.0 and migrate_limit(2_000_000) == 80.0
    assert migrate_limit(100) == TIME_LIMIT


def _case(data: bytes) -> Case:
    return Case(0, "fixtures/x.yaml", (), b"x.yaml", data, (), ())


OLD = (
    b"apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: nightly}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keep\n"
)

SCHEDULER_V1BETA2 = b"""\
apiVersion: kubescheduler.config.k8s.io/v1beta2
kind: KubeSchedulerConfiguration
profiles:
- plugins:
    score:
      disabled:
      - name: PodTopologySpread
      enabled:
      - name: MyPlugin
        weight: 2"""


def _migrate_that(monkeypatch, damage, data: bytes = OLD) -> list[Failure]:
    import svcconf.migrate

    real = svcconf.migrate.migrate_bytes

    def damaged(name, data, options=None):
        outcome = real(name, data, options)
        outcome.output = damage(data, outcome.output)
        return outcome

    monkeypatch.setattr(svcconf.migrate, "migrate_bytes", damaged)
    return check_case(_case(data), full=False)


def test_a_migrate_that_touches_another_document_is_caught(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    failures = _migrate_that(monkeypatch, lambda _data, out: out and out.replace(b"name: keep", b"name: kept"))
    assert failures == [Failure("migrate-loss", "migrate-loss: bytes outside converted documents changed", "batch/v1beta1 CronJob")]


def test_a_migrate_that_touches_the_first_byte_of_the_file_is_caught(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    first, second = OLD.split(b"---\n")
    failures = _migrate_that(monkeypatch, lambda _data, out: out and b"A" + out[1:], data=second + b"---\n" + first)
    assert failures == [Failure("migrate-loss", "migrate-loss: bytes outside converted documents changed", "batch/v1beta1 CronJob")]


def test_a_migrate_whose_output_is_not_text_is_caught(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    failures = _migrate_that(monkeypatch, lambda _data, out: out and out + b"\xff\xfe")
    assert Failure("migrate-loss", "migrate-loss: output is not readable text", "batch/v1beta1 CronJob") in failures


def test_a_document_left_for_review_is_no_loss(tmp_path, monkeypatch) -> None:
    # policy/v1beta1 PodDisruptionBudget with `selector: {}` (all pods) flips meaning in policy/v1: migrate asks for a review.
    monkeypatch.chdir(tmp_path)
    assert check_case(_case(b"apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nspec:\n  selector: {}\n"), full=False) == []


def test_a_migrate_that_fails_when_run_again_is_caught(tmp_path, monkeypatch) -> None:
    import svcconf.migrate

    real, calls = svcconf.migrate.migrate_bytes, []

    def second_fails(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyError("planted")
        return real(*args, **kwargs)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(svcconf.migrate, "migrate_bytes", second_fails)
    failures = check_case(_case(OLD), full=False)
    assert [(f.category, f.detail.split(" (")[0]) for f in failures] == [("traceback", "migrate again: 'planted'")]


def test_a_migrate_that_is_not_idempotent_is_caught(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    failures = _migrate_that(monkeypatch, lambda data, out: (out or data) + b"# again\n")
    assert Failure("migrate-loss", "migrate-loss: migrating the output changes it again", "batch/v1beta1 CronJob") in failures


def test_a_migrate_that_leaves_a_removed_version_is_caught(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    failures = _migrate_that(monkeypatch, lambda _data, out: out and out.replace(b"batch/v1\n", b"batch/v1beta1\n"))
    assert Failure("migrate-loss", "migrate-loss: success claimed, removed apiVersion left", "batch/v1beta1 CronJob") in failures


def test_a_migrate_that_drops_a_document_is_caught(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    failures = _migrate_that(monkeypatch, lambda _data, out: out and out.split(b"---\n")[0])
    assert Failure("migrate-loss", "migrate-loss: number of documents changed", "2 -> 1") in failures


def test_an_unchanged_clean_file_passes(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert check_case(_case(OLD)) == []


def test_a_faithful_migrate_after_two_byte_order_marks_is_not_a_loss(tmp_path, monkeypatch) -> None:
    # the reader drops the first mark; libyaml's positions skip the second, which the text still holds
    from svcconf.migrate import migrate_bytes

    monkeypatch.chdir(tmp_path)
    first = b"\xef\xbb\xbf\xef\xbb\xbfapiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keep\n---\n"
    # v1beta2 -> v1 writes the old score weights of three plugins the profile keeps after the last line, which has no break
    data = first + SCHEDULER_V1BETA2
    output = migrate_bytes("x.yaml", data).output
    assert output.startswith(first + b"apiVersion: kubescheduler.config.k8s.io/v1\n") and output != data
    assert check_case(_case(data), full=False) == []


def test_the_slowest_call_of_a_case_is_kept_with_its_phase(monkeypatch) -> None:
    import time

    from . import checks

    def spin(seconds: float) -> None:
        end = time.process_time() + seconds
        while time.process_time() < end:
            pass

    monkeypatch.setattr(checks, "SLOWEST", [0.0, ""])
    checks.guarded("validate", lambda: spin(0.05), [])
    checks.guarded("render json", lambda: spin(0.0), [])
    seconds, phase = checks.SLOWEST
    assert phase == "validate" and 0.05 <= seconds < 5


def test_a_seeds_first_line_flags_become_the_options_of_the_checks() -> None:
    from .checks import options_for

    args = ("--target-version", "1.29", "--fs-checks", "--unsafe", "-h", "--bootstrap", "join")
    args += ("--service-account-issuer", "https://a", "--service-account-issuer", "https://b", "--field-validation", "Warn")
    args += ("--api-domain", "example.com")
    validate, migrate = options_for(Case(0, "s", (), b"x.yaml", b"", (), args))
    assert (validate.target, validate.fs_checks, validate.bootstrap, validate.field_validation) == ((1, 29), True, "join", "Warn")
    assert validate.service_account_issuers == ("https://a", "https://b")
    assert (validate.api_domain, migrate.api_domain, migrate.target, migrate.unsafe) == ("example.com", "example.com", (1, 29), True)
    plain, plain_migrate = options_for(Case(0, "s", (), b"x.yaml", b"", (), ()))
    assert (plain.target, plain.fs_checks, plain.service_account_issuers, plain_migrate.unsafe) == (None, False, (), False)
    assert (plain.field_validation, plain.api_domain) == ("Strict", "k8s.io")
    broken, _migrate = options_for(Case(0, "s", (), b"x.yaml", b"", (), ("--target-version", "one", "--fs-checks")))
    assert (broken.target, broken.fs_checks) == (None, False)  # a flag that does not parse: the defaults, all of them


def test_a_flag_beside_no_target_release_is_kept() -> None:
    from .checks import options_for

    validate, migrate = options_for(Case(0, "s", (), b"x.yaml", b"", (), ("--fs-checks", "--unsafe")))
    assert (validate.target, validate.fs_checks, migrate.unsafe) == (None, True, True)


def test_a_case_whose_flags_do_not_parse_gets_the_defaults_not_the_campaigns_command_line(monkeypatch) -> None:
    from .checks import options_for

    monkeypatch.setattr("sys.argv", ["fuzz", "--fs-checks", "--unsafe", "--field-validation", "Warn"])
    validate, migrate = options_for(Case(0, "s", (), b"x.yaml", b"", (), ("--target-version", "one")))
    assert (validate.fs_checks, validate.field_validation, migrate.unsafe) == (False, "Strict", False)


INGRESS_THEN_CRONJOB = (
    OLD.split(b"---\n")[0].replace(b"batch/v1beta1\nkind: CronJob", b"extensions/v1beta1\nkind: Ingress") + b"---\n" + OLD
)


def test_a_case_migrates_to_its_seeds_release_and_a_document_that_release_keeps_must_stay(tmp_path, monkeypatch) -> None:
    # At 1.22 extensions/v1beta1 Ingress is gone and batch/v1beta1 CronJob still served (until 1.25): only the
    # Ingress converts, so the CronJob's bytes must stay, and migrating the output again changes nothing.
    monkeypatch.chdir(tmp_path)
    case = _case(INGRESS_THEN_CRONJOB)._replace(args=("--target-version", "1.22"))
    assert check_case(case, full=False) == []
    import svcconf.migrate

    real = svcconf.migrate.migrate_bytes

    def damaged(name, data, options=None):  # the planted bug: the CronJob's name changes, converted or not
        outcome = real(name, data, options)
        outcome.output = outcome.output and outcome.output.replace(b"name: nightly", b"name: nightlz")
        return outcome

    monkeypatch.setattr(svcconf.migrate, "migrate_bytes", damaged)
    assert check_case(case, full=False) == [
        Failure("migrate-loss", "migrate-loss: bytes outside converted documents changed", "extensions/v1beta1 Ingress")
    ]


def test_each_conversion_is_named_in_a_loss_and_a_change_without_one_says_so(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    again = "migrate-loss: migrating the output changes it again"
    failures = _migrate_that(monkeypatch, lambda data, out: (out or data) + b"# again\n", data=INGRESS_THEN_CRONJOB)
    assert Failure("migrate-loss", again, "batch/v1beta1 CronJob, extensions/v1beta1 Ingress") in failures
    clean = OLD.split(b"---\n")[1]  # a ConfigMap: nothing to convert, yet the planted bug changes the file
    assert Failure("migrate-loss", again, "no edit") in _migrate_that(
        monkeypatch, lambda data, out: (out or data) + b"# again\n", data=clean
    )


def test_a_migrate_that_raises_is_a_traceback_of_the_migrate_phase(tmp_path, monkeypatch) -> None:
    import svcconf.migrate

    def broken(*_args, **_kwargs):
        raise KeyError("planted")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(svcconf.migrate, "migrate_bytes", broken)
    failures = check_case(_case(OLD), full=False)
    assert [(f.category, f.detail.split(" (")[0]) for f in failures] == [("traceback", "migrate: 'planted'")]


def test_a_migrate_that_fails_on_its_own_output_is_caught(tmp_path, monkeypatch) -> None:
    from svcconf.migrate import engine

    real = engine.migrate_text

    def broken(name, text, options, outcome):  # the planted bug: a step that fails on a batch/v1 CronJob
        if "batch/v1\n" in text:
            raise KeyError("planted")
        return real(name, text, options, outcome)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(engine, "migrate_text", broken)
    failures = check_case(_case(OLD), full=False)
    assert failures == [Failure("internal-error", "internal-error: migrate fails on its own output", "batch/v1beta1 CronJob")]


def test_a_validate_that_fails_on_migrates_output_is_a_traceback_of_that_phase(tmp_path, monkeypatch) -> None:
    from svcconf.lint import check

    real = check.check_source

    def broken(source, options):  # the planted bug: validate fails on a batch/v1 CronJob
        if "batch/v1\n" in source.text:
            raise KeyError("planted")
        return real(source, options)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(check, "check_source", broken)
    failures = check_case(_case(OLD), full=False)
    assert [(f.category, f.detail.split(" (")[0]) for f in failures] == [("traceback", "validate migrated: 'planted'")]

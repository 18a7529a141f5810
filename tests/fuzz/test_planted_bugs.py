"""Each detector of the campaign, shown to catch the bug it is for: the bug is planted (a monkeypatched
svcconf function, a crafted process result) and the detector must name it."""

from __future__ import annotations

import json

import pytest

from . import mutators, reports, values
from .checks import Failure, check_case
from .generate import Case
from .seeds import load_seeds
from .test_checks import OLD, _case

INIT = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\nbootstrapTokens:\n  - token: {token}\n"


def _secret_case() -> Case:
    """An invalid bootstrap token holding a planted marker: its error may show a token's id, never the rest."""
    marker = f"{mutators.MARKER}-7"
    return Case(7, "fixtures/x.yaml", ("planted-secrets",), b"x.yaml", INIT.format(token=marker).encode(), values.marker_texts(marker), ())


def _causes(failures: list[Failure]) -> list[tuple[str, str]]:
    return sorted({(f.category, f.cause) for f in failures})


def test_a_secret_in_an_invalid_field_passes_when_svcconf_redacts_it(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert check_case(_secret_case()) == []


@pytest.mark.parametrize(
    "shown", [lambda value: value, lambda value: value[:12], lambda value: value[-11:]], ids=["whole", "first-12", "last-11"]
)
def test_a_secret_shown_in_whole_or_in_part_is_caught(tmp_path, monkeypatch, shown) -> None:
    from svcconf.known.secrets import Masked
    from svcconf.rules.bootstrap import configs

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(configs, "token_shown", lambda value: Masked(shown(value)))  # the planted bug
    failures = check_case(_secret_case())
    assert Failure("secret", "secret: shown by [invalid-bootstrap-token]", "validate") in failures


def test_shown_secrets_are_found_from_8_characters_on() -> None:
    markers = values.marker_texts(f"{mutators.MARKER}-3")
    assert reports.secrets_shown("a\nkey: SVCCONF-SECR...\n", markers) == ["key: SVCCONF-SECR..."]
    assert reports.secrets_shown("key: ...RET-MARKER\n", markers) == ["key: ...RET-MARKER"]
    assert reports.secrets_shown(f"key: {markers[1][:8]}\n", markers) == [f"key: {markers[1][:8]}"]  # the base64 form, in part
    assert reports.secrets_shown("key: SVCCONF\nREDACTED\n", markers) == []


def test_an_exception_in_a_report_format_is_caught_as_a_traceback(tmp_path, monkeypatch) -> None:
    from svcconf.report import junit_format

    def broken(*_args, **_kwargs):
        raise ValueError("planted")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(junit_format, "write", broken)
    failures = check_case(_case(OLD))
    [(category, cause)] = _causes(failures)
    assert (category, cause.rpartition(":")[0]) == ("traceback", "traceback: ValueError in svcconf/report/__init__.py")
    assert failures[0].detail.startswith("render junit: planted")


def test_an_exception_out_of_validate_is_caught_as_a_traceback(tmp_path, monkeypatch) -> None:
    from svcconf.lint import pipeline

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(pipeline, "check_file", lambda *_args, **_kwargs: {}["planted"])
    monkeypatch.setattr(pipeline, "_check_one", lambda *_args, **_kwargs: {}["planted"], raising=False)
    failures = check_case(_case(OLD), full=False)
    assert [f.category for f in failures if f.detail.startswith("validate")] == ["traceback"]


def test_a_rule_that_raises_is_caught_as_an_internal_error(tmp_path, monkeypatch) -> None:
    from svcconf import rules
    from svcconf.lint import document

    from .checks import install_hooks

    real = rules.rules_for

    def broken(_data, _context):
        raise KeyError("planted")
        yield  # a rule is a generator

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(rules, "rules_for", lambda *args: [*real(*args), broken])
    monkeypatch.setattr(document, "_run_rule", document._run_rule)  # restored after the test: the hook wraps it
    install_hooks()
    install_hooks()  # a second call finds the hook in place: each error is recorded once
    failures = check_case(_case(INIT.format(token="abcdef.0123456789abcdef").encode()), full=False)
    [(category, cause, detail)] = failures
    assert (category, cause.rpartition(".")[2]) == ("internal-error", "broken failed (KeyError)")
    # Where the rule raised, and nothing from the rules that ran without fault.
    assert detail.startswith("KeyError: 'planted' at ") and detail.count("KeyError") == 1


def test_a_migrate_that_fails_inside_is_caught_as_an_internal_error(tmp_path, monkeypatch) -> None:
    from svcconf.migrate import engine

    def broken(*_args, **_kwargs):
        raise KeyError("planted")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(engine, "migrate_text", broken)
    failures = check_case(_case(OLD), full=False)
    assert _causes(failures) == [("internal-error", "internal-error: migrate KeyError in ?")]  # raised outside svcconf: no place in it
    assert failures[0].detail.startswith("'planted'")


def test_a_report_format_that_writes_broken_json_is_caught(tmp_path, monkeypatch) -> None:
    from svcconf.report import json_format

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(json_format, "write", lambda _report, stream, **_kwargs: stream.write('{"version": 1,'))
    failures = check_case(_case(OLD))
    assert [(f.cause, f.detail[:26]) for f in failures if f.category == "malformed-report"] == [
        ("json: does not parse", "Expecting property name en")
    ]


def test_a_secret_a_format_shows_outside_any_message_is_caught(tmp_path, monkeypatch) -> None:
    from svcconf.report import json_format, text_format

    case = _secret_case()
    real = json_format.as_dict

    def broken(*_args, **_kwargs):
        raise ValueError("planted")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(text_format, "write", broken)  # the first format fails: the others are still checked
    monkeypatch.setattr(json_format, "as_dict", lambda report: {**real(report), "input": case.data.decode()})  # the planted leak
    failures = check_case(case)
    assert [f.category for f in failures] == ["traceback", "secret"]
    assert (failures[1].cause, case.markers[0] in failures[1].detail) == ("secret: shown in json outside any message", True)


def test_the_suite_sweep_sends_long_durations_and_a_hang_in_their_parser_is_caught(tmp_path, monkeypatch) -> None:
    from svcconf.go import durations

    from . import checks
    from .generate import SWEEP_ROUNDS, sweep_case
    from .test_fuzz import SEED

    seeds = load_seeds(False)
    cases = [sweep_case(SEED, seeds[i // SWEEP_ROUNDS], i) for i in range(0, len(seeds) * SWEEP_ROUNDS, SWEEP_ROUNDS)]
    cases = [case for case in cases if "long-duration" in case.steps]
    real = durations._parse

    def hangs_on_long(value: str):  # the planted bug: a loop that never ends on a duration over 20 characters
        while len(value) > 20:
            pass
        return real(value)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(durations, "_parse", hangs_on_long)
    monkeypatch.setattr(checks, "TIME_LIMIT", 0.5)
    hung = next((case for case in cases if any(f.category == "hang" for f in check_case(case, full=False))), None)
    assert hung is not None, f"none of {len(cases)} sweep cases with long durations reached the duration parser"


@pytest.mark.parametrize(
    "code,stderr,cause",
    [
        (1, b"Traceback (most recent call last):\n  File ...\nKeyError: 'x'\n", "traceback: process validate (exit 1)"),
        (2, b"svcconf: internal error: KeyError: 'x'\n", "traceback: process validate (KeyError)"),
        (3, b"", "traceback: process validate (exit 3)"),
        (-11, b"", "traceback: process validate (exit -11)"),
    ],
)
def test_a_crashed_process_is_caught(code: int, stderr: bytes, cause: str) -> None:
    import subprocess

    from .process import _crashed

    failures: list[Failure] = []
    _crashed(subprocess.CompletedProcess([], code, b"", stderr), "validate", failures)
    assert [(f.category, f.cause) for f in failures] == [("traceback", cause)]
    failures.clear()
    _crashed(subprocess.CompletedProcess([], code % 3 if code >= 0 else 1, b"", b"x.yaml:1:1: error [y] z\n"), "validate", failures)
    assert failures == []


def test_a_process_over_its_time_is_caught_as_a_hang(monkeypatch) -> None:
    import signal
    import subprocess

    from . import process

    outcomes = iter(
        [
            subprocess.CompletedProcess([], -signal.SIGXCPU),  # over its CPU time: the soft limit's signal
            subprocess.CompletedProcess([], -signal.SIGKILL),  # past the hard limit
            subprocess.TimeoutExpired("svcconf", 120),  # waiting, not working
        ]
    )

    def ran(*_args, **_kwargs):
        outcome = next(outcomes)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    monkeypatch.setattr(process.subprocess, "run", ran)
    failures: list[Failure] = []
    for _outcome in range(3):
        assert process._run(["validate"], failures, "validate") is None
    assert [(f.category, f.cause) for f in failures] == [("hang", "hang: process validate")] * 3
    assert [f.detail for f in failures] == [f"over {process.CPU_LIMIT} s of CPU time"] * 2 + [
        f"over {process.WALL_LIMIT} s without finishing"
    ]


def test_a_file_a_process_was_not_asked_to_write_is_caught(tmp_path, monkeypatch) -> None:
    import os

    from .process import _stray

    monkeypatch.chdir(tmp_path)
    (tmp_path / "case.yaml").write_bytes(b"x")
    before = set(os.listdir(b"."))
    failures: list[Failure] = []
    _stray(before, "migrate --diff", failures)
    assert failures == []
    (tmp_path / "case.yaml.new").write_bytes(b"x")  # the planted bug: a write beside the input
    _stray(before, "migrate --diff", failures)
    assert [(f.category, f.cause, f.detail) for f in failures] == [
        ("stray-write", "stray-write: process migrate --diff wrote a file it was not asked to", "b'case.yaml.new'")
    ]
    assert not (tmp_path / "case.yaml.new").exists()


@pytest.mark.parametrize("fault,category", [("exits", "traceback"), ("spins", "hang")])
def test_a_worker_that_dies_or_cannot_be_interrupted_is_replaced_and_its_case_failed(monkeypatch, fault: str, category: str) -> None:
    import os

    from . import campaign

    def broken(case, settings):
        if case.index == 0:
            if fault == "exits":
                os._exit(3)
            while True:  # no time limit here: only the pool's watch on the worker's CPU time stops it
                pass
        return []

    monkeypatch.setattr(campaign, "run_one", broken)  # workers fork after this: they run the planted bug
    monkeypatch.setattr(campaign, "HARD_LIMIT", 1.0)
    outcomes = campaign.Pool(campaign.Settings(1, 3, jobs=1, corpus=False, sweep=True)).run([0, 1, 2])
    assert [o.index for o in outcomes] == [0, 1, 2]
    assert [f.category for f in outcomes[0].failures] == [category]
    assert outcomes[1].failures == () and outcomes[2].failures == ()  # the replacement worker went on


def test_a_process_is_run_as_a_user_runs_svcconf(tmp_path, monkeypatch) -> None:
    from . import process

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SVCCONF_API_DOMAIN", "example.com")  # a setting of the caller's shell must not reach the child
    (tmp_path / "x.yaml").write_text("apiVersion: apiserver.example.com/v1\nkind: Nope\n", encoding="utf-8")
    failures: list[Failure] = []
    ran = process._run(["validate", "--no-config", "-f", "json", "x.yaml", "missing.yaml"], failures, "validate")
    assert failures == [] and ran is not None
    assert ran.returncode == 2 and b"missing.yaml" in ran.stderr  # a non-zero exit is a result, not an exception
    report = json.loads(ran.stdout)
    assert report["summary"]["files"] == 1 and report["diagnostics"] == []  # with the caller's domain it is unknown-api-version
    with open("x.yaml", "rb") as stdin:  # what the campaign pipes in reaches the child
        ran = process._run(["validate", "--no-config", "-f", "json", "--stdin-filename", "x.yaml", "-"], failures, "validate", stdin=stdin)
    assert failures == [] and ran is not None and json.loads(ran.stdout)["summary"]["skipped"] == 1


def test_the_last_line_of_a_crashed_process_names_the_failure() -> None:
    import subprocess

    from .process import _crashed

    failures: list[Failure] = []
    stderr = b"x.yaml:1:1: error [y] \xff\nnext\nsvcconf: internal error: KeyError: 'k': in rule\n"  # not UTF-8 throughout
    _crashed(subprocess.CompletedProcess([], 3, b"", stderr), "migrate --diff", failures)
    assert [(f.cause, f.detail) for f in failures] == [
        ("traceback: process migrate --diff (KeyError)", "svcconf: internal error: KeyError: 'k': in rule")
    ]


@pytest.mark.parametrize("fails", ["always", "once"])
def test_a_migrate_that_fails_deep_inside_is_placed_by_running_that_step_again(tmp_path, monkeypatch, fails: str) -> None:
    from svcconf.migrate import engine

    calls = []

    def broken(*_args, **_kwargs):  # the planted bug, reached only with the case's own text and options
        calls.append(1)
        if fails == "always" or len(calls) == 1:
            raise KeyError("planted | piped")  # a "|" of its own: cause and detail are split at the first one
        return []

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(engine, "_splice", broken)
    failures = check_case(_case(OLD), full=False)
    if fails == "always":
        assert [(f.category, f.cause, f.detail.split(" (")[0]) for f in failures] == [
            ("internal-error", "internal-error: migrate KeyError in svcconf/migrate/engine.py:_edit", "'planted | piped'")
        ]
    else:  # a fault that does not come back is still reported, as one that could not be placed
        assert [(f.category, f.cause, f.detail) for f in failures] == [("internal-error", "internal-error: migrate ?", "not raised again")]


def test_migrate_gets_more_time_for_a_larger_input(tmp_path, monkeypatch) -> None:
    import time

    from svcconf import migrate

    from . import checks

    real = migrate.migrate_bytes

    def slow(*args, **kwargs):  # linear but slow, like ruamel.yaml's writer on a large file
        end = time.process_time() + 0.4
        while time.process_time() < end:
            pass
        return real(*args, **kwargs)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(migrate, "migrate_bytes", slow)
    monkeypatch.setattr(checks, "TIME_LIMIT", 0.2)
    monkeypatch.setattr(checks, "MIGRATE_SECONDS_PER_MB", 10_000.0)  # the case's few hundred bytes earn a second or more
    failures = check_case(_case(OLD), full=False)
    assert [f for f in failures if f.category == "hang"] == []


WARNED = b"apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n    typo: 1\n"  # unknown-field


def _text_format_fails_on_a_warning(monkeypatch) -> None:
    from svcconf.report import text_format

    real = text_format.write

    def broken(report, stream, **kwargs):  # the planted bug: the text report fails when it has a warning to show
        if report.warnings:
            raise ValueError("planted")
        return real(report, stream, **kwargs)

    monkeypatch.setattr(text_format, "write", broken)


def test_a_case_is_validated_with_its_seeds_flags(tmp_path, monkeypatch) -> None:
    # --field-validation Warn makes the unknown field a warning: only then does the planted bug show.
    monkeypatch.chdir(tmp_path)
    _text_format_fails_on_a_warning(monkeypatch)
    case = _case(WARNED)._replace(args=("--field-validation", "Warn"))
    assert [(f.category, f.detail.split(" (")[0]) for f in check_case(case)] == [("traceback", "render text: planted")]
    assert check_case(_case(WARNED)) == []  # Strict: an error, no warning


def test_the_quick_sweep_renders_no_report(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    _text_format_fails_on_a_warning(monkeypatch)
    assert check_case(_case(WARNED)._replace(args=("--field-validation", "Warn")), full=False) == []


def test_after_a_hang_in_validate_migrate_is_not_run_but_after_another_failure_it_is(tmp_path, monkeypatch) -> None:
    import itertools

    import svcconf.migrate
    from svcconf.lint import pipeline
    from svcconf.model import render_path

    from . import checks

    def broken(*_args, **_kwargs):
        raise KeyError("planted in migrate")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(svcconf.migrate, "migrate_bytes", broken)
    monkeypatch.setattr(checks, "TIME_LIMIT", 0.3)
    _text_format_fails_on_a_warning(monkeypatch)
    case = _case(WARNED)._replace(args=("--field-validation", "Warn"))
    assert [f.category for f in check_case(case)] == ["traceback", "traceback"]  # the text report, then migrate
    monkeypatch.setattr(pipeline, "validate", lambda *_args: render_path(itertools.repeat("a")))  # spins inside svcconf
    assert [f.category for f in check_case(case)] == ["hang"]  # one hang per case: migrate would mostly repeat it


def test_a_secret_in_a_fix_is_caught_once_however_many_formats_show_it(tmp_path, monkeypatch) -> None:
    from svcconf.lint import pipeline

    case = _secret_case()
    real = pipeline.validate

    def leaking(paths, options):  # the planted bug: a fix that quotes the input
        report = real(paths, options)
        report.diagnostics = [d._replace(fix=f"instead of {case.data.decode()}") for d in report.diagnostics]
        return report

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(pipeline, "validate", leaking)
    failures = check_case(case)
    assert [(f.category, f.cause) for f in failures] == [("secret", "secret: shown by [invalid-bootstrap-token]")]


def test_a_rule_that_raises_is_recorded_where_it_raised_after_a_run_with_its_own_document_and_context(tmp_path, monkeypatch) -> None:
    from svcconf.lint import document
    from svcconf.rules.bootstrap import configs

    from .checks import install_hooks

    def broken(_path, _node, ctx):  # the planted bug, in a helper of a real rule (it reads the context first)
        raise KeyError(f"planted with fs_checks={ctx.fs_checks}")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(configs, "check_node_registration", broken)
    monkeypatch.setattr(document, "_run_rule", document._run_rule)  # restored after the test: the hook wraps it
    install_hooks()
    [(category, cause, detail)] = check_case(_case(INIT.format(token="abcdef.0123456789abcdef").encode()), full=False)
    # The rule's own run (same document, same context) fails as the recorded one did: a KeyError, placed in the rule.
    assert (category, cause.rpartition(".")[2]) == ("internal-error", "check_init failed (KeyError)")
    assert detail.startswith("KeyError: 'planted with fs_checks=False' at svcconf/rules/bootstrap/configs.py:check_init ")


def test_several_failing_rules_are_each_recorded(tmp_path, monkeypatch) -> None:
    from svcconf import rules
    from svcconf.lint import document

    from .checks import install_hooks

    real = rules.rules_for

    def first(_data, _context):
        raise KeyError("first")
        yield  # a rule is a generator

    def second(_data, _context):
        raise ValueError("second")
        yield

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(rules, "rules_for", lambda *args: [*real(*args), first, second])
    monkeypatch.setattr(document, "_run_rule", document._run_rule)
    install_hooks()
    failures = check_case(_case(INIT.format(token="abcdef.0123456789abcdef").encode()), full=False)
    assert sorted(f.cause.rpartition(".")[2] for f in failures) == ["first failed (KeyError)", "second failed (ValueError)"]
    assert [error.split(" at ")[0] for error in failures[0].detail.split("; ")] == ["KeyError: 'first'", "ValueError: second"]


def test_a_migrate_report_that_fails_in_the_command_is_caught(tmp_path, monkeypatch) -> None:
    from svcconf.report import migrate_report

    def broken(*_args, **_kwargs):
        raise ValueError("planted")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(migrate_report, "write_text", broken)
    failures = check_case(_case(OLD))
    assert [(f.category, f.cause.split(" (")[0]) for f in failures] == [("traceback", "traceback: migrate --diff")]

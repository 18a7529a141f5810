"""The library API the README shows: svcconf.validate and svcconf.migrate_bytes with their typed options."""

from __future__ import annotations

import pytest

import svcconf

CRONJOB = b"apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: nightly}\n"


def test_validate_takes_validate_options(tmp_path) -> None:
    (tmp_path / "cron.yaml").write_bytes(CRONJOB)
    report = svcconf.validate([str(tmp_path)], svcconf.ValidateOptions(target=(1, 25)))
    assert isinstance(report, svcconf.Report)
    assert [(d.line, d.rule) for d in report.diagnostics] == [(1, "removed-api-version")]
    assert svcconf.validate([str(tmp_path)], svcconf.ValidateOptions(target=(1, 20))).diagnostics == []


def test_migrate_bytes_takes_migrate_options_and_writes_nothing(tmp_path) -> None:
    outcome = svcconf.migrate_bytes("cron.yaml", CRONJOB, svcconf.MigrateOptions(from_version=(1, 24), target=(1, 25)))
    assert outcome.changed and outcome.output == CRONJOB.replace(b"batch/v1beta1", b"batch/v1")
    assert list(tmp_path.iterdir()) == []


def test_the_wrong_options_are_a_clear_type_error_not_an_internal_error() -> None:
    with pytest.raises(TypeError) as migrate:
        svcconf.migrate_bytes("cron.yaml", CRONJOB, svcconf.ValidateOptions())
    with pytest.raises(TypeError) as validate:
        svcconf.validate(["."], svcconf.MigrateOptions())
    assert "MigrateOptions" in str(migrate.value) and "ValidateOptions" in str(validate.value)


def test_options_refuse_a_misspelt_setting() -> None:
    with pytest.raises(TypeError) as misspelt:
        svcconf.ValidateOptions(field_validaton="Warn")  # type: ignore[call-arg]
    with pytest.raises(AttributeError) as unknown:
        _ = svcconf.MigrateOptions().to_version  # type: ignore[attr-defined]
    assert "field_validaton" in str(misspelt.value) and "to_version" in str(unknown.value)

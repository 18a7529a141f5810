"""Hostile documents through `svcconf server`: the fuzz campaign's cases, each opened, hovered, completed, acted on, changed and closed."""

from __future__ import annotations

from .generate import make_case
from .seeds import load_seeds
from .server import _SERVER, check_server

SEED = 20261122
COUNT = 40  # the campaign sends every 25th case; this sends a run of cases through one server, as an editor would


def test_the_server_survives_hostile_documents_and_shows_no_secret() -> None:
    seeds = load_seeds(False)
    found = []
    try:
        for index in range(COUNT):
            case = make_case(SEED, index, seeds)
            found += [(index, failure) for failure in check_server(case)]
    finally:
        for server in _SERVER:
            server.stop()
    assert found == []

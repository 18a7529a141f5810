"""Reading files: scalars as the server reads them, positions, encodings and the alias guard."""

from __future__ import annotations

import codecs

from svcconf.load.source import load_bytes, position
from svcconf.model import Anchor


def load(text: str):
    return load_bytes("t.yaml", text.encode("utf-8"))


def test_yaml11_scalars_resolve_as_the_server_reads_them() -> None:
    doc = load("a: on\nb: 'on'\nc: y\nd: 010\ne: 0x1F\nf: 12:30\ng: 2024-01-01\nh: 1e3\ni: ~\nj: 1_000\n").documents[0]
    assert doc.data == {"a": True, "b": "on", "c": True, "d": 8, "e": 31, "f": "12:30", "g": "2024-01-01", "h": 1000.0, "j": 1000}
    # The scalars YAML 1.2 tools read differently are remembered with their positions.
    assert [(path, written) for path, written, _v, _l, _c in doc.ambiguous] == [
        (("a",), "on"),
        (("c",), "y"),
        (("d",), "010"),
        (("j",), "1_000"),
    ]


def test_null_is_the_zero_value_and_drops_the_key() -> None:
    assert load("a: null\nb:\nc: 1\n").documents[0].data == {"c": 1}


def test_duplicate_keys_are_reported_at_the_second_key() -> None:
    doc = load("a: 1\nb:\n  c: 1\n  c: 2\n").documents[0]
    assert [(p.rule, p.path, p.line, p.column) for p in doc.problems] == [("duplicate-field", ("b", "c"), 4, 3)]


def test_merge_keys_merge_without_duplicates() -> None:
    doc = load("base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n").documents[0]
    assert doc.data["m"] == {"y": 3, "x": 1}
    assert doc.problems == []


def test_positions_of_values_keys_and_missing_fields() -> None:
    doc = load("rules:\n  - level: None\n    verbs: [get]\n  - verbs: [watch]\n").documents[0]
    assert position(doc.root, ("rules", 0, "verbs", 0)) == (3, 13)
    assert position(doc.root, ("rules", 0, "verbs"), Anchor.KEY) == (3, 5)
    assert position(doc.root, ("rules", 1, "level"), Anchor.PARENT) == (4, 5)


def test_documents_before_a_syntax_error_are_kept() -> None:
    source = load("a: 1\n---\nb: [\n")
    assert [d.data for d in source.documents] == [{"a": 1}]
    assert [(p.rule, p.line) for p in source.problems] == [("yaml-syntax", 4)]


def test_utf16_and_bom_and_crlf() -> None:
    text = "apiVersion: v1\r\nkind: ConfigMap\r\n"
    for data in (
        codecs.BOM_UTF16_LE + text.encode("utf-16-le"),
        codecs.BOM_UTF8 + text.encode("utf-8"),
        codecs.BOM_UTF16_BE + text.encode("utf-16-be"),
    ):
        source = load_bytes("t.yaml", data)
        assert source.problems == []
        assert source.documents[0].data == {"apiVersion": "v1", "kind": "ConfigMap"}
    crlf = load_bytes("t.yaml", b"a: 1\r\nb:\r\n  c: [x, y]\r\n").documents[0]
    assert position(crlf.root, ("b", "c", 1)) == (3, 10)


def test_json_with_tabs_is_read() -> None:
    source = load_bytes("t.json", b'{\n\t"apiVersion": "v1",\n\t"kind": "List"\n}\n')
    assert source.problems == []
    assert source.documents[0].data == {"apiVersion": "v1", "kind": "List"}


def test_documents_are_composed_by_libyaml() -> None:
    # The pure-Python parser is ~15x slower; svcconf must not fall back to it silently.
    from yaml.cyaml import CParser

    from svcconf.load.construct import NodeLoader

    assert issubclass(NodeLoader, CParser)

"""Failure causes the fuzz campaign finds in svcconf today, each waiting for its fix.

The in-suite run (test_fuzz.py) passes while every failure it meets has its cause here, and
fails when a cause here no longer occurs: when a fix lands, delete its entries. Keys are the
causes exactly as the campaign prints them; values say what is wrong. Nothing else is excused.
"""

KNOWN_FAILURES: dict[str, str] = {
    # Integers of more than 4,300 digits: Python's int <-> str limit raises while building the value.
    # `replicas: 999...9` (5,000 nines) crashes validate and is an internal error in migrate.
    "traceback: ValueError in svcconf/construct.py:integer": "huge integer: int/str conversion limit (4,300 digits)",
    "internal-error: migrate ValueError in svcconf/construct.py:integer": "huge integer: int/str conversion limit (4,300 digits)",
    # A file name with bytes that are not UTF-8 reaches the report as lone surrogates: every
    # format fails to encode it (the command prints "internal error" and exits 2).
    "traceback: UnicodeEncodeError in svcconf/report/text_format.py:write": "non-UTF-8 file name breaks the text report",
    "traceback: UnicodeEncodeError in svcconf/report/json_format.py:write": "non-UTF-8 file name breaks the json report",
    "traceback: UnicodeEncodeError in svcconf/report/sarif_format.py:_uri": "non-UTF-8 file name breaks the sarif report",
    "traceback: UnicodeEncodeError in svcconf/report/github_format.py:write": "non-UTF-8 file name breaks the github report",
    "traceback: UnicodeEncodeError in svcconf/report/junit_format.py:write": "non-UTF-8 file name breaks the junit report",
    # migrate re-reads a document with ruamel to rewrite it; ruamel refuses what the first reader
    # accepted: duplicate keys (DuplicateKeyError) and tagged scalars it cannot build (`!!float 0x1p3`).
    "internal-error: migrate DuplicateKeyError in svcconf/migrate/engine.py:_load_round_trip": "ruamel refuses duplicate keys",
    "internal-error: migrate ValueError in svcconf/migrate/engine.py:_load_round_trip": "ruamel cannot build a tagged scalar",
    # The alias budget (500,000 nodes) is per document: hundreds of documents, each under it, make
    # a 40 KB file take minutes.
    "hang: validate in svcconf/construct.py": "alias expansion budget is per document, not per file",
    # Keys and values are printed raw: ESC sequences, CR, tabs, `\n::error::` reach the text and
    # github reports, and control characters make the JUnit XML unparsable.
    "text: raw control character in output": "text report does not escape control characters",
    "github: raw control character in output": "github report does not escape control characters",
    "junit: XML does not parse": "junit report writes control characters XML 1.0 forbids",
    "migrate --diff: text: raw control character in output": "migrate's text report does not escape control characters",
}

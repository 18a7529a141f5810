"""Failure causes the fuzz campaign finds in svcconf today, each waiting for its fix.

The in-suite run (test_fuzz.py) passes while every failure it meets has its cause here, and
fails when a cause here no longer occurs: when a fix lands, delete its entries. Keys are the
causes exactly as the campaign prints them; values say what is wrong. Nothing else is excused.
"""

KNOWN_FAILURES: dict[str, str] = {}

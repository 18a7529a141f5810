"""Upstream components' validation test cases, as files, with the verdicts upstream asserts."""

"""Linting: paths -> documents -> lifecycle, schema and rule findings -> suppressions, settings and baseline applied -> a Report."""

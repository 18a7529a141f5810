"""What the API server would do with a request under a configuration: audit level, authorization, encryption at rest.

Each module returns plain data (NamedTuples); `svcconf explain` renders it. Nothing here is
imported when svcconf starts: the command imports it inside `run`.
"""

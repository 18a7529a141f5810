"""What svcconf knows as data: the catalog of kinds and their lifecycle, naming, secrets, the schemas, rule docs and tables."""

"""Rules of the bootstrap tool's files: init, cluster, join, reset and upgrade configurations and their cross-document consistency."""

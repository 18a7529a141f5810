"""Default configuration documents, one module per component family; see commands/print.py."""

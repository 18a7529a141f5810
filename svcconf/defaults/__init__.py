"""Default configuration documents as text, one module per component family (printed by commands/print.py)."""

"""Conversion tables, one module per area; each registers its steps with `steps.step` at import."""

"""Component command lines as data: the flag tables per release (`table`), the flags a document passes
with their positions (`arguments`), and the flags a release removes or renames (`migration`).

The flag rules (`svcconf/rules/flags/`) and `migrate` read command lines through this package.
"""

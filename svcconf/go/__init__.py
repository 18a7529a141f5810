"""Go and Kubernetes value parsing: each module accepts exactly what the Go code it names accepts.

Go reads text as bytes and knows only ASCII digits and letters, where Python's `\\d`, `\\w`,
`str.isdigit()`, `int()` and `float()` accept any script's digits; these parsers scan by hand
(or with patterns that cannot backtrack), so they also run in linear time on hostile input.
"""

"""`python -m svcconf`."""

from .cli import main

raise SystemExit(main())

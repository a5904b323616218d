"""`python -m speciation`: the same as the `speciation` command."""
from .cli import main

raise SystemExit(main())

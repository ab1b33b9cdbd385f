"""Allow ``python -m einhorn_table``: the command, as its console script runs it."""

from einhorn_table import main

raise SystemExit(main())

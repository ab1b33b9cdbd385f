"""Allow ``python -m einhorn_table``."""

from einhorn_table.cli import main

raise SystemExit(main())

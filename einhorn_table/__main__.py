"""Allow ``python -m einhorn_table``."""

try:
    from einhorn_table.cli import main
except KeyboardInterrupt:  # Ctrl-C while Python still imports: a quiet stop, as later
    raise SystemExit(130) from None

raise SystemExit(main())

"""``python -m games.engine``: play in a terminal, replay records, check deals (see :mod:`.cli`)."""

from .tools.cli import main

raise SystemExit(main())

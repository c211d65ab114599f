"""Allow `python -m ono99tui`."""

from ono99tui.cli import main

raise SystemExit(main())

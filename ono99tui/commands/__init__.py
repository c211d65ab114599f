"""One module per `ono99` sub-command.

Each module defines `HELP: str`, `add_arguments(parser)` and `run(args) -> int`.
Modules import heavy dependencies (Textual, zeroconf, asyncssh) inside `run`, so building
the parser stays cheap and `ono99 host --headless` never imports Textual.
"""

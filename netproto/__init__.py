"""Game-agnostic networking: framing, the session state machine, asyncio pumps, discovery.

Nothing in this package imports `ono99tui` or `textual`.
"""

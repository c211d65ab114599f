"""Fixtures of the netproto tests (helpers live in loopback_helpers.py)."""

from loopback_helpers import echo_server  # noqa: F401  (a fixture)

"""Fixtures of the netproto tests (helpers live in loopback_helpers.py)."""

from loopback_helpers import echo_server, heartbeat_server  # noqa: F401  (fixtures)

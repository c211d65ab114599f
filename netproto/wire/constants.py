"""Protocol-wide constants that every side (host, joiner, discovery) must agree on."""

from __future__ import annotations

# TCP port a table listens on when the host gives none, and the port `join HOST` assumes
# without `:PORT`. "99" for the game; it is not registered with IANA, so a host whose port
# is busy picks another with `--port` (discovery advertises whichever port is used).
DEFAULT_PORT = 9099

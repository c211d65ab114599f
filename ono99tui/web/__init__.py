"""The web door: play at a table from a browser (`ono99 host --web-port P`).

`web_url` is cheap to import (the lobby uses it to show the address to open); the door
itself, which needs the `web` extra (textual-serve and aiohttp), is imported on first use.
"""

from __future__ import annotations


def web_url(host: str, port: int) -> str:
    """The address a friend opens in a browser to play through the door: http://HOST:PORT/."""
    if ":" in host and not host.startswith("["):  # an IPv6 address goes in brackets
        host = f"[{host}]"
    return f"http://{host}:{port}/"

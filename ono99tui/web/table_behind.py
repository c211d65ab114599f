"""The table behind a web door, for a friend who pastes the door's address into `ono99 join`.

The door answers `GET /table.json` with `{"game": "ono99", "table_port": PORT}`, the port
its table listens on (on the door's own machine: the door and the table share their bind
address). It needs no login: the port is no secret, as anyone on the network reaches the
table there, and its mDNS advertisement names it. `table_behind` asks a web address for it
and gives the table's address to join; standard library only (the joiner's machine needs
no `web` extra), and never through a proxy: the door is on the LAN.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from netproto.addresses import HIGHEST_PORT, LOWEST_PORT, Address, WebAddress

TABLE_PATH = "/table.json"
GAME = "ono99"
# How long `ono99 join` waits for the door's answer: it is on the same network.
LOOKUP_TIMEOUT_S = 3.0
# The answer is a few dozen bytes; anything longer is not a door's.
MAX_ANSWER_BYTES = 4096


class NoTableBehind(Exception):
    """The web address has no ono99 table behind it that it would tell: the message says
    what answered there, for a player."""


def door_answer(table_port: int) -> dict[str, object]:
    """What the door says at TABLE_PATH."""
    return {"game": GAME, "table_port": table_port}


def table_port_from(answer: object) -> int:
    """The table's port from a door's answer; NoTableBehind when it is not a door's."""
    if not isinstance(answer, dict) or answer.get("game") != GAME:
        raise NoTableBehind("it is a web page, not an ono99 table's web door")
    port = answer.get("table_port")
    if type(port) is not int or not LOWEST_PORT <= port <= HIGHEST_PORT:
        raise NoTableBehind("its web door did not say which port the table is on")
    return port


def table_behind(web: WebAddress, timeout: float = LOOKUP_TIMEOUT_S) -> Address:
    """The address of the table whose web door is at `web` (its host, the table's port).

    Blocks for up to `timeout` seconds (call it off an event loop). Raises NoTableBehind,
    saying why, when nothing answers there or what answers is no ono99 web door.
    """
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    url = f"{web}{TABLE_PATH.lstrip('/')}"
    try:
        with opener.open(url, timeout=timeout) as response:
            body = response.read(MAX_ANSWER_BYTES + 1)
    except urllib.error.HTTPError as error:
        raise NoTableBehind(f"it is a web page (HTTP {error.code} for {TABLE_PATH}), not an "
                            "ono99 table's web door") from None
    except urllib.error.URLError as error:
        reason = error.reason
        words = reason.strerror if isinstance(reason, OSError) and reason.strerror else reason
        raise NoTableBehind(f"nothing answers there ({words})") from None
    except (OSError, ValueError) as error:  # a timeout, a connection reset, a bad answer
        raise NoTableBehind(f"nothing answers there as a web door ({error})") from None
    try:
        answer = json.loads(body) if len(body) <= MAX_ANSWER_BYTES else None
    except ValueError:
        answer = None
    return Address(web.host, table_port_from(answer))

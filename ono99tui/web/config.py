"""The web door's settings, checked before anything opens (cheap: no aiohttp here)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from netproto.limits import GuessPolicy
from ono99tui.host.door_settings import DoorSettings, join_command

# The Textual driver every game behind the door runs with (set in the child's environment;
# textual-serve's own choice, Textual's stock web driver, would bypass the project's: no
# hang-up detection, no screen diffing — ui/drivers/web.py has both).
TEXTUAL_DRIVER = "ono99tui.ui.drivers.web:WebTableDriver"

# The largest terminal a browser may ask for. The app's memory, CPU and bytes sent grow with
# the cell count: a 3000×1500 request cost 122 MB and 30 MB sent in 12 s with no cap.
MAX_COLUMNS = 240
MAX_ROWS = 80


@dataclass(frozen=True)
class HttpLimits:
    """How many connections the web door holds before they play, and for how long
    (`ono99tui.web.guard`; docs/WEB.md "Limits")."""

    # Connections not running a game, from one address and in all: a browser opens up to
    # six at once to one host, and a few tabs share them.
    per_address: int = 16
    in_all: int = 128
    # A request's headers must be in this long after its first byte (the first request:
    # after the connection opened); a kept-alive connection waits this long for the next
    # request; a request is served within this long (the game's websocket excepted).
    header_timeout: float = 10.0
    idle_timeout: float = 15.0
    request_timeout: float = 30.0
    # Descriptors kept free for the table (None: a quarter of the limit, at least 128).
    descriptor_reserve: int | None = None


# How long a phone's page may be gone (a locked phone, a lost Wi-Fi, a reload) before its
# seat hangs up on the table: the table's heartbeat timeout (`netproto.server.ServerLimits`),
# so that a phone put away is seen away by the others as soon as a terminal whose lid
# closed is. (It was 90 s: a locked phone's seat looked present for a minute and a half.)
# A page back after that resumes its seat with the seat's token, as a terminal does.
PHONE_LINGER = 20.0


class WebDoorConfigError(ValueError):
    """The door's settings are unusable (for example, no way to let anyone in)."""


@dataclass(frozen=True, kw_only=True)
class WebDoorConfig(DoorSettings):
    """Everything the web door needs; see `ono99 host --help` for the matching flags.

    Access is closed unless *password* or *open_access* is given.
    """

    table_address: str
    # Each browser tab's player gets a config directory of their own under this one.
    players_dir: Path
    # Phone pages' seats at once (each a `TableSession` in this process, not a process),
    # and how long a page may be away before its seat hangs up on the table.
    max_phones: int = 200
    phone_linger: float = PHONE_LINGER
    # The key the host gave this door (`ono99tui.host.doors.TrustDoor`): the phones' hellos
    # carry it, so the table counts them under the door's cap (max_phones), not as one
    # loopback address's connections (docs/WEB.md "Cap"). None: counted as any local client.
    table_door_key: str | None = field(default=None, repr=False)
    # The page's title: the table's name.
    title: str = "ONO 99"
    http: HttpLimits = field(default_factory=HttpLimits)
    # Password guesses, per address and in all (`netproto.limits.GuessThrottle`).
    guesses: GuessPolicy = field(default_factory=GuessPolicy)
    # Tests swap the game for a probe; None runs `join_command`.
    command: Callable[[str], Sequence[str]] | None = None
    extra_env: Mapping[str, str] = field(default_factory=dict)

    def validate(self) -> None:
        """Raise WebDoorConfigError unless the settings make a usable, closed-by-default door."""
        problem = self.settings_problem("web", "--web")
        if problem is not None:
            raise WebDoorConfigError(problem)
        if self.http.per_address < 1 or self.http.in_all < 1:
            raise WebDoorConfigError("the web door must hold at least one connection")

    def game_argv(self, player: str) -> list[str]:
        """The command line of the game for *player* (an argument list: no shell)."""
        if self.command is not None:
            return list(self.command(player))
        return join_command(self.table_address, player)

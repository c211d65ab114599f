"""What every door onto a table shares: its settings, its checks, the game it runs, its handle.

The SSH door (`ono99tui.ssh`) and the web door (`ono99tui.web`) differ in how a player comes
in — a terminal over SSH, a browser tab — but are asked for with the same six settings
(`DoorSettings`), refuse the same mistakes with the same words (`settings_problem`), run the
same game for each player (`join_command`) and look the same once open (`StartedDoor`). Each
door's options (before the table listens) and config (once its address is known) extend
`DoorSettings` with what only that door has.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, fields
from typing import Any, Protocol

from ono99tui.i18n import _


@dataclass(frozen=True, kw_only=True)
class DoorSettings:
    """Where a door listens, who it lets in, how many at once and for how long.

    Access is closed unless *password* or *open_access* is given (a door may add other
    ways in: the SSH door's authorized keys).
    """

    port: int = 0
    # The address the door listens on; the table's own bind address ("": every interface).
    bind_host: str = ""
    password: str | None = None
    open_access: bool = False
    max_sessions: int = 8
    # A session without a keypress for this long is closed (0: never).
    idle_timeout: float = 30 * 60.0

    def door_settings(self) -> dict[str, Any]:
        """These six settings by name, to build another of the door's types from this one."""
        return {field.name: getattr(self, field.name) for field in fields(DoorSettings)}

    def settings_problem(self, door: str, flag: str, *, other_way_in: str | None = None,
                         other_ways_given: bool = False) -> str | None:
        """What makes these settings unusable for *door* ("SSH", "web"), or None.

        *flag* is the door's flag prefix ("--ssh", "--web"), so the reason names the flags to
        give; *other_way_in* names the door's own way in besides a password ("--ssh-authorized-keys
        FILE") and *other_ways_given* says whether it was given.
        """
        # Whole sentences, translated: the operator reads them at the command line.
        # TRANSLATORS: the web door's name in "the {door} door lets nobody in" (SSH stays SSH).
        shown = _("web") if door == "web" else door
        named = {"flag": flag, "door": shown, "other_way_in": other_way_in or "",
                 "variable": f"ONO99_{door.upper()}_PASSWORD", "port": self.port}
        if not (self.password or self.open_access or other_ways_given):
            if other_way_in:
                return _("the {door} door lets nobody in by default: give {flag}-password, "
                         "{other_way_in}, or {flag}-open").format(**named)
            return _("the {door} door lets nobody in by default: give {flag}-password (or set "
                     "{variable}), or {flag}-open").format(**named)
        if self.open_access and (self.password or other_ways_given):
            return (_("{flag}-open cannot be combined with a password or keys") if other_way_in
                    else _("{flag}-open cannot be combined with a password")).format(**named)
        if self.max_sessions < 1:
            return _("the {door} session cap must be at least 1").format(**named)
        if self.idle_timeout < 0:
            return _("the {door} idle timeout must not be negative").format(**named)
        if not 0 <= self.port <= 65535:
            return _("not a port number: {port}").format(**named)
        return None


def join_command(table_address: str, player: str, *, plain: bool = False) -> list[str]:
    """The game a door's session runs: `ono99 join` straight to this table as *player* (in
    line mode, for screen readers and braille, when `plain`)."""
    # "--lobby-name=…" in one word: a name starting with "-" must not read as an option.
    command = [sys.executable, "-m", "ono99tui", "join", table_address, f"--lobby-name={player}"]
    return [*command, "--plain"] if plain else command


class _RunningDoor(Protocol):
    @property
    def port(self) -> int: ...

    async def close(self) -> None: ...


class StartedDoor:
    """What an open door of either kind is to `hosting`: its port, and closing it.

    The SSH and web doors subclass it with their lines and announcement (the
    `ono99tui.host.doors.OpenDoor` protocol).
    """

    def __init__(self, door: _RunningDoor) -> None:
        self.door = door

    @property
    def port(self) -> int:
        """The TCP port the door listens on."""
        return self.door.port

    async def close(self) -> None:
        """Stop accepting and end every session (their seats are then held as for a drop)."""
        await self.door.close()

"""The web door's settings, checked before anything opens (cheap: no aiohttp here)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

# The Textual driver every game behind the door runs with (set in the child's environment;
# textual-serve's own choice, Textual's stock web driver, would bypass the project's: no
# hang-up detection, no screen diffing — ui/web_driver.py has both).
TEXTUAL_DRIVER = "ono99tui.ui.web_driver:WebTableDriver"

# The largest terminal a browser may ask for. The app's memory, CPU and bytes sent grow with
# the cell count: a 3000×1500 request cost 122 MB and 30 MB sent in 12 s with no cap.
MAX_COLUMNS = 240
MAX_ROWS = 80


class WebDoorConfigError(ValueError):
    """The door's settings are unusable (for example, no way to let anyone in)."""


def join_command(table_address: str, player: str) -> list[str]:
    """The game a web session runs: `ono99 join` straight to this table as *player*."""
    # "--lobby-name=…" in one word: a name starting with "-" must not read as an option.
    return [sys.executable, "-m", "ono99tui", "join", table_address, f"--lobby-name={player}"]


@dataclass(frozen=True)
class WebDoorConfig:
    """Everything the web door needs; see `ono99 host --help` for the matching flags.

    Access is closed unless *password* or *open_access* is given.
    """

    table_address: str
    # Each browser tab's player gets a config directory of their own under this one.
    players_dir: Path
    bind_host: str = ""
    port: int = 0
    password: str | None = None
    open_access: bool = False
    max_sessions: int = 8
    idle_timeout: float = 30 * 60.0
    # The page's title: the table's name.
    title: str = "ONO 99"
    # Tests swap the game for a probe; None runs `join_command`.
    command: Callable[[str], Sequence[str]] | None = None
    extra_env: Mapping[str, str] = field(default_factory=dict)

    def validate(self) -> None:
        """Raise WebDoorConfigError unless the settings make a usable, closed-by-default door."""
        if not (self.password or self.open_access):
            raise WebDoorConfigError(
                "the web door lets nobody in by default: give --web-password "
                "(or set ONO99_WEB_PASSWORD), or --web-open"
            )
        if self.open_access and self.password:
            raise WebDoorConfigError("--web-open cannot be combined with a password")
        if self.max_sessions < 1:
            raise WebDoorConfigError("the web session cap must be at least 1")
        if self.idle_timeout < 0:
            raise WebDoorConfigError("the web idle timeout must not be negative")
        if not 0 <= self.port <= 65535:
            raise WebDoorConfigError(f"not a port number: {self.port}")

    def game_argv(self, player: str) -> list[str]:
        """The command line of the game for *player* (an argument list: no shell)."""
        if self.command is not None:
            return list(self.command(player))
        return join_command(self.table_address, player)

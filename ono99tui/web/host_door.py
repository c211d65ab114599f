"""The web door as one of a hosted table's doors (`ono99tui.host.doors`).

`WebDoorOptions` is the door `ono99 host --web-port …` asks for (the command builds it from
its flags); `hosting` opens it once the table listens, which gives an `OpenWebDoor`.
Importing this module is cheap: aiohttp and textual-serve (the `web` extra) are loaded
only when a door is checked or opened, and their absence is a clear problem, not a
traceback.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from netproto.addresses import Address, loopback_for
from ono99tui.host.door_settings import DoorSettings, StartedDoor
from ono99tui.host.doors import DoorError, TrustDoor
from ono99tui.i18n import _
from ono99tui.user_settings import config_dir
from ono99tui.web import web_url
from ono99tui.web.config import WebDoorConfig, WebDoorConfigError
from ono99tui.web.join_code import JoinLink

if TYPE_CHECKING:
    from ono99tui.web.server import WebDoor

PLAYERS_SUBDIR = "web-players"
# The packages of the `web` extra the door imports.
_EXTRA_MODULES = ("aiohttp", "jinja2", "textual_serve")
MISSING_EXTRA = ("the web door needs the web extra, which is not installed: "
                 "pip install 'ono99[web]'")


def _players_dir() -> Path:
    return config_dir() / PLAYERS_SUBDIR


def missing_extra() -> str | None:
    """Why the web door cannot be loaded (its extra is not installed), or None."""
    for module in _EXTRA_MODULES:
        if importlib.util.find_spec(module) is None:
            return MISSING_EXTRA
    return None


@dataclass(frozen=True, kw_only=True)
class WebDoorOptions(DoorSettings):
    """The web door a host asks for, before its table (and so the table's port) exists.

    Access is closed unless *password* or *open_access* is given (`problem` says so before
    anything opens).
    """

    # The table's name, the title of the door's pages.
    table_name: str = "ONO 99"
    # Each browser tab's player gets a config directory of their own under this one.
    players_dir: Path = field(default_factory=_players_dir)

    @property
    def title(self) -> str:
        """What the door is, for messages."""
        return f"the web door on port {self.port}"

    def door_config(self, table_port: int, door_key: str | None = None) -> WebDoorConfig:
        """The settings of the door onto the table listening on *table_port* (whose host
        gave the door *door_key*, if any).

        Raises WebDoorConfigError (a ValueError) when they leave the door unusable.
        """
        config = WebDoorConfig(
            **self.door_settings(),
            table_door_key=door_key,
            table_address=str(Address(loopback_for(self.bind_host), table_port)),
            players_dir=self.players_dir,
            title=self.table_name,
        )
        config.validate()
        return config

    def problem(self) -> str | None:
        """What makes this door unusable (checked before the table opens), or None."""
        try:
            self.door_config(0)
        except WebDoorConfigError as error:
            return str(error)
        return missing_extra()

    async def open(self, table_port: int, trust: TrustDoor | None = None) -> OpenWebDoor:
        """Start the door onto the table at *table_port*; raises OSError or DoorError.
        With `trust`, the phones (and `/tv` pages) say hello with the door's own key: the
        table counts them under the door's cap, `max_phones` (docs/WEB.md "Cap")."""
        problem = missing_extra()
        if problem is not None:
            raise DoorError(problem)
        from ono99tui.web.server import start_web_door

        try:
            config = self.door_config(table_port)
            if trust is not None:
                config = dataclasses.replace(
                    config, table_door_key=trust("the web door", config.max_phones))
            return OpenWebDoor(await start_web_door(config))
        except WebDoorConfigError as error:
            raise DoorError(str(error)) from None


class OpenWebDoor(StartedDoor):
    """A started web door, as `hosting` and the runners around it see an open door."""

    advert_field = "web_port"

    def __init__(self, door: WebDoor) -> None:
        super().__init__(door)
        self.door: WebDoor = door

    def url(self, host: str) -> str:
        """The address to open in a browser: http://HOST:PORT/."""
        return web_url(host, self.port)

    def announcement(self, host: str) -> Mapping[str, object]:
        """The "web-door" event a headless host prints once its door is open."""
        return {"event": "web-door", "port": self.port, "url": self.url(host),
                "password": not self.door.config.open_access}

    def join_announcement(self, host: str) -> Mapping[str, object]:
        """The "web-join" event a headless host prints: the one-step join address (at
        `host`, an IP literal of this machine, from now on the address the door gives) and
        the printable page with its QR code (`/qr`, for a browser on this machine)."""
        self.door.phone_host = host
        return {"event": "web-join", "url": self.door.join_url(),
                "code": self.door.join is not None,
                "qr_page": web_url(loopback_for(self.door.config.bind_host), self.port) + "qr"}

    def host_link_announcement(self, host: str, host_key: str) -> Mapping[str, object]:
        """The "web-host" event a headless host prints: the host's phone address (at
        `host`), which logs a browser in with host rights; `host_key` is the table's."""
        self.door.phone_host = host
        self.door.host_key = host_key
        return {"event": "web-host", "url": self.door.host_url()}

    def replace_join_code(self) -> None:
        """Make a new join code: the old address stops letting anyone in."""
        self.door.replace_join_code()

    def join_link(self, host: str) -> JoinLink:
        """The join address for the host's app (`j` in its waiting room), at `host`."""
        self.door.phone_host = host
        return JoinLink(url=self.door.join_url,
                        replace=self.door.replace_join_code if self.door.join else None,
                        page=web_url(loopback_for(self.door.config.bind_host), self.port) + "qr")

    def log_line(self, host: str) -> str:
        """The host's log line: the address to open."""
        return f"Web door open: {self.url(host)}"

    def invitation_line(self, host: str) -> str:
        """The line of the host's invitation for this door."""
        return _("Or in a browser: {address}").format(address=self.url(host))

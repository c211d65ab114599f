"""Finding a table again on the LAN by its advertised name, after its host came back elsewhere.

A host restarted on another port (or machine) advertises the same table name again; a
client that lost its link asks a `TableRefinder` (its `TableClient.relocator`) where that
table is now. The refinder browses mDNS only while it is asked (from the first call until
`close`, which the client calls once it stops reconnecting), and names only tables whose
advertised name is exactly the one it looks for, the same service instance name first (a
table renamed "Name-2" by a conflict, or another table of that name, comes after). The
client offers them its resume token only: a table that does not know the token refuses it,
so a session never moves to a different table. Nothing found, or no mDNS at all (no
interface, sockets refused): no candidates, and reconnecting goes on exactly as without it.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable, Sequence

from netproto.lan.discovery import DiscoveredTable, TableBrowser
from netproto.wire.messages import Welcome

log = logging.getLogger(__name__)

BrowserFactory = Callable[[Sequence[str]], TableBrowser]


class TableRefinder:
    """A `netproto.client.Relocator` that looks the table up by name with mDNS."""

    def __init__(self, interfaces: Sequence[str], table_name: str, *,
                 service_name: str | None = None,
                 browser_factory: BrowserFactory = TableBrowser) -> None:
        """`interfaces`: where to browse (see `netproto.lan.interfaces`); `table_name`: the name
        the table advertises (its TXT `table`); `service_name`: its DNS-SD instance name when
        it was found by mDNS, preferred over other tables of the same name."""
        self.interfaces = list(interfaces)
        self.table_name = table_name
        self.service_name = service_name
        self._browser_factory = browser_factory
        self._browser: TableBrowser | None = None
        # mDNS could not be used (no such interface, sockets refused): not tried again.
        self._unavailable = False

    async def candidates(self) -> list[tuple[str, int]]:
        """The places the table is advertised at now, best first (empty until one is heard).

        The first call starts browsing and returns at once: the client asks again between
        its attempts, by when the tables on the network have answered.
        """
        browser = await self._open_browser()
        if browser is None:
            return []
        return places_of(self.matching(browser.tables.values()))

    def matching(self, tables: Iterable[DiscoveredTable]) -> list[DiscoveredTable]:
        """The tables of `tables` with this table's name, the same service first."""
        same_name = [table for table in tables if table.info.name == self.table_name]
        return sorted(same_name, key=lambda table: (table.service_name != self.service_name,
                                                    table.service_name))

    async def close(self) -> None:
        """Stop browsing (the next `candidates` starts again)."""
        browser, self._browser = self._browser, None
        if browser is not None:
            await browser.close()

    async def _open_browser(self) -> TableBrowser | None:
        if self._browser is not None or self._unavailable or not self.interfaces:
            return self._browser
        browser = None
        try:
            browser = self._browser_factory(self.interfaces)
            await browser.start()
        except Exception as error:  # no mDNS here: reconnect to the known address only
            log.info("cannot look for table %r on the network: %s", self.table_name, error)
            self._unavailable = True
            if browser is not None:
                with contextlib.suppress(Exception):
                    await browser.close()
            return None
        self._browser = browser
        return browser


def refinder_for(welcome: Welcome | None, interfaces: Sequence[str] | None, *,
                 service_name: str | None = None) -> TableRefinder | None:
    """A refinder for the table that sent `welcome` (its `table.name`), or None when there
    is nothing to look for: no interfaces, no name, or a spectator (it holds no seat)."""
    if not interfaces or welcome is None or welcome.role != "player":
        return None
    name = welcome.table.get("name")
    if not isinstance(name, str) or not name.strip():
        return None
    return TableRefinder(interfaces, name, service_name=service_name)


def places_of(tables: Sequence[DiscoveredTable]) -> list[tuple[str, int]]:
    """Every (address, port) the tables advertise, in order, each once."""
    places: list[tuple[str, int]] = []
    for table in tables:
        for address in table.info.addresses:
            place = (address, table.info.port)
            if place not in places:
                places.append(place)
    return places

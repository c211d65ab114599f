"""The client's relocate hook, over loopback TCP with no mDNS: a table whose server went away
and came back on another port is resumed where the relocator says, with the same token and
seat; a place that does not know the token is only ever offered the token (never a hello),
so the session never sits down at another table; the relocator is asked only once the
known address fails, and released when reconnecting ends. And `TableRefinder`'s choices
with a stand-in browser: same name only, its own service first, nothing without mDNS."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from loopback_helpers import FAST_LIMITS, EchoTable

from netproto.client import ClientSettings, Closed, Disconnected, Reconnected, TableClient
from netproto.lan.discovery import DiscoveredTable, TableInfo, TableState
from netproto.lan.refind import TableRefinder, refinder_for
from netproto.server import Peer, Server
from netproto.wire.messages import Hello, Lobby, Message, Resume, View, Welcome

FAST_CLIENT = ClientSettings(heartbeat_timeout=5.0, backoff_initial=0.01, backoff_max=0.05,
                             reconnect_for=5.0)


class ListRelocator:
    """Names the places in `places` (changeable by the test); counts calls and closes."""

    def __init__(self, places: Sequence[tuple[str, int]] = ()) -> None:
        self.places = list(places)
        self.asked = 0
        self.closed = 0

    async def candidates(self) -> list[tuple[str, int]]:
        self.asked += 1
        return list(self.places)

    async def close(self) -> None:
        self.closed += 1


class RecordingTable(EchoTable):
    """An EchoTable that keeps the kind of every handshake message it was sent."""

    def __init__(self) -> None:
        super().__init__()
        self.handshakes: list[str] = []

    def on_message(self, peer: Peer, message: Message) -> None:
        if isinstance(message, Hello | Resume):
            self.handshakes.append(message.kind)
        super().on_message(peer, message)


async def listening(table: EchoTable) -> Server:
    """A server for `table` on a free loopback port."""
    server = Server(table, FAST_LIMITS)
    await server.start("127.0.0.1", 0)
    return server


async def kill(server: Server) -> None:
    """Drop every connection with no bye (as a killed process) and stop listening."""
    for peer in list(server.peers):
        peer.abort()
    await server.stop()


async def test_a_table_that_moved_is_resumed_where_the_relocator_says() -> None:
    table = RecordingTable()
    first = await listening(table)
    # The same table (the same seats and tokens) listening on another port, as a host
    # restarted from its journal on a port of its own.
    second = await listening(table)
    relocator = ListRelocator([("127.0.0.1", second.port)])
    client = await TableClient.connect("127.0.0.1", first.port, name="Ann",
                                       settings=FAST_CLIENT, relocator=relocator)
    try:
        token = client.token
        await kill(first)
        assert (await client.wait_for(Disconnected, 3)).will_retry
        await client.wait_for(Reconnected, 5)
        welcome = await client.wait_for(Welcome, 2)
        assert (welcome.seat, welcome.token) == (0, token)
        assert (client.host, client.port) == ("127.0.0.1", second.port)
        assert table.handshakes == ["hello", "resume"] and len(table.names) == 1
        assert relocator.asked >= 1 and relocator.closed == 1
        await client.ready()  # and the session plays on there
        await client.wait_for(Lobby, 2, lambda lobby: lobby.phase == "playing")
        await client.send_move({"after": "move"}, seq=1)
        assert (await client.wait_for(View, 2)).view == {"after": "move"}
    finally:
        await client.close()
        await second.stop()


async def test_a_place_that_does_not_know_the_token_is_never_joined() -> None:
    table = EchoTable()
    first = await listening(table)
    # Another table (of the same name, say) that would seat anyone saying hello.
    other_table = RecordingTable()
    other = await listening(other_table)
    relocator = ListRelocator([("127.0.0.1", other.port)])
    settings = ClientSettings(heartbeat_timeout=5.0, backoff_initial=0.01, backoff_max=0.05,
                              reconnect_for=1.0)
    client = await TableClient.connect("127.0.0.1", first.port, name="Ann",
                                       settings=settings, relocator=relocator)
    first_port = first.port
    try:
        await kill(first)
        await client.wait_for(Disconnected, 3)
        after_drop: list[object] = []
        async with asyncio.timeout(10):
            async for item in client:
                after_drop.append(item)
        assert isinstance(after_drop[-1], Closed) and after_drop[-1].code == "gave-up"
        assert not any(isinstance(item, Reconnected | Welcome) for item in after_drop)
        # It was asked, and offered only the token, each time.
        assert other_table.handshakes and set(other_table.handshakes) == {"resume"}
        assert other_table.names == {} and client.port == first_port
        assert relocator.closed == 1
    finally:
        await client.close()
        await other.stop()


async def test_the_relocator_is_asked_only_when_the_known_address_fails() -> None:
    table = EchoTable()
    server = await listening(table)
    relocator = ListRelocator()
    client = await TableClient.connect("127.0.0.1", server.port, name="Ann",
                                       settings=FAST_CLIENT, relocator=relocator)
    try:
        table.peers[0].abort()  # a dropped link; the table still listens where it was
        await client.wait_for(Reconnected, 5)
        assert relocator.asked == 0 and relocator.closed == 1
        assert client.port == server.port
    finally:
        await client.close()
        await server.stop()


async def test_a_failing_relocator_leaves_reconnecting_as_without_it() -> None:
    table = EchoTable()
    server = await listening(table)

    class Broken(ListRelocator):
        async def candidates(self) -> list[tuple[str, int]]:
            self.asked += 1
            raise OSError("no multicast here")

    relocator = Broken()
    # The client's known address is a relay that refuses the first attempts: the relocator
    # is asked (and fails) before the table is reached there again.
    refusals = 3

    async def relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal refusals
        if refusals > 0:
            refusals -= 1
            writer.transport.abort()
            return
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", server.port)

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            while data := await source.read(65536):
                sink.write(data)
            sink.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer),
                             return_exceptions=True)

    front = await asyncio.start_server(relay, "127.0.0.1", 0)
    front_port = front.sockets[0].getsockname()[1]
    refusals = 0
    client = await TableClient.connect("127.0.0.1", front_port, name="Ann",
                                       settings=FAST_CLIENT, relocator=relocator)
    try:
        refusals = 3
        table.peers[0].abort()
        await client.wait_for(Reconnected, 5)
        assert relocator.asked == 3 and client.port == front_port
        assert len(table.names) == 1
    finally:
        await client.close()
        front.close()
        await server.stop()


# --- TableRefinder with a stand-in browser (no mDNS) ------------------------------------------


class StandInBrowser:
    """What TableRefinder needs of a TableBrowser: start, close and the tables heard."""

    def __init__(self, tables: Sequence[DiscoveredTable], fail: bool = False) -> None:
        self.tables = {table.service_name: table for table in tables}
        self.fail = fail
        self.started = self.closed = 0

    async def start(self) -> None:
        self.started += 1
        if self.fail:
            raise OSError("no multicast on this interface")

    async def close(self) -> None:
        self.closed += 1


def advertised(service: str, name: str, port: int, *addresses: str) -> DiscoveredTable:
    info = TableInfo(protocol_version=1, name=name, host_player="Ann", rules="2022",
                     seats_taken=2, seats_total=4, state=TableState.PLAYING,
                     password_required=False, port=port, addresses=addresses)
    return DiscoveredTable(f"{service}._ono99._tcp.local.", info)


async def test_the_refinder_names_only_tables_of_that_name_its_own_service_first() -> None:
    browser = StandInBrowser([
        advertised("Kitchen-2", "Kitchen", 7002, "10.0.0.2"),
        advertised("Kitchen", "Kitchen", 7001, "10.0.0.1", "10.0.0.9"),
        advertised("Kitchen table", "Kitchen table", 7003, "10.0.0.3"),
        advertised("kitchen", "kitchen", 7004, "10.0.0.4"),
    ])
    refinder = TableRefinder(["127.0.0.1"], "Kitchen", service_name="Kitchen._ono99._tcp.local.",
                             browser_factory=lambda interfaces: browser)
    assert await refinder.candidates() == [("10.0.0.1", 7001), ("10.0.0.9", 7001),
                                           ("10.0.0.2", 7002)]
    assert browser.started == 1  # one browser for the whole outage
    assert await refinder.candidates() == [("10.0.0.1", 7001), ("10.0.0.9", 7001),
                                           ("10.0.0.2", 7002)]
    assert browser.started == 1
    await refinder.close()
    assert browser.closed == 1


async def test_a_refinder_without_mdns_names_nothing_and_stops_trying() -> None:
    made: list[StandInBrowser] = []

    def failing(interfaces: Sequence[str]) -> StandInBrowser:
        made.append(StandInBrowser([], fail=True))
        return made[-1]

    refinder = TableRefinder(["127.0.0.1"], "Kitchen", browser_factory=failing)
    assert await refinder.candidates() == []
    assert await refinder.candidates() == []
    assert len(made) == 1 and made[0].closed == 1
    assert await TableRefinder([], "Kitchen").candidates() == []


def test_a_refinder_is_made_only_for_a_seat_at_a_named_table() -> None:
    seat = Welcome(proto=1, role="player", seat=0, token="t", table={"name": "Kitchen"})
    made = refinder_for(seat, ["127.0.0.1"], service_name="Kitchen._ono99._tcp.local.")
    assert made is not None and (made.table_name, made.service_name) == (
        "Kitchen", "Kitchen._ono99._tcp.local.")
    assert refinder_for(seat, None) is None and refinder_for(seat, []) is None
    assert refinder_for(None, ["127.0.0.1"]) is None
    watching = Welcome(proto=1, role="spectator", table={"name": "Kitchen"})
    assert refinder_for(watching, ["127.0.0.1"]) is None
    unnamed = Welcome(proto=1, role="player", seat=0, token="t", table={"name": 7})
    assert refinder_for(unnamed, ["127.0.0.1"]) is None

"""A withdrawn table stays withdrawn, even when another lobby asks for tables as the host leaves.

zeroconf answers a question about shared records (the PTR that lists a table) after a
random 20-120 ms (RFC 6762 §6). These tests ask just before the host leaves, so that such
an answer is still queued when the goodbye goes out.
"""

from __future__ import annotations

import asyncio
import secrets
import socket
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager

from discovery_helpers import about, table_fields, unique_table_name, wait_for_event
from zeroconf import DNSIncoming, DNSOutgoing, DNSPointer, DNSQuestion, IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from netproto.lan.discovery import (
    TableAdvertiser,
    TableBrowser,
    TableChange,
    TableEvent,
    TableInfo,
)

LOOPBACK = "127.0.0.1"
MDNS_GROUP = ("224.0.0.251", 5353)
DNS_TYPE_PTR = 12  # RFC 1035
DNS_CLASS_IN = 1
# RFC 6762 §14: a record multicast less than a second ago is answered a second later, by
# when the host is gone. Let the announcements age past that, so the answer is the prompt
# kind that used to slip out between the goodbyes.
ANNOUNCEMENTS_AGE_SECONDS = 1.2


def private_service_type() -> str:
    """A service type no other test or program browses: no one else's questions or tables."""
    return f"_o{secrets.token_hex(5)}._tcp.local."


@contextmanager
def legacy_unicast_socket() -> Iterator[socket.socket]:
    """A UDP socket off port 5353: responders answer it by unicast at once (RFC 6762 §6.7).

    They also answer by multicast, after the usual delay: receiving the unicast answer is
    the sign that the multicast one is queued.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(LOOPBACK))
        sock.bind((LOOPBACK, 0))
        sock.setblocking(False)
        yield sock
    finally:
        sock.close()


async def ask_for_tables_until_answered(
    sock: socket.socket, service_type: str, service_name: str
) -> None:
    """Ask, as a lobby starting up would, and return once the host's answer lists the table."""
    question = DNSOutgoing(0, multicast=False)
    question.add_question(DNSQuestion(service_type, DNS_TYPE_PTR, DNS_CLASS_IN))
    loop = asyncio.get_running_loop()
    await loop.sock_sendto(sock, question.packets()[0], MDNS_GROUP)
    async with asyncio.timeout(10):
        while True:
            answer = DNSIncoming(await loop.sock_recv(sock, 9000))
            if any(
                isinstance(record, DNSPointer) and record.alias == service_name
                for record in answer.answers()
            ):
                return


async def announce_marker_table(service_type: str, name: str) -> None:
    """Multicast one announcement of another table, from a third zeroconf instance.

    Loopback delivers in order, so once a browser reports this table it has handled every
    packet the withdrawn host sent before.
    """
    marker = AsyncServiceInfo(
        service_type,
        f"{name}.{service_type}",
        port=9099,
        properties=TableInfo(**table_fields(name)).txt_properties(),
        server=f"marker-{secrets.token_hex(3)}.local.",
        parsed_addresses=[LOOPBACK],
    )
    announcer = AsyncZeroconf(interfaces=[LOOPBACK], ip_version=IPVersion.V4Only)
    try:
        await announcer.zeroconf.async_wait_for_start()
        announcer.zeroconf.async_send(announcer.zeroconf.generate_service_broadcast(marker, None))
    finally:
        await announcer.async_close()


async def events_until(
    events: AsyncIterator[TableEvent], name: str, change: TableChange, seen: list[TableEvent]
) -> None:
    """Collect events into `seen` up to this change to the table with this name."""
    predicate = about(name, change)

    def keep(event: TableEvent) -> bool:
        seen.append(event)
        return predicate(event)

    await wait_for_event(events, keep)


async def test_a_question_answered_as_the_host_leaves_does_not_bring_its_table_back() -> None:
    service_type = private_service_type()
    name = unique_table_name()
    marker_name = unique_table_name("Marker")
    seen: list[TableEvent] = []
    async with TableBrowser([LOOPBACK], service_type=service_type) as browser:
        events = browser.events()
        advertiser = TableAdvertiser(
            TableInfo(**table_fields(name)), [LOOPBACK], service_type=service_type
        )
        async with advertiser:
            await events_until(events, name, TableChange.ADDED, seen)
            await asyncio.sleep(ANNOUNCEMENTS_AGE_SECONDS)
            with legacy_unicast_socket() as sock:
                await ask_for_tables_until_answered(sock, service_type, advertiser.service_name)
        # The host has left (goodbye sent, sockets closed) with a multicast answer queued.
        await events_until(events, name, TableChange.REMOVED, seen)
        await announce_marker_table(service_type, marker_name)
        await events_until(events, marker_name, TableChange.ADDED, seen)

        assert [(event.change, event.table.info.name) for event in seen] == [
            (TableChange.ADDED, name),
            (TableChange.REMOVED, name),
            (TableChange.ADDED, marker_name),
        ]
        assert [table.info.name for table in browser.tables.values()] == [marker_name]

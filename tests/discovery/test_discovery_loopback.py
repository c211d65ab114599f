"""Real zeroconf on loopback, across processes: tables appear, change and disappear live."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from discovery_helpers import (
    AdvertiserProcess,
    about,
    run_ono99_list,
    table_fields,
    tables_named,
    unique_table_name,
    wait_for_event,
)
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from netproto.lan.discovery import (
    SERVICE_TYPE,
    TableAdvertiser,
    TableBrowser,
    TableChange,
    TableEvent,
    TableInfo,
    TableState,
)

LOOPBACK = "127.0.0.1"
StartAdvertiser = Callable[..., Awaitable[AdvertiserProcess]]


def sample_info(name: str, **changes: object) -> TableInfo:
    fields = table_fields(name, **changes)
    return TableInfo(**fields)


@pytest.mark.parametrize("way_out", ["eof", "sigterm", "sigint", "sighup"])
async def test_table_from_another_process_is_added_updated_and_removed(
    events: AsyncIterator[TableEvent], advertiser_process: StartAdvertiser, way_out: str
) -> None:
    name = unique_table_name()
    child = await advertiser_process(table_fields(name))

    added = await wait_for_event(events, about(name, TableChange.ADDED))
    assert added.table.service_name == child.service_name
    assert added.table.info == TableInfo(**table_fields(name), addresses=(LOOPBACK,))

    await child.update(seats_taken=3, state="playing")
    updated = await wait_for_event(events, about(name, TableChange.UPDATED))
    assert (updated.table.info.seats_taken, updated.table.info.state) == (3, TableState.PLAYING)

    assert await child.stop(way_out) == 0
    removed = await wait_for_event(events, about(name, TableChange.REMOVED))
    assert removed.table.service_name == child.service_name


async def test_ono99_list_json_reports_every_field() -> None:
    name = unique_table_name()
    # Something listens at the advertised port, so the table is reported as answering.
    listener = await asyncio.start_server(lambda reader, writer: writer.close(), LOOPBACK, 0)
    port = listener.sockets[0].getsockname()[1]
    async with listener, TableAdvertiser(sample_info(name, port=port), [LOOPBACK]) as advertiser:
        status, stdout, stderr = await run_ono99_list("--json", "--timeout", "2.5")

    assert status == 0, stderr
    assert tables_named(json.loads(stdout), name) == [
        {
            "service_name": advertiser.service_name,
            "protocol_version": 1,
            "name": name,
            "host_player": "Ann",
            "rules": "classic",
            "seats_taken": 1,
            "seats_total": 4,
            "state": "waiting",
            "password_required": True,
            "port": port,
            "addresses": [LOOPBACK],
            "ssh_port": 2222,
            "web_port": 8080,
            "answering": True,
        }
    ]


async def test_ono99_list_prints_a_readable_table() -> None:
    name = unique_table_name("Café ♠")
    # A port held bound but not listening, like a host killed without a goodbye: refused.
    with socket.socket() as closed:
        closed.bind((LOOPBACK, 0))
        port = closed.getsockname()[1]
        info = sample_info(name, password_required=False, port=port)
        async with TableAdvertiser(info, [LOOPBACK]):
            status, stdout, _ = await run_ono99_list("--timeout", "2.5")

    assert status == 0
    header, *rows = stdout.splitlines()
    assert header.split() == ["TABLE", "HOST", "ADDRESS", "RULES", "SEATS", "STATE", "PASSWORD",
                              "REACHABLE"]
    ours = [row for row in rows if row.startswith(name)]
    assert len(ours) == 1
    assert ours[0][len(name) :].split() == [
        "Ann",
        f"127.0.0.1:{port}",
        "classic",
        "1/4",
        "waiting",
        "no",
        "no",
    ]


async def test_two_tables_with_the_same_name_both_appear(
    events: AsyncIterator[TableEvent], advertiser_process: StartAdvertiser
) -> None:
    name = unique_table_name()
    first = await advertiser_process(table_fields(name, host_player="Ann"))
    async with TableAdvertiser(sample_info(name, host_player="Bob"), [LOOPBACK]) as second:
        assert second.service_name != first.service_name
        seen: dict[str, str] = {}
        while len(seen) < 2:
            event = await wait_for_event(events, about(name, TableChange.ADDED))
            seen[event.table.service_name] = event.table.info.host_player

    assert seen == {first.service_name: "Ann", second.service_name: "Bob"}


async def test_cancelling_the_hosting_task_withdraws_the_table(
    events: AsyncIterator[TableEvent],
) -> None:
    name = unique_table_name()
    registered = asyncio.Event()

    async def host() -> None:
        async with TableAdvertiser(sample_info(name), [LOOPBACK]):
            registered.set()
            await asyncio.Event().wait()  # hosts until cancelled, as on Ctrl-C

    hosting = asyncio.create_task(host())
    await wait_for_event(events, about(name, TableChange.ADDED))
    assert registered.is_set()
    hosting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await hosting

    await wait_for_event(events, about(name, TableChange.REMOVED))


async def test_malformed_advertisement_is_ignored_and_browsing_goes_on(
    events: AsyncIterator[TableEvent], browser: TableBrowser, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="netproto.lan.discovery")
    good_name = unique_table_name()
    bad_name = unique_table_name("Evil")
    bad_txt = {**sample_info(bad_name).txt_properties(), "table": "\x1b[2J\x1b]0;pwned\x07"}
    bad_service = AsyncServiceInfo(
        SERVICE_TYPE,
        f"{bad_name}.{SERVICE_TYPE}",
        port=9099,
        properties=bad_txt,
        server="evil-test.local.",
        parsed_addresses=[LOOPBACK],
    )
    raw = AsyncZeroconf(interfaces=[LOOPBACK], ip_version=IPVersion.V4Only)
    good = TableAdvertiser(sample_info(good_name), [LOOPBACK])
    try:
        # Both probe at once; the bad one is announced no later than the good one.
        announced, _ = await asyncio.gather(
            raw.async_register_service(bad_service, allow_name_change=True), good.start()
        )
        await announced
        await wait_for_event(events, about(good_name, TableChange.ADDED))
        async with asyncio.timeout(10):  # the bad one was heard, and refused
            while not any(bad_name in record.getMessage() for record in caplog.records):
                await asyncio.sleep(0.05)
    finally:
        await good.close()
        await raw.async_close()

    assert not [t for t in browser.tables if t.startswith(bad_name)]
    assert not [t for t in browser.tables.values() if "pwned" in t.info.name]


async def test_events_replay_known_tables_to_a_late_subscriber(
    events: AsyncIterator[TableEvent], browser: TableBrowser
) -> None:
    name = unique_table_name()
    async with TableAdvertiser(sample_info(name), [LOOPBACK]) as advertiser:
        await wait_for_event(events, about(name, TableChange.ADDED))
        late = browser.events()
        replayed = await wait_for_event(late, about(name, TableChange.ADDED), timeout=1)
        assert replayed.table.service_name == advertiser.service_name


async def test_on_change_callback_sees_the_same_events() -> None:
    name = unique_table_name()
    seen: list[tuple[TableChange, str]] = []
    reached = {change: asyncio.Event() for change in TableChange}

    def record(event: TableEvent) -> None:
        if event.table.info.name == name:
            seen.append((event.change, event.table.info.rules))
            reached[event.change].set()

    async def wait_until(change: TableChange) -> None:
        async with asyncio.timeout(10):
            await reached[change].wait()

    async with TableBrowser([LOOPBACK], on_change=record):
        async with TableAdvertiser(sample_info(name), [LOOPBACK]) as advertiser:
            await wait_until(TableChange.ADDED)
            await advertiser.update(sample_info(name, rules="house"))
            await advertiser.update(sample_info(name, rules="house"))  # no change: no event
            await wait_until(TableChange.UPDATED)
        await wait_until(TableChange.REMOVED)

    assert seen == [
        (TableChange.ADDED, "classic"),
        (TableChange.UPDATED, "house"),
        (TableChange.REMOVED, "house"),
    ]


async def test_closed_browser_ends_its_event_streams() -> None:
    async with TableBrowser([LOOPBACK]) as browser:
        stream = browser.events()
    assert [event async for event in stream] == []
    assert [event async for event in browser.events()] == []

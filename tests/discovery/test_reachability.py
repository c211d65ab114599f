"""Reachability probes against real sockets on loopback: listening, refused and silent ports."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from netproto.lan.reachability import ReachabilityWatch, answers, any_answers

LOOPBACK = "127.0.0.1"
SHORT = 0.3  # seconds: probes on loopback are refused or accepted within a millisecond


@contextmanager
def closed_port() -> Iterator[int]:
    """A port held bound but not listening: every connection to it is refused."""
    with socket.socket() as held:
        held.bind((LOOPBACK, 0))
        yield held.getsockname()[1]


@contextmanager
def silent_port() -> Iterator[int]:
    """A port that never answers: its accept queue is full, so Linux drops new SYNs."""
    with socket.socket() as listener, socket.socket() as filler:
        listener.bind((LOOPBACK, 0))
        listener.listen(0)
        port = listener.getsockname()[1]
        filler.connect((LOOPBACK, port))
        yield port


async def test_answers_tells_listening_refused_and_silent_ports_apart() -> None:
    server = await asyncio.start_server(lambda reader, writer: writer.close(), LOOPBACK, 0)
    async with server:
        port = server.sockets[0].getsockname()[1]
        assert await answers(LOOPBACK, port, SHORT)
    with closed_port() as port:
        assert not await answers(LOOPBACK, port, SHORT)
    with silent_port() as port:
        assert not await answers(LOOPBACK, port, SHORT)


async def test_any_answers_tries_each_address_in_turn() -> None:
    server = await asyncio.start_server(lambda reader, writer: writer.close(), LOOPBACK, 0)
    async with server:
        port = server.sockets[0].getsockname()[1]
        # 127.0.0.2 is loopback too, but nothing listens there.
        assert await any_answers(["127.0.0.2", LOOPBACK], port, SHORT)
        assert not await any_answers(["127.0.0.2"], port, SHORT)
        assert not await any_answers([], port, SHORT)


async def test_answers_wants_an_ip_address() -> None:
    with pytest.raises(ValueError):
        await answers("localhost", 9099)


async def test_watch_reports_a_port_that_goes_away_and_comes_back() -> None:
    changes: asyncio.Queue[tuple[str, bool]] = asyncio.Queue()
    server = await asyncio.start_server(lambda reader, writer: writer.close(), LOOPBACK, 0)
    port = server.sockets[0].getsockname()[1]
    async with ReachabilityWatch(lambda *change: changes.put_nowait(change),
                                 interval=0.05, timeout=SHORT) as watch:
        watch.watch("table", [LOOPBACK], port)
        assert await asyncio.wait_for(changes.get(), 5) == ("table", True)
        assert watch.answering("table") is True

        server.close()
        await server.wait_closed()
        assert await asyncio.wait_for(changes.get(), 5) == ("table", False)

        # The same port again (the listening socket reuses the address): it is back.
        server = await asyncio.start_server(lambda reader, writer: writer.close(), LOOPBACK, port)
        assert await asyncio.wait_for(changes.get(), 5) == ("table", True)
        made = watch.probes_made("table")
        while watch.probes_made("table") < made + 3:
            await asyncio.sleep(0.02)
        assert changes.empty()  # unchanged answers are not reported again
    server.close()
    await server.wait_closed()


async def test_watch_tells_each_target_apart_and_forgets() -> None:
    changes: asyncio.Queue[tuple[str, bool]] = asyncio.Queue()
    server = await asyncio.start_server(lambda reader, writer: writer.close(), LOOPBACK, 0)
    live = server.sockets[0].getsockname()[1]
    with closed_port() as refused, silent_port() as silent:
        async with server, ReachabilityWatch(lambda *change: changes.put_nowait(change),
                                             interval=0.05, timeout=SHORT) as watch:
            for key, port in (("live", live), ("refused", refused), ("silent", silent)):
                watch.watch(key, [LOOPBACK], port)
            heard = {await asyncio.wait_for(changes.get(), 5) for _ in range(3)}
            assert heard == {("live", True), ("refused", False), ("silent", False)}

            # A table moved to a port that answers is probed again at once.
            watch.watch("refused", [LOOPBACK], live)
            assert await asyncio.wait_for(changes.get(), 5) == ("refused", True)

            watch.forget("live")
            assert watch.answering("live") is None and watch.probes_made("live") == 0
            await asyncio.sleep(0)  # cancelled tasks end on the loop's next turn
            probes = [task for task in asyncio.all_tasks()
                      if task.get_name().startswith("probe ") and not task.done()]
            assert sorted(task.get_name() for task in probes) == ["probe refused", "probe silent"]
        # Closing cancels every probe.
        await asyncio.sleep(0)
        assert all(task.done() for task in probes)


async def test_a_paused_watch_makes_no_connections_and_resumes_at_once() -> None:
    accepted = 0

    def count(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal accepted
        accepted += 1
        writer.close()

    changes: asyncio.Queue[tuple[str, bool]] = asyncio.Queue()
    server = await asyncio.start_server(count, LOOPBACK, 0)
    async with server, ReachabilityWatch(lambda *change: changes.put_nowait(change),
                                         interval=3600, timeout=SHORT) as watch:
        watch.pause()
        watch.watch("table", [LOOPBACK], server.sockets[0].getsockname()[1])
        assert not [task for task in asyncio.all_tasks() if task.get_name() == "probe table"]
        watch.resume()
        assert await asyncio.wait_for(changes.get(), 5) == ("table", True)
        while accepted < 1:  # the server's side of the probe's connection
            await asyncio.sleep(0.01)


async def test_a_failing_listener_does_not_stop_the_probes() -> None:
    calls: list[bool] = []

    def faulty(key: str, answering: bool) -> None:
        calls.append(answering)
        raise RuntimeError("listener bug")

    server = await asyncio.start_server(lambda reader, writer: writer.close(), LOOPBACK, 0)
    port = server.sockets[0].getsockname()[1]
    async with ReachabilityWatch(faulty, interval=0.05, timeout=SHORT) as watch:
        watch.watch("table", [LOOPBACK], port)
        while not calls:
            await asyncio.sleep(0.01)
        server.close()
        await server.wait_closed()
        while len(calls) < 2:
            await asyncio.sleep(0.01)
    assert calls == [True, False]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        ReachabilityWatch(lambda key, answering: None, interval=0)
    with pytest.raises(ValueError):
        ReachabilityWatch(lambda key, answering: None, max_concurrent=0)

"""Table talk through the SSH door: two players who joined over SSH chat as at a LAN table.

The door runs a real `ono99 join` per session on a pty; each test client reads the bytes
the app writes for its terminal (the app writes only the cells that change, so the words
are matched with any gaps between them).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from ssh_helpers import PASSWORD, HeadlessHost, Screen, connect_to_port

pytestmark = pytest.mark.ssh


@pytest.fixture
def two_seat_door(tmp_path: Path) -> Iterator[int]:
    """A headless 2-seat table (it deals once both seats are taken) with a door; its port."""
    host = HeadlessHost(
        "--seats", "2", "--seed", "3", "--no-advertise", "--ssh-port", "0",
        env={"ONO99_CONFIG_DIR": str(tmp_path / "host-config"), "ONO99_SSH_PASSWORD": PASSWORD},
    )
    try:
        yield host.wait_for_event("ssh-door")["port"]
    finally:
        host.stop()


async def test_two_players_chat_through_the_door(two_seat_door: int) -> None:
    async with connect_to_port(two_seat_door, "ana") as ana_conn, \
            connect_to_port(two_seat_door, "bob") as bob_conn:
        ana_process = await ana_conn.create_process(
            term_type="xterm-256color", term_size=(80, 24), encoding=None)
        ana = Screen(ana_process.stdout)
        await ana.wait_for(r"ana\s+\(you\)")
        bob_process = await bob_conn.create_process(
            term_type="xterm-256color", term_size=(80, 24), encoding=None)
        bob = Screen(bob_process.stdout)
        await bob.wait_for(r"Draw\s*pile", timeout=30)  # both seated: the table dealt
        await ana.wait_for(r"c\s*Chat", timeout=30)

        ana.consume()
        ana_process.stdin.write(b"c")
        await ana.wait_for(r"Say\s*to\s*the\s*table")
        bob.consume()
        ana_process.stdin.write(b"hello_door[b]x[/b]\r")
        await bob.wait_for(r"ana:\s*hello_door\[b\]x\[/b\]")

        ana.consume()
        bob_process.stdin.write(b"9")  # Good game!
        await ana.wait_for(r"bob:\s*Good\s*game!")

        for process in (ana_process, bob_process):
            process.stdin.write(b"\x11")  # Ctrl+Q
            process.close()

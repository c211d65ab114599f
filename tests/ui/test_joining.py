"""From an address or a found table to a connected client: passwords, resume tokens.

(Reading a typed address is tested in tests/netproto/test_addresses.py.)
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from lobby_helpers import running_table
from netproto.addresses import Address
from netproto.discovery import DiscoveredTable, TableInfo, TableState
from ono99tui.config import ResumeTokens
from ono99tui.ui.joining import JoinError, JoinRequest, connect


def _free_closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_resume_token_reclaims_the_same_seat(tmp_path: Path) -> None:
    tokens = ResumeTokens(tmp_path)
    async with running_table(capacity=3) as server:
        request = JoinRequest.for_address(Address("127.0.0.1", server.port), "ana")
        first = await connect(request, tokens)
        assert first.seat == 0 and first.token
        other = await connect(JoinRequest.for_address(Address("127.0.0.1", server.port), "bob"))
        assert other.seat == 1
        # The same player joining again (new terminal, SSH session died...) gets seat 0 back.
        again = await connect(request, tokens)
        assert again.seat == 0 and again.token == first.token
        assert len(server.table.seats) == 2
        for client in (again, other, first):
            await client.close()


async def test_stale_token_falls_back_to_a_new_seat(tmp_path: Path) -> None:
    tokens = ResumeTokens(tmp_path)
    async with running_table() as server:
        address = Address("127.0.0.1", server.port)
        tokens.put(f"127.0.0.1:{server.port}/", "not-a-token-of-this-table")
        client = await connect(JoinRequest.for_address(address, "ana"), tokens)
        assert client.seat == 0
        assert tokens.get(f"127.0.0.1:{server.port}/") == client.token
        await client.close()


async def test_spectating_keeps_no_token(tmp_path: Path) -> None:
    tokens = ResumeTokens(tmp_path)
    async with running_table() as server:
        request = JoinRequest.for_address(Address("127.0.0.1", server.port), "eve", spectate=True)
        client = await connect(request, tokens)
        assert client.role == "spectator" and client.seat is None
        assert not tokens.path.exists()
        await client.close()


async def test_password_refusal_is_typed() -> None:
    async with running_table(password="s3cret") as server:
        request = JoinRequest.for_address(Address("127.0.0.1", server.port), "ana")
        with pytest.raises(JoinError) as refused:
            await connect(request)
        assert refused.value.code == "bad-password"
        client = await connect(request.with_password("s3cret"))
        assert client.seat == 0
        await client.close()


async def test_each_advertised_address_is_tried_in_turn() -> None:
    async with running_table() as server:
        info = TableInfo(1, "kitchen", "ana", "2022", 0, 4, TableState.WAITING, False,
                         server.port, ("127.0.0.2", "127.0.0.1"))
        # 127.0.0.2 is loopback too, but the table listens on 127.0.0.1 only: refused first.
        client = await connect(JoinRequest.for_table(DiscoveredTable("k", info), "ana"))
        assert client.host == "127.0.0.1"
        await client.close()


async def test_unreachable_table_is_a_typed_error() -> None:
    request = JoinRequest.for_address(Address("127.0.0.1", _free_closed_port()), "ana")
    with pytest.raises(JoinError) as failed:
        await connect(request)
    assert failed.value.code == "unreachable" and "127.0.0.1" in failed.value.reason

"""From an address or a found table to a connected client: passwords, resume tokens.

(Reading a typed address is tested in tests/netproto/test_addresses.py.)
"""

from __future__ import annotations

import errno
import socket
from pathlib import Path

import pytest
from lobby_helpers import running_table

from netproto.addresses import Address
from netproto.lan.discovery import DiscoveredTable, TableInfo, TableState
from ono99tui.client.joining import JoinError, JoinRequest, connect
from ono99tui.user_settings import ResumeTokens


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


async def test_two_players_sharing_one_config_dir_keep_a_seat_each(tmp_path: Path) -> None:
    # Two terminals of one account (one config directory): bob's join must not take over
    # the seat ana's token holds (it did: tokens were kept per table only, and ana's app
    # was disconnected, "replaced").
    tokens = ResumeTokens(tmp_path)
    async with running_table(capacity=3) as server:
        address = Address("127.0.0.1", server.port)
        ana = await connect(JoinRequest.for_address(address, "ana"), tokens)
        bob = await connect(JoinRequest.for_address(address, "bob"), tokens)
        assert (ana.seat, bob.seat) == (0, 1) and ana.token != bob.token
        assert [seat.name for seat in server.table.seats] == ["ana", "bob"]
        assert all(seat.peer is not None for seat in server.table.seats)
        # Each name takes back its own seat.
        bob_again = await connect(JoinRequest.for_address(address, "bob"), tokens)
        assert bob_again.seat == 1 and bob_again.token == bob.token
        for client in (bob_again, bob, ana):
            await client.close()


async def test_stale_token_falls_back_to_a_new_seat(tmp_path: Path) -> None:
    tokens = ResumeTokens(tmp_path)
    async with running_table() as server:
        address = Address("127.0.0.1", server.port)
        tokens.put(f"127.0.0.1:{server.port}/ana", "not-a-token-of-this-table")
        client = await connect(JoinRequest.for_address(address, "ana"), tokens)
        assert client.seat == 0
        assert tokens.get(f"127.0.0.1:{server.port}/ana") == client.token
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


async def test_a_port_that_is_not_a_table_is_said_in_words() -> None:
    from foreign_servers import answers_like_http, serving, stays_silent

    async with serving(answers_like_http) as port:
        with pytest.raises(JoinError) as failed:
            await connect(JoinRequest.for_address(Address("127.0.0.1", port), "ana"))
    assert failed.value.reason == (
        f"127.0.0.1:{port} does not speak the ono99 protocol (a web server answered)")
    async with serving(stays_silent) as port:
        with pytest.raises(JoinError) as failed:
            await connect(JoinRequest.for_address(Address("127.0.0.1", port), "ana"))
    assert failed.value.reason == (
        f"127.0.0.1:{port} does not speak the ono99 protocol (no answer within 2 s)")


async def test_a_closed_port_says_nothing_is_listening_there() -> None:
    port = _free_closed_port()
    with pytest.raises(JoinError) as failed:
        await connect(JoinRequest.for_address(Address("127.0.0.1", port), "ana"))
    assert failed.value.reason == f"nothing is listening at 127.0.0.1:{port}"


async def test_an_address_that_is_not_a_table_is_skipped_for_the_next_one() -> None:
    from foreign_servers import answers_like_http, serving

    closed = _free_closed_port()
    async with serving(answers_like_http) as web_port, running_table() as server:
        addresses = (Address("127.0.0.1", web_port), Address("127.0.0.1", server.port))
        client = await connect(JoinRequest(addresses, "ana", label="kitchen"))
        assert client.port == server.port
        await client.close()
        with pytest.raises(JoinError) as failed:
            await connect(JoinRequest((addresses[0], Address("127.0.0.1", closed)), "ana"))
    assert failed.value.code == "unreachable"
    assert failed.value.reason == (
        f"could not reach the table: 127.0.0.1:{web_port} does not speak the ono99 protocol "
        f"(a web server answered); nothing is listening at 127.0.0.1:{closed}")


@pytest.mark.parametrize(
    ("cause", "words"),
    [
        (None, ("10.1.2.3:9099 did not answer (no answer within 5 s): is the host on, or a "
                "firewall in the way?")),
        (OSError(errno.EHOSTUNREACH, "No route to host"),
         "10.1.2.3:9099 cannot be reached (no route to that host)"),
        (OSError(errno.ENETUNREACH, "Network is unreachable"),
         "10.1.2.3:9099 is on a network this machine cannot reach"),
        (OSError(errno.ECONNRESET, "Connection reset by peer"),
         "10.1.2.3:9099 cannot be reached (connection reset by peer)"),
    ],
)
def test_os_errors_are_said_in_words(cause: OSError | None, words: str) -> None:
    from netproto.client_errors import Unreachable
    from ono99tui.client.connect_errors import connect_error_text

    reason = "no answer within 5 s" if cause is None else str(cause.strerror)
    error = Unreachable("unreachable", reason, "10.1.2.3", 9099, cause)
    assert connect_error_text(error) == words


def test_host_names_and_quoted_answers_in_words() -> None:
    from netproto.client_errors import Unreachable, WrongProtocol
    from ono99tui.client.connect_errors import connect_error_text

    unknown = socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    assert connect_error_text(Unreachable("unreachable", "", "tabel", 9099, unknown)) == (
        "no host is called 'tabel' (the name was not found)")
    smtp = WrongProtocol("...", "::1", 25, b"220 mail.example ESMTP Postfix\r\n")
    assert connect_error_text(smtp) == (
        "[::1]:25 does not speak the ono99 protocol (it answered '220 mail.example ESMTP Postfix')")
    binary = WrongProtocol("...", "127.0.0.1", 9, b"\x00\x01\xff\xfe")
    assert connect_error_text(binary) == (
        "127.0.0.1:9 does not speak the ono99 protocol (its first bytes are not ono99 messages)")

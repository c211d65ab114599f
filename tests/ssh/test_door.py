"""The SSH door's mechanics, with an asyncssh client and a probe program as the app."""

from __future__ import annotations

import asyncio
import os
import shutil
import stat
from pathlib import Path

import asyncssh
import pytest
from ssh_helpers import Screen, alive, connect, eventually

from ono99tui.ssh import DoorConfig, DoorConfigError, SSHDoor

pytestmark = pytest.mark.ssh


async def open_probe(conn: asyncssh.SSHClientConnection, **options: object) -> tuple[asyncssh.SSHClientProcess, Screen]:
    options.setdefault("term_type", "xterm-256color")
    options.setdefault("term_size", (100, 30))
    process = await conn.create_process(encoding=None, **options)
    screen = Screen(process.stdout)
    await screen.wait_for("READY")
    return process, screen


async def test_session_runs_the_app_on_a_terminal_like_the_clients(door_config, door_factory) -> None:
    async with door_factory(door_config) as door, connect(door, "ana") as conn:
        process, screen = await open_probe(conn, env={"LANG": "de_DE.UTF-8", "SECRET": "x"})
        text = screen.text
        assert "ARGV=ana" in text
        assert "TERM=xterm-256color LANG=de_DE.UTF-8" in text
        assert "CONTROLLING=True" in text
        assert "SIZE=100x30" in text
        config_dir = Path(screen.text.split("CONFIG_DIR=")[1].split()[0])
        assert config_dir.parent == door_config.players_dir and config_dir.name.startswith("ana-")

        screen.consume()
        process.stdin.write(b"hi")
        await screen.wait_for(r"GOT=b'hi'")
        process.change_terminal_size(132, 43)
        await screen.wait_for("SIZE=132x43")
        process.stdin.write(b"q")
        await process.wait_closed()
        assert process.exit_status == 3  # the app's own status reaches the client


async def test_a_client_that_sends_no_variables_gets_a_utf8_locale(door_config, door_factory) -> None:
    async with door_factory(door_config) as door, connect(door) as conn:
        _, screen = await open_probe(conn, term_type="vt100")
        assert "TERM=vt100 LANG=C.UTF-8" in screen.text


async def test_wrong_password_is_refused(door_config, door_factory) -> None:
    async with door_factory(door_config) as door:
        with pytest.raises(asyncssh.PermissionDenied):
            async with connect(door, password="wrong"):
                pass


def test_door_is_closed_unless_access_is_given(door_config: DoorConfig) -> None:
    from dataclasses import replace

    with pytest.raises(DoorConfigError, match="--ssh-open"):
        SSHDoor(replace(door_config, password=None))
    with pytest.raises(DoorConfigError):
        SSHDoor(replace(door_config, open_access=True))


async def test_open_door_needs_no_credentials(door_config, door_factory) -> None:
    async with (
        door_factory(door_config, password=None, open_access=True) as door,
        connect(door, "bo", password=None) as conn,
    ):
        _, screen = await open_probe(conn)
        assert "ARGV=bo" in screen.text


async def test_authorized_key_lets_in_and_other_keys_do_not(door_config, door_factory, tmp_path: Path) -> None:
    allowed = asyncssh.generate_private_key("ssh-ed25519")
    other = asyncssh.generate_private_key("ssh-ed25519")
    keys_file = tmp_path / "authorized_keys"
    keys_file.write_bytes(allowed.export_public_key())
    async with door_factory(door_config, password=None, authorized_keys=keys_file) as door:
        async with connect(door, "cy", password=None, client_keys=[allowed]) as conn:
            _, screen = await open_probe(conn)
            assert "ARGV=cy" in screen.text
        with pytest.raises(asyncssh.PermissionDenied):
            async with connect(door, "cy", password=None, client_keys=[other]):
                pass


async def test_exec_and_subsystems_are_refused(door_config, door_factory) -> None:
    async with door_factory(door_config) as door, connect(door) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_process("id", term_type="xterm")
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_process(subsystem="sftp")
        with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError)):
            await conn.start_sftp_client()
        # The connection is still good for what the door is for.
        _, screen = await open_probe(conn)
        assert "ARGV=ana" in screen.text


async def test_port_forwarding_is_refused(door_config, door_factory) -> None:
    async with door_factory(door_config) as door, connect(door) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_connection("127.0.0.1", door.port)
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", door.port)
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_unix_connection("/run/anything.sock")


async def test_a_shell_without_a_terminal_is_told_to_use_ssh_t(door_config, door_factory) -> None:
    async with door_factory(door_config) as door, connect(door) as conn:
        result = await conn.run(term_type=None, encoding=None)
        assert result.exit_status == 1
        assert b"ssh -t" in result.stdout


async def test_session_cap_holds(door_config, door_factory) -> None:
    async with (
        door_factory(door_config, max_sessions=2) as door,
        connect(door, "ana") as first,
        connect(door, "bo") as second,
    ):
        one, _ = await open_probe(first)
        await open_probe(second)
        with pytest.raises(asyncssh.ChannelOpenError, match="full"):
            await first.create_process(term_type="xterm", encoding=None)
        one.stdin.write(b"q")
        await one.wait_closed()
        # A freed place can be taken again.
        await eventually(lambda: len(door.sessions) < 2)
        _, screen = await open_probe(first)
        assert "ARGV=ana" in screen.text


async def test_a_name_connecting_again_replaces_its_old_session(door_config, door_factory) -> None:
    async with door_factory(door_config) as door, connect(door, "ana") as first, connect(door, "ana") as second:
        old, old_screen = await open_probe(first)
        old_pid = int(old_screen.text.split("PID=")[1].split()[0])
        _, new_screen = await open_probe(second)
        # The old app was stopped before the new one started: never two on one seat.
        assert not alive(old_pid)
        await old.wait_closed()
        assert old.exit_status == 1
        assert "ana connected again from elsewhere" in old_screen.text + (await old.stdout.read()).decode()
        assert "ARGV=ana" in new_screen.text
        assert len(door.sessions) == 1


async def test_idle_session_is_closed_and_terminal_restored(door_config, door_factory) -> None:
    async with door_factory(door_config, idle_timeout=0.5) as door, connect(door) as conn:
        process, screen = await open_probe(conn)
        pid = int(screen.text.split("PID=")[1].split()[0])
        await screen.wait_for("no input for")
        await process.wait_closed()
        assert process.exit_status == 1
        assert b"\x1b[?1049l" in screen.raw  # alternate screen left
        await eventually(lambda: not alive(pid))


async def test_dropping_the_connection_hangs_up_the_app(door_config, door_factory) -> None:
    async with door_factory(door_config) as door:
        conn = await connect(door)
        _, screen = await open_probe(conn)
        pid = int(screen.text.split("PID=")[1].split()[0])
        assert alive(pid)
        conn.abort()
        await eventually(lambda: not alive(pid))
        await eventually(lambda: not door.sessions)


async def test_closing_the_door_ends_sessions(door_config, door_factory) -> None:
    async with door_factory(door_config) as door:
        conn = await connect(door)
        process, screen = await open_probe(conn)
        pid = int(screen.text.split("PID=")[1].split()[0])
        await door.close()
        await process.wait_closed()
        assert "the table has closed" in screen.text + (await process.stdout.read()).decode(errors="replace")
        assert not alive(pid)
        conn.close()


async def test_host_key_is_made_once_kept_private_and_shown_to_clients(door_config, door_factory) -> None:
    async with door_factory(door_config) as door:
        first = door.fingerprint
        async with connect(door) as conn:
            assert conn.get_server_host_key().get_fingerprint("sha256") == first
    mode = stat.S_IMODE(os.stat(door_config.host_key_path).st_mode)
    assert mode == 0o600
    async with door_factory(door_config) as door:
        assert door.fingerprint == first
        assert door.ssh_command("table.local") == f"ssh -p {door.port} NAME@table.local"



def test_invite_line_names_port_player_and_host() -> None:
    from ono99tui.ssh import ssh_command_line

    assert ssh_command_line("192.168.1.20", 2222) == "ssh -p 2222 NAME@192.168.1.20"
    assert ssh_command_line("[fe80::1]", 2222, "ana") == "ssh -p 2222 ana@fe80::1"


async def test_connections_beyond_the_bound_are_closed(door_config, door_factory) -> None:
    from contextlib import AsyncExitStack

    # max_sessions=1 bounds connections logged in at 2 * 1 + 4 = 6: the 7th is refused at
    # its login (those not logged in have limits of their own: test_door_limits.py).
    async with door_factory(door_config, max_sessions=1) as door, AsyncExitStack() as stack:
        for _ in range(6):
            await stack.enter_async_context(connect(door))
        with pytest.raises((asyncssh.Error, OSError)):
            async with connect(door):
                pass


def test_the_join_command_keeps_odd_user_names_as_names() -> None:
    from ono99tui.cli import build_parser
    from ono99tui.host.door_settings import join_command

    argv = join_command("127.0.0.1:4099", "-rf --spectate")
    args = build_parser().parse_args(argv[3:])  # after: python -m ono99tui
    assert (args.command, args.address, args.lobby_name, args.spectate) == (
        "join", "127.0.0.1:4099", "-rf --spectate", False)


async def openssh_session(port: int, user: str, tmp_path: Path) -> tuple[int, str, str]:
    """A stock OpenSSH client's session at the door as *user*: waits for the probe's READY,
    presses q; returns (exit status, what the session showed, ssh's own messages)."""
    process = await asyncio.create_subprocess_exec(
        "ssh", "-tt", "-p", str(port), "-F", "/dev/null", "-o", "BatchMode=yes",
        "-o", "StrictHostKeyChecking=no", "-o", f"UserKnownHostsFile={tmp_path / 'known_hosts'}",
        f"{user}@127.0.0.1",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    shown = b""
    while b"READY" not in shown:
        chunk = await asyncio.wait_for(process.stdout.read(1024), 20)
        if not chunk:
            break  # refused: ssh says why on stderr
        shown += chunk
    if b"READY" in shown:
        process.stdin.write(b"q")
        await process.stdin.drain()
    rest, messages = await asyncio.wait_for(process.communicate(), 20)
    assert process.returncode is not None
    return process.returncode, (shown + rest).decode("utf-8", "replace"), messages.decode()


@pytest.mark.skipif(shutil.which("ssh") is None, reason="needs the OpenSSH client")
async def test_an_emoji_user_name_gets_in_with_openssh(door_config, door_factory, tmp_path: Path) -> None:
    # asyncssh's SASLprep refused it: "Received disconnect ...: Unassigned character" (issue 12).
    async with door_factory(door_config, password=None, open_access=True) as door:
        status, shown, messages = await openssh_session(door.port, "🎲Zoë", tmp_path)
        assert "Unassigned character" not in messages
        assert "ARGV=🎲Zoë" in shown
        assert status == 3  # the probe's own exit status on q
        status, shown, _ = await openssh_session(door.port, "ana", tmp_path)
        assert "ARGV=ana" in shown and status == 3


def test_user_names_saslprep_accepts_are_prepared_as_before() -> None:
    from ono99tui.ssh.user_names import accept_any_unicode_user_name, lenient_user_name

    assert accept_any_unicode_user_name() and accept_any_unicode_user_name()  # idempotent
    assert lenient_user_name("an\u00ada") == "ana"  # SASLprep maps a soft hyphen to nothing
    assert lenient_user_name("Zoe\u0308") == "Zoë"  # SASLprep's own normalization
    assert lenient_user_name("🎲Zoe\u0308") == "🎲Zoë"  # refused by SASLprep: NFC here


async def test_the_hosts_invitation_shows_the_doors_fingerprint(door_config, door_factory) -> None:
    # The hosting app never showed it (issue 12): a friend's ssh asks them to trust a key,
    # and the host's waiting room is where they can read which one is right.
    from ono99tui.host.hosting import HostedTable
    from ono99tui.host.server import TableServer
    from ono99tui.host.table_config import TableConfig
    from ono99tui.host.with_app import invitation_for
    from ono99tui.ssh.host_door import OpenSSHDoor

    server = TableServer(TableConfig())
    await server.start("127.0.0.1", 0)
    try:
        async with door_factory(door_config) as door:
            text = invitation_for(HostedTable(server=server, doors=(OpenSSHDoor(door),),
                                              interfaces=("192.168.1.20",)))
            assert text.splitlines() == [
                f"Others join with: ono99 join   (or ono99 join 192.168.1.20:{server.port})",
                f"Or with only ssh: ssh -p {door.port} NAME@192.168.1.20",
                f"  (host key {door.fingerprint})",
            ]
            assert door.fingerprint.startswith("SHA256:")
        assert "host key" not in invitation_for(HostedTable(server=server, doors=(),
                                                             interfaces=("192.168.1.20",)))
    finally:
        await server.stop()


async def test_output_after_the_client_sent_eof_is_dropped_quietly(
        door_config, door_factory, caplog: pytest.LogCaptureFixture) -> None:
    # A client that types q and closes its input (`echo q | ssh -tt …`): the door closes the
    # channel on EOF while the app still writes its last words; writing them raised
    # BrokenPipeError in an event-loop callback ("Exception in callback PtyChild._read_output").
    async with door_factory(door_config) as door, connect(door) as conn:
        process, _ = await open_probe(conn)
        process.stdin.write(b"q")
        process.stdin.write_eof()
        await asyncio.wait_for(process.wait_closed(), 20)
        await eventually(lambda: not door.sessions)  # the session has seen its channel go
    assert not [record for record in caplog.records if "BrokenPipeError" in record.getMessage()
                or (record.exc_info and record.exc_info[0] is BrokenPipeError)]

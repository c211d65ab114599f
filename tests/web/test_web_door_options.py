"""`ono99 host --web-*`: the door is closed by default, and its pieces' rules."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ono99tui.cli import build_parser
from ono99tui.commands.host import HostArgumentsError, host_options_from_args
from ono99tui.user_settings import CONFIG_DIR_ENV
from ono99tui.web import host_door, web_url
from ono99tui.web.access import (
    LOGINS_FILE,
    MAX_LOGINS_FILE_BYTES,
    LoginBook,
    password_matches,
    same_origin,
)
from ono99tui.web.config import MAX_COLUMNS, MAX_ROWS
from ono99tui.web.game_process import capped_size
from ono99tui.web.host_door import WebDoorOptions
from ono99tui.web.seats import SeatBook, SeatError
from ono99tui.web.session import close_reason, failure_reason


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))
    monkeypatch.delenv("ONO99_WEB_PASSWORD", raising=False)
    return tmp_path


def web_door_for(*arguments: str) -> WebDoorOptions:
    args = build_parser().parse_args(["host", "--no-advertise", *arguments])
    doors = host_options_from_args(args, headless=True).doors
    assert len(doors) == 1 and isinstance(doors[0], WebDoorOptions)
    return doors[0]


def test_without_password_or_open_the_host_refuses_to_start_with_status_2() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ono99tui", "host", "--headless", "--no-advertise",
         "--bind", "127.0.0.1", "--port", "0", "--web-port", "0"],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "the web door lets nobody in by default" in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_the_flags_become_the_door(monkeypatch: pytest.MonkeyPatch) -> None:
    door = web_door_for("--bind", "127.0.0.1", "--name", "Kitchen", "--web-port", "8099",
                        "--web-password", "pw", "--web-max-sessions", "3",
                        "--web-idle-timeout", "60")
    assert (door.port, door.bind_host, door.password, door.max_sessions, door.idle_timeout,
            door.table_name) == (8099, "127.0.0.1", "pw", 3, 60.0, "Kitchen")
    assert door.title == "the web door on port 8099"
    monkeypatch.setenv("ONO99_WEB_PASSWORD", "from env")
    assert web_door_for("--web-port", "0").password == "from env"
    with pytest.raises(HostArgumentsError, match="cannot be combined"):  # env password + open
        web_door_for("--web-port", "0", "--web-open")
    monkeypatch.delenv("ONO99_WEB_PASSWORD")
    assert web_door_for("--web-port", "0", "--web-open").open_access


@pytest.mark.parametrize(("arguments", "message"), [
    (("--web-port", "0", "--web-open", "--web-password", "pw"), "cannot be combined"),
    (("--web-port", "0", "--web-open", "--web-max-sessions", "0"), "at least 1"),
    (("--web-port", "70000", "--web-open"), "not a port"),
])
def test_impossible_doors_are_refused_before_anything_opens(arguments: tuple[str, ...], message: str) -> None:
    args = build_parser().parse_args(["host", "--no-advertise", *arguments])
    with pytest.raises(HostArgumentsError, match=message) as refused:
        host_options_from_args(args, headless=True)
    assert refused.value.status == 2


def test_a_missing_web_extra_is_a_clear_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    real = host_door.importlib.util.find_spec
    monkeypatch.setattr(host_door.importlib.util, "find_spec",
                        lambda name: None if name == "textual_serve" else real(name))
    assert WebDoorOptions(open_access=True).problem() == host_door.MISSING_EXTRA
    assert "pip install 'ono99[web]'" in host_door.MISSING_EXTRA


def test_a_host_without_web_port_never_imports_the_door() -> None:
    code = ("import sys; from ono99tui.cli import build_parser; "
            "from ono99tui.commands.host import host_options_from_args; "
            "args = build_parser().parse_args(['host', '--no-advertise']); "
            "host_options_from_args(args, headless=True); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('aiohttp', 'textual_serve', 'jinja2') or m.startswith('ono99tui.web')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize(("origin", "host", "same"), [
    ("http://192.168.1.5:8099", "192.168.1.5:8099", True),
    ("http://Kitchen.local:8099", "kitchen.local:8099", True),
    ("http://example.org", "example.org:80", True),
    ("http://192.168.1.5:8098", "192.168.1.5:8099", False),
    ("https://192.168.1.5:8099", "192.168.1.5:8099", False),
    ("http://evil.example", "192.168.1.5:8099", False),
    ("null", "192.168.1.5:8099", False),
    (None, "192.168.1.5:8099", False),
    ("http://192.168.1.5:8099", None, False),
    ("http://[::1]:8099", "[::1]:8099", True),
    ("http://x:99999", "x:99999", False),
])
def test_the_origin_must_be_the_door_as_the_browser_reached_it(origin: str | None, host: str | None, same: bool) -> None:
    assert same_origin(origin, host) is same


def test_logins_and_passwords() -> None:
    book = LoginBook(limit=2)
    first, second, third = book.issue(), book.issue(), book.issue()
    assert not book.valid(first) and book.valid(second) and book.valid(third)
    assert not book.valid(None) and not book.valid("guess")
    assert password_matches("pw", "pw") and not password_matches("PW", "pw")
    assert not password_matches(None, "pw") and not password_matches("", "")


def test_logins_are_kept_for_the_same_password(tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / LOGINS_FILE
    # A space and a "!" are in no base64 token or hash, so the password cannot
    # turn up in the file by chance (a two-letter one did, once in a few hundred).
    secret = "door pass!"
    book = LoginBook(limit=2, path=path, password=secret)
    first, second, third = book.issue(), book.issue(), book.issue()
    assert oct(path.stat().st_mode & 0o777) == "0o600"  # tokens let a browser in
    again = LoginBook(limit=2, path=path, password=secret)  # the host started again
    assert not again.valid(first) and again.valid(second) and again.valid(third)
    assert secret not in path.read_text()  # a salted hash of it, not the password
    # Another password: nobody is let in by a login given for the old one.
    other = LoginBook(limit=2, path=path, password="new")
    assert not other.valid(second) and not other.valid(third)
    caplog.clear()
    # Damaged or foreign files: an empty book, said once in the log, and logins work on.
    for junk in (b"{not json", b"[]", b'{"salt": 3, "tokens": []}',
                 b'{"salt": "s", "tokens": ["' + b"x" * 100 + b'"]}', b"\xff\xfe",
                 b" " * (MAX_LOGINS_FILE_BYTES + 10) + b"{}"):
        path.write_bytes(junk)
        damaged = LoginBook(path=path, password=secret)
        assert not damaged.valid(second)
        assert damaged.valid(damaged.issue())
    assert sum("logins" in record.getMessage() for record in caplog.records) == 6
    # A folder that cannot be written: the logins hold in memory, with a line in the log.
    caplog.clear()
    unwritable = LoginBook(path=tmp_path / "gone" / LOGINS_FILE, password=secret)
    assert unwritable.valid(unwritable.issue())
    assert "could not be kept" in caplog.text


def test_sizes_are_capped_and_junk_is_80_by_24() -> None:
    assert capped_size(3000, 1500) == (MAX_COLUMNS, MAX_ROWS)
    assert capped_size("100", "30") == (100, 30)
    assert capped_size(0, -3) == (1, 1)
    assert capped_size("wide", None) == (80, 24)
    assert capped_size(float("inf"), 10**100) == (80, MAX_ROWS)


def test_seats_live_in_folders_named_by_hash(tmp_path: Path) -> None:
    book = SeatBook(tmp_path / "players", max_folders=2)
    ana = book.create("ana")
    assert ana.seat_id not in str(ana.config_dir) and ana.config_dir.is_dir()
    assert book.get(ana.seat_id) == ana
    assert SeatBook(tmp_path / "players").get(ana.seat_id) == ana  # a restarted door
    assert book.get("../../etc") is None and book.get(None) is None
    with pytest.raises(SeatError):
        book.create("\x00\x01")
    book.create("bea")
    book.create("cy")
    assert len(list((tmp_path / "players").iterdir())) == 2


def test_close_reasons_fit_a_close_frame() -> None:
    assert close_reason("a\nb") == b"a b"
    assert len(close_reason("é" * 200)) <= 123
    assert failure_reason(b"Traceback\n  ...\nImportError: no textual\n\n", 1) == "ImportError: no textual"
    assert failure_reason(b"", 3) == "it exited with status 3"


def test_web_url_brackets_ipv6() -> None:
    assert web_url("192.168.1.5", 8099) == "http://192.168.1.5:8099/"
    assert web_url("fe80::1", 8099) == "http://[fe80::1]:8099/"


def test_the_door_never_brings_textual_into_a_headless_host() -> None:
    # The door's sessions run the app as child processes; the host itself stays UI-free.
    code = ("import sys\n"
            "import ono99tui.host.headless, ono99tui.web.server, ono99tui.web.host_door\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_lobby_shows_the_web_address_of_a_table_with_a_door() -> None:
    from netproto.lan.discovery import DiscoveredTable, TableInfo, TableState
    from ono99tui.ui.screens.lobby import describe_table

    info = TableInfo(protocol_version=3, name="Kitchen", host_player="Ann", rules="2022",
                     seats_taken=1, seats_total=4, state=TableState.WAITING,
                     password_required=False, port=9099, addresses=("192.168.1.20",),
                     web_port=8099)
    line = describe_table(DiscoveredTable("Kitchen._ono99._tcp.local.", info))
    assert line.endswith("|  http://192.168.1.20:8099/")

"""`--player NAME` on `ono99 host`, `solo`, `join` and `bot`: checked like a name typed in the
lobby before anything starts (a bad one is one line and exit status 2), and remembered like
one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ono99tui.cli import build_parser, main
from ono99tui.commands.player_option import (
    checked_player_name,
    host_player_name,
    remember_player_name,
    remembered_player_name,
)
from ono99tui.commands.solo import player_name
from ono99tui.user_settings import (
    CONFIG_DIR_ENV,
    SETTINGS_FILE,
    Settings,
    load_settings,
    save_settings,
)

BAD_NAMES = [
    ("", "at least one printable character"),
    ("\x1b[31m\x07", "at least one printable character"),
    ("x" * 25, "at most 24 characters"),
]


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))
    return tmp_path


def ono99_command(*args: str, config: Path) -> subprocess.CompletedProcess[str]:
    """`ono99 ARGS` in a process of its own, with no terminal (an app would fail to start)."""
    return subprocess.run(
        [sys.executable, "-m", "ono99tui", *args],
        check=False, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        env={"PATH": "/usr/bin:/bin", CONFIG_DIR_ENV: str(config), "LANG": "C.UTF-8",
             "ONO99_MDNS_INTERFACES": "127.0.0.1"},
    )


# Each command that takes the player's name, with what it needs besides (the address is
# one nothing listens on: a bad name must stop the command before it connects anywhere).
NAMED_COMMANDS = {
    "host": ("host", "--port", "0", "--no-advertise"),
    "solo": ("solo",),
    "join": ("join", "127.0.0.1:9"),
    "bot": ("bot", "127.0.0.1:9"),
}


@pytest.mark.parametrize("command", sorted(NAMED_COMMANDS))
def test_a_long_name_is_refused_in_one_line_before_anything_starts(
    command: str, tmp_path: Path
) -> None:
    # `ono99 join HOST:PORT --player <25 characters>` used to open a lobby whose list
    # stayed empty, its status line saying the name was too long.
    result = ono99_command(*NAMED_COMMANDS[command], "--player", "x" * 25, config=tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"ono99 {command}: --player{'' if command == 'host' else '/--name'}: "
        "a name may have at most 24 characters"]
    assert result.stdout == "" and not (tmp_path / SETTINGS_FILE).exists()


def test_host_refuses_a_bad_player_name_before_opening_anything(tmp_path: Path) -> None:
    result = ono99_command("host", "--port", "0", "--no-advertise", "--player", "\t \u200b",
                           config=tmp_path)
    assert result.returncode == 2
    assert result.stderr == ("ono99 host: --player: a name needs at least one printable "
                             "character\n")
    assert not (tmp_path / SETTINGS_FILE).exists()


@pytest.mark.parametrize("command", ["host", "solo", "join", "bot"])
@pytest.mark.parametrize(("name", "reason"), BAD_NAMES)
def test_bad_player_names_are_usage_errors_with_the_lobby_s_reason(
    command: str, name: str, reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*NAMED_COMMANDS[command], "--player", name]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ono99 {command}: --player") and reason in err
    assert len(err.splitlines()) == 1


def test_player_names_are_cleaned_as_the_table_would() -> None:
    assert checked_player_name("  ana \t b  ") == "ana b"
    assert checked_player_name(None) is None
    parser = build_parser()
    assert parser.parse_args(["host", "--name", "Kitchen"]).name == "Kitchen"  # the TABLE
    assert parser.parse_args(["host"]).player is None
    assert parser.parse_args(["solo", "--player", "ana"]).player == "ana"
    assert parser.parse_args(["solo", "--name", "ana"]).player == "ana"  # older spelling
    assert parser.parse_args(["join", "--name", "ana"]).name == "ana"
    assert parser.parse_args(["bot", "x:1", "--player", "ana"]).name == "ana"
    # The doors' own spelling is not checked here: the lobby says what is wrong with an
    # SSH user name, where it can be corrected.
    assert parser.parse_args(["join", "--lobby-name", "x" * 30]).lobby_name == "x" * 30


def test_a_headless_host_has_no_player(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["host", "--headless", "--player", "ana", "--no-advertise"]) == 2
    assert "--headless table has none" in capsys.readouterr().err


def test_the_host_s_name_comes_from_player_then_memory_then_login(
    config_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import getpass

    monkeypatch.setattr(getpass, "getuser", lambda: "login")
    assert host_player_name(None) == "login"
    save_settings(Settings(player_name="remembered"), config_dir)
    assert host_player_name(None) == "remembered"
    assert host_player_name("ana") == "ana"
    # A name the table would refuse is never used: not from a hand-edited file...
    save_settings(Settings(player_name="\x1b[2J"), config_dir)
    assert host_player_name(None) == "login"
    # ...nor from an unusable login name.
    monkeypatch.setattr(getpass, "getuser", lambda: "a-very-long-login-name-indeed")
    assert host_player_name(None) == "host"


def test_a_name_given_is_remembered_like_a_typed_one(config_dir: Path) -> None:
    assert remembered_player_name() == ""
    assert player_name(None) == "you"
    assert remember_player_name("ana") is None
    assert load_settings(config_dir) == Settings(player_name="ana")
    assert player_name(None) == "ana" and player_name("bob") == "bob"
    save_settings(Settings(player_name="ana", last_address="10.0.0.2:9100"), config_dir)
    assert remember_player_name("bob") is None
    assert load_settings(config_dir) == Settings(player_name="bob", last_address="10.0.0.2:9100")


def test_a_damaged_settings_file_is_replaced_as_the_lobby_does(config_dir: Path) -> None:
    (config_dir / SETTINGS_FILE).write_text("{not json")
    assert remembered_player_name() == ""
    assert remember_player_name("ana") is None
    assert load_settings(config_dir).player_name == "ana"


def test_a_name_that_cannot_be_written_is_reported_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv(CONFIG_DIR_ENV, str(blocker / "config"))  # under a file: unwritable
    problem = remember_player_name("ana")
    assert problem is not None and "cannot write" in problem


def test_solo_s_default_name_is_you_in_the_language_in_use(config_dir: Path) -> None:
    # Found in `ono99 solo --lang bn`: the seat, the log and the line mode said "you" in
    # English ("রাউন্ড 1: you বেঁটেছে") among Bengali words.
    from ono99tui import i18n
    from ono99tui.client.names import is_named_you

    try:
        assert i18n.use_language("bn")
        name = player_name(None)
        assert name == i18n._("you") and name != "you"
        assert is_named_you(name) and is_named_you("you") and not is_named_you("ana")
        assert player_name("ana") == "ana"
    finally:
        i18n.use_language(None)

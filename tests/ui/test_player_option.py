"""`--player NAME` on `ono99 host`, `solo` and `join`: checked like a name typed in the lobby
(a bad one is a usage error, exit status 2), and remembered like one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ono99tui.cli import build_parser, main
from ono99tui.commands.host_with_app import host_player_name
from ono99tui.commands.player_option import remember_player_name, remembered_player_name
from ono99tui.commands.solo import player_name
from ono99tui.config import (
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


def test_host_refuses_a_bad_player_name_before_opening_anything(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ono99tui", "host", "--port", "0", "--no-advertise",
         "--player", "\t \u200b"],
        check=False, capture_output=True, text=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", CONFIG_DIR_ENV: str(tmp_path), "LANG": "C.UTF-8"},
    )
    assert result.returncode == 2
    assert "argument --player: a name needs at least one printable character" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / SETTINGS_FILE).exists()


@pytest.mark.parametrize("command", ["host", "solo"])
@pytest.mark.parametrize(("name", "reason"), BAD_NAMES)
def test_bad_player_names_are_usage_errors_with_the_lobby_s_reason(
    command: str, name: str, reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([command, "--player", name])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"ono99 {command}: error: argument --player" in err and reason in err


def test_player_names_are_cleaned_as_the_table_would() -> None:
    parser = build_parser()
    assert parser.parse_args(["host", "--player", "  ana \t b  "]).player == "ana b"
    assert parser.parse_args(["host", "--name", "Kitchen"]).name == "Kitchen"  # the TABLE
    assert parser.parse_args(["host"]).player is None
    assert parser.parse_args(["solo", "--player", "ana"]).player == "ana"
    assert parser.parse_args(["solo", "--name", "ana"]).player == "ana"  # older spelling
    # join keeps the name as typed: the lobby checks it where it can be corrected.
    assert parser.parse_args(["join", "--player", "  ana"]).name == "  ana"
    assert parser.parse_args(["join", "--name", "ana"]).name == "ana"


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

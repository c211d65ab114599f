"""`ono99 host`'s arguments become one frozen `HostOptions`; impossible ones are refused
with a clear message and an exit status before anything opens."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from ono99tui.cli import build_parser, main
from ono99tui.commands.host import HostArgumentsError, host_options_from_args
from ono99tui.game import preset
from ono99tui.host.options import HostOptions, HostOptionsError
from ono99tui.host.table_config import HEADLESS_DEAL_SETTLE, TableConfig, TableConfigError
from ono99tui.ssh.host_door import SSHDoorOptions
from ono99tui.user_settings import CONFIG_DIR_ENV


def options_for(*arguments: str, headless: bool = True) -> HostOptions:
    args = build_parser().parse_args(["host", *arguments])
    return host_options_from_args(args, headless=headless)


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))
    monkeypatch.delenv("ONO99_SSH_PASSWORD", raising=False)
    return tmp_path


def test_the_arguments_become_one_frozen_host_options() -> None:
    options = options_for(
        "--bind", "127.0.0.1", "--port", "0", "--name", "Kitchen", "--rules", "1980",
        "--seats", "5", "--bots", "2", "--bot", "random", "--grace", "5", "--exit-after", "3",
        "--seed", "9", "--mdns-interface", "127.0.0.1")
    assert (options.bind, options.port, options.bots, options.exit_after) == ("127.0.0.1", 0, 2, 3)
    assert options.advertise_on == ("127.0.0.1",) and options.doors == ()
    table = options.table
    assert (table.name, table.rules, table.capacity, table.takeover_bot) == (
        "Kitchen", preset("1980"), 5, "random")
    assert (table.grace_seconds, table.seed, table.start_when) == (5.0, 9, 5)  # headless: all
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.port = 1  # type: ignore[misc]


def test_without_headless_the_host_starts_the_match() -> None:
    assert options_for("--no-advertise", headless=False).table.start_when is None


def test_advertising_follows_no_advertise_and_the_environment() -> None:
    assert options_for("--no-advertise").advertise_on == ()
    assert options_for().advertise_on == ("127.0.0.1",)  # ONO99_MDNS_INTERFACES, as the suite sets


def test_the_ssh_flags_become_one_door(config_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    options = options_for("--bind", "127.0.0.1", "--ssh-port", "2222", "--ssh-open",
                          "--ssh-max-sessions", "3", "--ssh-idle-timeout", "60")
    assert options.doors == (SSHDoorOptions(
        port=2222, bind_host="127.0.0.1", open_access=True, max_sessions=3, idle_timeout=60.0,
        host_key_path=config_dir / "ssh_host_key", players_dir=config_dir / "ssh-players"),)
    assert options.doors[0].title == "the SSH door on port 2222"
    monkeypatch.setenv("ONO99_SSH_PASSWORD", "from the environment")
    (door,) = options_for("--ssh-port", "0").doors
    assert isinstance(door, SSHDoorOptions) and door.password == "from the environment"
    door_config = door.door_config(9099)
    assert (door_config.table_address, door_config.port) == ("127.0.0.1:9099", 0)


@pytest.mark.parametrize(
    ("arguments", "message", "status"),
    [
        (["--bots", "5"], "--bots must be 0 to the number of seats (4), not 5", 2),
        (["--seats", "9"], "--seats must be 2 to 8, not 9", 2),
        (["--start-when", "1"], "--start-when must be 2 to the number of seats (4), not 1", 2),
        (["--name", " "], "--name: a table needs a name", 2),
        (["--port", "70000"], "--port must be 0 to 65535, not 70000", 2),
        (["--player", "ana"], "--player names the host's own seat; a --headless table has none", 2),
        (["--ssh-port", "0"], "the SSH door lets nobody in by default: give --ssh-password, "
                              "--ssh-authorized-keys FILE, or --ssh-open", 2),
        (["--ssh-port", "0", "--ssh-open", "--ssh-password", "pw"],
         "--ssh-open cannot be combined with a password or keys", 2),
        (["--ssh-port", "70000", "--ssh-open"], "not a port number: 70000", 2),
        (["--mdns-interface", "no-such-interface0"], "no interface named 'no-such-interface0'", 1),
    ],
)
def test_impossible_arguments_are_refused_before_anything_opens(
    arguments: list[str], message: str, status: int, config_dir: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(HostArgumentsError) as refused:
        options_for(*arguments)
    assert str(refused.value).startswith(message) and refused.value.status == status
    # The command prints it after its name and exits with that status.
    assert main(["host", "--headless", *arguments]) == status
    out, err = capsys.readouterr()
    assert err.startswith(f"ono99 host: {message}") and "Traceback" not in err and out == ""
    assert not (config_dir / "ssh_host_key").exists()


def test_host_options_check_themselves() -> None:
    with pytest.raises(HostOptionsError):
        HostOptions(table=TableConfig(capacity=2), bots=3)
    with pytest.raises(HostOptionsError):
        HostOptions(port=-1)


def test_the_turn_clock_is_on_at_headless_tables_and_off_with_the_app() -> None:
    assert options_for().table.turn_seconds == 60.0
    assert options_for("--no-advertise", headless=False).table.turn_seconds is None
    assert options_for("--turn-time", "1").table.turn_seconds == 1.0
    assert options_for("--turn-time", "off").table.turn_seconds is None
    assert options_for("--turn-time", "45", "--no-advertise",
                       headless=False).table.turn_seconds == 45.0
    assert options_for().table.timeouts_to_abandon == 3
    assert options_for("--idle-limit", "5").table.timeouts_to_abandon == 5


@pytest.mark.parametrize(("arguments", "message"), [
    (["--turn-time", "0.5"], "must be at least 1 second"),
    (["--turn-time", "soon"], "not a number of seconds: 'soon'"),
    (["--turn-time", "nan"], "must be at least 1 second"),
    (["--idle-limit", "0"], "must be at least 1"),
])
def test_a_turn_time_under_a_second_or_no_idle_limit_is_refused(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["host", "--headless", *arguments])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_admin_password_is_for_headless_tables_only() -> None:
    assert options_for("--admin-password", "pw").table.admin_password == "pw"
    assert options_for().table.admin_password is None
    with pytest.raises(HostArgumentsError) as refused:
        options_for("--admin-password", "pw", "--no-advertise", headless=False)
    assert "--headless" in str(refused.value) and refused.value.status == 2
    with pytest.raises(HostArgumentsError):
        options_for("--admin-password", "")


def test_a_headless_table_deals_by_itself_only_after_its_settle_time() -> None:
    assert options_for().table.deal_settle_seconds == HEADLESS_DEAL_SETTLE > 0
    assert options_for("--no-advertise", headless=False).table.deal_settle_seconds == 0


def test_the_admin_password_may_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ONO99_ADMIN_PASSWORD", "from-env")
    assert options_for().table.admin_password == "from-env"
    assert options_for("--admin-password", "flag").table.admin_password == "flag"
    # The app's own table has its own host: the variable is not for it (nor refused).
    assert options_for("--no-advertise", headless=False).table.admin_password is None


def test_hints_are_off_unless_asked_for_and_the_level_names_the_bots() -> None:
    assert options_for("--no-advertise").table.hints is False
    table = options_for("--no-advertise", "--hints", "--level", "easy", headless=False).table
    assert table.hints is True and table.takeover_bot == "easy"
    from ono99tui.commands.solo import solo_config

    assert solo_config(bots=1, rules="2022", seed=None, bot_delay=0.0).hints is True


def test_an_unknown_stand_in_level_is_refused() -> None:
    with pytest.raises(TableConfigError, match="bot level must be one of"):
        TableConfig(takeover_bot="grandmaster")
    assert TableConfig(takeover_bot="greedy").public_options()["bot_level"] == "normal"


def test_impossible_arguments_are_refused_in_the_language_in_use(
    config_dir: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    # Found with `ono99 host --lang bn --seats 1`: "seats must be 2 to 8", in English.
    from ono99tui import i18n

    try:
        for arguments in (["--seats", "9"], ["--bots", "5"], ["--start-when", "1"],
                          ["--port", "70000"], ["--name", " "], ["--rules", "nope"],
                          ["--web-port", "0"], ["--ssh-port", "0"],
                          ["--ssh-port", "0", "--ssh-open", "--ssh-password", "pw"]):
            assert main(["--lang", "bn", "host", "--headless", *arguments]) == 2
            _, err = capsys.readouterr()
            said = err.removeprefix("ono99 host: ")
            assert not {"must", "needs", "unknown", "nobody", "cannot"} & set(said.split()), said
            assert "Traceback" not in err
    finally:
        i18n.use_language(None)

"""The settings both doors share: declared once, refused with the same words, one game command."""

from __future__ import annotations

import argparse
from dataclasses import fields

import pytest

from ono99tui.commands.door_options import (
    add_door_arguments,
    ssh_door_from_args,
    web_door_from_args,
)
from ono99tui.host.door_settings import DoorSettings, join_command
from ono99tui.ssh.door import DoorConfig
from ono99tui.ssh.host_door import SSHDoorOptions
from ono99tui.web.config import WebDoorConfig
from ono99tui.web.host_door import WebDoorOptions


def _parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bind", default=None)
    parser.add_argument("--name", default="Den")
    add_door_arguments(parser)
    return parser.parse_args(list(argv))


def test_all_four_door_types_are_door_settings() -> None:
    shared = {field.name for field in fields(DoorSettings)}
    assert shared == {"port", "bind_host", "password", "open_access", "max_sessions",
                      "idle_timeout"}
    for kind in (SSHDoorOptions, WebDoorOptions, DoorConfig, WebDoorConfig):
        assert issubclass(kind, DoorSettings)


def test_the_same_flags_give_both_doors_the_same_settings() -> None:
    args = _parse("--bind", "127.0.0.1", "--ssh-port", "2222", "--ssh-password", "pw",
                  "--ssh-max-sessions", "3", "--ssh-idle-timeout", "60",
                  "--web-port", "2222", "--web-password", "pw", "--web-max-sessions", "3",
                  "--web-idle-timeout", "60")
    ssh, web = ssh_door_from_args(args), web_door_from_args(args)
    assert ssh is not None and web is not None
    assert ssh.door_settings() == web.door_settings() == {
        "port": 2222, "bind_host": "127.0.0.1", "password": "pw", "open_access": False,
        "max_sessions": 3, "idle_timeout": 60.0}


def test_the_options_carry_their_settings_into_the_config() -> None:
    options = WebDoorOptions(port=8099, bind_host="127.0.0.1", open_access=True, max_sessions=2)
    config = options.door_config(9099)
    assert config.door_settings() == options.door_settings()
    assert config.table_address == "127.0.0.1:9099"


@pytest.mark.parametrize(("settings", "reason"), [
    (DoorSettings(), "lets nobody in by default"),
    (DoorSettings(open_access=True, password="pw"), "-open cannot be combined"),
    (DoorSettings(open_access=True, max_sessions=0), "session cap must be at least 1"),
    (DoorSettings(open_access=True, idle_timeout=-1), "idle timeout must not be negative"),
    (DoorSettings(open_access=True, port=70000), "not a port number: 70000"),
])
def test_both_doors_refuse_the_same_mistakes(settings: DoorSettings, reason: str) -> None:
    ssh = settings.settings_problem("SSH", "--ssh", other_way_in="--ssh-authorized-keys FILE")
    web = settings.settings_problem("web", "--web")
    assert ssh is not None and reason in ssh
    assert web is not None and reason in web


def test_good_settings_have_no_problem() -> None:
    assert DoorSettings(password="pw").settings_problem("web", "--web") is None


def test_one_game_command_for_both_doors() -> None:
    argv = join_command("127.0.0.1:4099", "-rf --spectate")
    assert argv[-2:] == ["127.0.0.1:4099", "--lobby-name=-rf --spectate"]

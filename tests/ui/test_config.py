"""The config directory: settings, resume tokens per table, SSH host key path."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from ono99tui import user_settings as config


def test_config_dir_follows_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(config.CONFIG_DIR_ENV, str(tmp_path / "cfg"))
    assert config.config_dir() == tmp_path / "cfg"
    assert config.ssh_host_key_path() == tmp_path / "cfg" / "ssh_host_key"


def test_settings_round_trip_and_defaults(tmp_path: Path) -> None:
    assert config.load_settings(tmp_path) == config.Settings()
    config.save_settings(config.Settings(player_name="ana", last_address="10.0.0.2:4099"), tmp_path)
    assert config.load_settings(tmp_path) == config.Settings("ana", "10.0.0.2:4099")


def test_damaged_settings_give_typed_error(tmp_path: Path) -> None:
    (tmp_path / config.SETTINGS_FILE).write_text("{not json")
    with pytest.raises(config.ConfigError, match="not valid JSON"):
        config.load_settings(tmp_path)
    (tmp_path / config.SETTINGS_FILE).write_text("[1, 2]")
    with pytest.raises(config.ConfigError, match="JSON object"):
        config.load_settings(tmp_path)


def test_settings_ignore_unknown_and_mistyped_fields(tmp_path: Path) -> None:
    (tmp_path / config.SETTINGS_FILE).write_text('{"player_name": 3, "colour": "red", "last_address": "h"}')
    assert config.load_settings(tmp_path) == config.Settings(player_name="", last_address="h")


def test_resume_tokens_per_table_private_and_bounded(tmp_path: Path) -> None:
    tokens = config.ResumeTokens(tmp_path)
    first = config.table_key("Host.LAN", 4099, "kitchen")
    second = config.table_key("host.lan", 4100, "kitchen")
    assert first != second and first == config.table_key("host.lan", 4099, "kitchen")
    tokens.put(first, "a" * 32)
    tokens.put(second, "b" * 32)
    assert config.ResumeTokens(tmp_path).get(first) == "a" * 32
    assert stat.S_IMODE(tokens.path.stat().st_mode) == 0o600
    tokens.forget(first)
    assert tokens.get(first) is None and tokens.get(second) == "b" * 32
    for index in range(config.MAX_RESUME_TOKENS + 5):
        tokens.put(config.table_key("h", index), str(index))
    assert tokens.get(second) is None  # oldest dropped first
    assert tokens.get(config.table_key("h", config.MAX_RESUME_TOKENS + 4)) is not None


def test_damaged_token_file_means_no_tokens(tmp_path: Path) -> None:
    (tmp_path / config.RESUME_TOKENS_FILE).write_text("garbage")
    tokens = config.ResumeTokens(tmp_path)
    assert tokens.get("x") is None
    tokens.put("x", "t")
    assert tokens.get("x") == "t"


def test_the_turn_alert_switch_is_remembered_and_only_as_true_or_false(tmp_path: Path) -> None:
    assert config.Settings().turn_alert is True
    config.save_settings(config.Settings(player_name="ana", turn_alert=False), tmp_path)
    assert config.load_settings(tmp_path) == config.Settings(player_name="ana", turn_alert=False)
    (tmp_path / config.SETTINGS_FILE).write_text('{"turn_alert": "no", "player_name": true}')
    assert config.load_settings(tmp_path) == config.Settings()

"""What ono99 remembers between runs, kept in the user's config directory.

Three things live there, each in its own file so that one damaged file never costs the
others: the player's settings (name, last address typed), the resume tokens that let a
player reclaim their seat at a table after a drop (one per table), and the SSH door's host
key. Files are written atomically (temporary file + rename) and the secret ones are
readable by the owner only.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import platformdirs

from ono99tui.i18n import _

APP_NAME = "ono99"
# Tests and SSH-door sessions point this at their own directory.
CONFIG_DIR_ENV = "ONO99_CONFIG_DIR"

SETTINGS_FILE = "settings.json"
RESUME_TOKENS_FILE = "resume-tokens.json"
SSH_HOST_KEY_FILE = "ssh_host_key"

# A resume token is useless after its table is gone; keep only the most recent ones.
MAX_RESUME_TOKENS = 64


class ConfigError(Exception):
    """A file in the config directory cannot be read or written; the message says which and why."""


def config_dir() -> Path:
    """The directory ono99 keeps its files in (not created here)."""
    override = os.environ.get(CONFIG_DIR_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir(APP_NAME))


def _write_atomically(path: Path, text: str, *, private: bool) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        if private:
            os.fchmod(descriptor, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _read_json_object(path: Path) -> dict[str, object]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise ConfigError(_("cannot read {path}: {problem}").format(
            path=path, problem=error.strerror)) from error
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ConfigError(_("{path} is not valid JSON ({problem}, line {line})").format(
            path=path, problem=error.msg, line=error.lineno)) from error
    if not isinstance(data, dict):
        raise ConfigError(_("{path} should hold a JSON object").format(path=path))
    return data


@dataclass(frozen=True)
class Settings:
    """The player's preferences remembered between runs."""

    player_name: str = ""
    last_address: str = ""
    # The bell and terminal title when it is the player's turn (ono99tui/ui/turn_alert.py).
    turn_alert: bool = True
    # The language chosen in the palette ("" = none chosen: `--lang`, then the locale decide).
    language: str = ""
    # Right-to-left text (Urdu, Pashto): "app" shapes and orders it, "terminal" leaves it to
    # a terminal that does (VTE); "" = "app" (ono99tui/ui/rtl.py).
    rtl: str = ""

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> Settings:
        """Build settings from a decoded file, keeping only known fields of the right type
        (a string for the text fields, true/false for the switches)."""
        kinds = {field.name: type(field.default) for field in fields(cls)}
        values = {k: v for k, v in data.items() if k in kinds and type(v) is kinds[k]}
        return cls(**values)  # type: ignore[arg-type]


def load_settings(directory: Path | None = None) -> Settings:
    """Read the settings; a missing file gives the defaults, a damaged one a ConfigError."""
    return Settings.from_mapping(_read_json_object((directory or config_dir()) / SETTINGS_FILE))


def save_settings(settings: Settings, directory: Path | None = None) -> None:
    """Write the settings atomically."""
    path = (directory or config_dir()) / SETTINGS_FILE
    try:
        _write_atomically(path, json.dumps(asdict(settings), indent=2) + "\n", private=False)
    except OSError as error:
        raise ConfigError(_("cannot write {path}: {problem}").format(
            path=path, problem=error.strerror)) from error


def table_key(host: str, port: int, player: str = "") -> str:
    """The key a seat's resume token is kept under: where the table is, and the name the
    player joined with. Two players on one account (two terminals) keep a seat each; the
    same name joining again from a new terminal takes its seat back."""
    return f"{host.lower()}:{port}/{player.casefold()}"


class ResumeTokens:
    """Resume tokens per table and player name, so `ono99 join` after a dropped connection
    reclaims the seat.

    The file is re-read on every call: several `ono99` processes (one per terminal or SSH
    session) may share one config directory.
    """

    def __init__(self, directory: Path | None = None) -> None:
        self.path = (directory or config_dir()) / RESUME_TOKENS_FILE

    def _load(self) -> dict[str, str]:
        try:
            data = _read_json_object(self.path)
        except ConfigError:
            # Tokens are only a convenience: a damaged file means "no seat to reclaim".
            return {}
        return {k: v for k, v in data.items() if isinstance(v, str)}

    def get(self, key: str) -> str | None:
        """The token kept for this table, if any."""
        return self._load().get(key)

    def put(self, key: str, token: str) -> None:
        """Keep a token for this table, replacing any older one."""
        tokens = self._load()
        tokens.pop(key, None)
        tokens[key] = token  # re-inserted last: dict order is age order
        while len(tokens) > MAX_RESUME_TOKENS:
            del tokens[next(iter(tokens))]
        self._save(tokens)

    def forget(self, key: str) -> None:
        """Drop the token for this table (the match is over or the seat was refused)."""
        tokens = self._load()
        if tokens.pop(key, None) is not None:
            self._save(tokens)

    def _save(self, tokens: dict[str, str]) -> None:
        try:
            _write_atomically(self.path, json.dumps(tokens, indent=2) + "\n", private=True)
        except OSError as error:
            raise ConfigError(_("cannot write {path}: {problem}").format(
                path=self.path, problem=error.strerror)) from error


def ssh_host_key_path(directory: Path | None = None) -> Path:
    """Where the SSH door keeps its host key (generated on first use by the door)."""
    return (directory or config_dir()) / SSH_HOST_KEY_FILE


# Tests and benchmarks point this at their own directory, as CONFIG_DIR_ENV does for config.
DATA_DIR_ENV = "ONO99_DATA_DIR"


def data_dir() -> Path:
    """The directory ono99 keeps what it records in (tables' journals; not created here)."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir(APP_NAME))

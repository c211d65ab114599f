"""Fixtures for the SSH tests: doors on loopback that run a probe program."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from ssh_helpers import PASSWORD, probe_command

from ono99tui.ssh import DoorConfig, SSHDoor, start_ssh_door


@pytest.fixture
def door_config(tmp_path: Path) -> DoorConfig:
    """A password-protected door on loopback that runs the terminal probe."""
    return DoorConfig(
        table_address="127.0.0.1:9",
        host_key_path=tmp_path / "host_key",
        players_dir=tmp_path / "players",
        bind_host="127.0.0.1",
        password=PASSWORD,
        command=probe_command,
    )


@pytest.fixture
def door_factory() -> Callable[..., Any]:
    """Start doors from a config plus overrides; all are closed at the end of the test."""

    @asynccontextmanager
    async def make(config: DoorConfig, **changes: Any) -> AsyncIterator[SSHDoor]:
        door = await start_ssh_door(replace(config, **changes))
        try:
            yield door
        finally:
            await door.close()

    return make

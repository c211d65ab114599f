"""Fixtures for the end-to-end tests: real `ono99` processes in a private tmux server."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from testkit.tmux import TmuxSession, clean_env

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[TmuxSession]:
    """An 80x24 tmux server of the test's own; killed with everything in it afterwards."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (.ci/run installs it)")
    session = TmuxSession(
        width=80, height=24, cwd=REPO, env=clean_env(ONO99_CONFIG_DIR=str(tmp_path / "config"))
    )
    try:
        yield session
    finally:
        session.kill()

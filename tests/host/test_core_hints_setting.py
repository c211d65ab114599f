"""The hints setting: a table option every seat sees in `lobby.options.hints`, off unless
the table was opened with it, changed by the host between matches only."""

from __future__ import annotations

import pytest
from core_clock_helpers import ClockedTable, config

from netproto.wire.errors import ApplicationError
from netproto.wire.messages import SetOptions, Start


def test_hints_are_off_unless_the_table_allows_them_and_everyone_is_told() -> None:
    table = ClockedTable(config(capacity=3))
    ann, bob = table.connect("Ann"), table.connect("Bob")
    assert table.lobby(ann).options["hints"] is False
    assert ClockedTable(config(hints=True)).core.hints is True
    table.send(ann, SetOptions(options={"hints": True}))
    assert table.core.hints is True
    assert table.lobby(ann).options["hints"] is True and table.lobby(bob).options["hints"] is True
    # Other options leave it as it is.
    table.send(ann, SetOptions(options={"preset": "1980"}))
    assert table.lobby(bob).options["hints"] is True


def test_the_hints_setting_changes_only_between_matches() -> None:
    table = ClockedTable(config(capacity=2))
    ann, bob = table.connect("Ann"), table.connect("Bob")
    table.send(ann, Start())
    with pytest.raises(ApplicationError) as refused:
        table.send(ann, SetOptions(options={"hints": True}))
    assert refused.value.code == "match-running"
    assert table.lobby(bob).options["hints"] is False

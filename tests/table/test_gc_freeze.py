"""The host keeps the collector off its start-up objects while it serves, and only then."""

from __future__ import annotations

import argparse
import gc

from ono99tui.commands import host as host_command
from ono99tui.gc_freeze import startup_objects_frozen
from ono99tui.host.hosting import hosted_table


class Survivor:
    """An object made before the freeze, in a reference cycle (so the collector tracks it)."""

    def __init__(self) -> None:
        self.me = self


def test_objects_alive_at_the_freeze_are_exempt_until_the_exit() -> None:
    before = Survivor()
    with startup_objects_frozen():
        assert gc.get_freeze_count() > 0
        assert not any(item is before for item in gc.get_objects())
        made_later = Survivor()
        assert any(item is made_later for item in gc.get_objects())
    assert gc.get_freeze_count() == 0
    assert any(item is before for item in gc.get_objects())


async def test_a_hosted_table_is_served_with_its_start_up_objects_frozen() -> None:
    parser = argparse.ArgumentParser()
    host_command.add_arguments(parser)
    args = parser.parse_args(["--headless", "--bind", "127.0.0.1", "--port", "0",
                              "--no-advertise"])
    options = host_command.host_options_from_args(args, headless=True)
    async with hosted_table(options):
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0

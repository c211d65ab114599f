"""A table with no secret and its web door, in a child process, for the browser tests of
the host's phone: its first person seated hosts (`ono99tui.host.rights`), as at a table
in-process. Prints one JSON line with the door's port, then runs until its stdin closes.

    python open_table_child.py PLAYERS_DIR [SEATS] [BOTS]
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from ono99tui.host.hosting import hosted_table
from ono99tui.host.options import HostOptions
from ono99tui.host.table_config import TableConfig
from ono99tui.web.host_door import WebDoorOptions


async def main(players: Path, seats: int, bots: int) -> None:
    options = HostOptions(
        table=TableConfig(capacity=seats, bot_delay=0.05), bind="127.0.0.1", port=0,
        bots=bots, doors=(WebDoorOptions(bind_host="127.0.0.1", port=0, open_access=True,
                                         players_dir=players),))
    async with hosted_table(options) as hosted:
        print(json.dumps({"web_port": hosted.doors[0].port}), flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


if __name__ == "__main__":
    arguments = sys.argv[1:]
    asyncio.run(main(Path(arguments[0]), int(arguments[1]) if len(arguments) > 1 else 3,
                     int(arguments[2]) if len(arguments) > 2 else 1))

"""Write the golden journal files of one format version: one finished match per rules
preset, played at a real headless table by three network bots, and its `--json` export.

    PYTHONPATH=$PWD python tests/host/journals/make_golden.py 2

writes tests/host/journals/v2/<preset>.journal and <preset>.jsonl. Run it once, when a
format version is new, and commit what it writes: the files of older versions stay as they
are, so that `test_golden_journals.py` proves every version is still read the same way.

From version 2 the first player ("ana") is a bot in this process, seated with the table's
operator key, that changes the table's options once mid-match (the turn clock, spectators'
chat), so that the file holds an `options` record; the other two are `ono99 bot` processes.
From version 3 the table deals duplicate sets (`--duplicate`): the match is the first deal
of a set, and its `match` and `won` records hold the set.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from netproto.client import TableClient
from ono99tui.bots import make_bot
from ono99tui.client.bot_player import play_matches
from ono99tui.game import PRESET_NAMES
from ono99tui.host.journal.file import JOURNAL_VERSION

HERE = Path(__file__).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def play(preset: str, data: Path, version: int) -> Path:
    """One match of `preset` at a headless table in `data`; its journal file."""
    env = {**os.environ, "ONO99_DATA_DIR": str(data), "ONO99_MDNS_INTERFACES": "127.0.0.1"}
    port = free_port()
    host = subprocess.Popen(
        [sys.executable, "-m", "ono99tui", "host", "--headless", "--no-advertise", "--bind",
         "127.0.0.1", "--port", str(port), "--name", f"Golden {preset}", "--seats", "3",
         "--rules", preset, "--seed", "99", "--bot-delay", "0", "--turn-time", "off",
         "--exit-after", "1", *(("--duplicate",) if version >= 3 else ())],
        stdout=subprocess.PIPE, text=True, env=env)
    assert host.stdout is not None
    listening = json.loads(host.stdout.readline())
    assert listening["event"] == "listening"
    bots = [subprocess.Popen([sys.executable, "-m", "ono99tui", "bot", f"127.0.0.1:{port}",
                              "--name", name, "--seed", str(seed)], env=env)
            for seed, name in enumerate(("bob", "cy"), 1)]
    asyncio.run(_operator(port, listening["operator_key"]))
    for bot in bots:
        bot.wait(120)
    host.wait(60)
    [path] = (data / "tables").glob("*.journal")
    return path


async def _operator(port: int, key: str) -> None:
    """"ana", seated with the operator key (host rights): plays the match as a greedy bot
    and, a few views in, changes the table's options."""
    client = await TableClient.connect("127.0.0.1", port, name="ana", host_key=key)

    async def change_options() -> None:
        while client.view is None or client.view.seq < 3:
            await asyncio.sleep(0.01)
        await client.set_options(turn_seconds=90, spectator_chat=False)

    changer = asyncio.create_task(change_options())
    await play_matches(client, make_bot("greedy"), 1, random.Random(0))
    await changer


def main(version: int) -> None:
    if version != JOURNAL_VERSION:
        sys.exit(f"this ono99 writes journal format {JOURNAL_VERSION}, not {version}")
    out = HERE / f"v{version}"
    out.mkdir(exist_ok=True)
    for preset in PRESET_NAMES:
        with tempfile.TemporaryDirectory() as data:
            path = play(preset, Path(data), version)
            golden = out / f"{preset}.journal"
            shutil.copyfile(path, golden)
        export = subprocess.run([sys.executable, "-m", "ono99tui", "replay", "--json",
                                 str(golden)], capture_output=True, text=True, check=True)
        lines = [json.loads(line) for line in export.stdout.splitlines()]
        lines[0]["file"] = golden.name  # where it was read from: not part of the match
        (out / f"{preset}.jsonl").write_text(
            "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))
        print(f"{golden}: {golden.stat().st_size} bytes, {len(lines)} export lines")


if __name__ == "__main__":
    main(int(sys.argv[1]))

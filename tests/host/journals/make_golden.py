"""Write the golden journal files of one format version: one finished match per rules
preset, played at a real headless table by three network bots, and its `--json` export.

    PYTHONPATH=$PWD python tests/host/journals/make_golden.py 1

writes tests/host/journals/v1/<preset>.journal and <preset>.jsonl. Run it once, when a
format version is new, and commit what it writes: the files of older versions stay as they
are, so that `test_golden_journals.py` proves every version is still read the same way.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from ono99tui.game import PRESET_NAMES
from ono99tui.host.journal_file import JOURNAL_VERSION

HERE = Path(__file__).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def play(preset: str, data: Path) -> Path:
    """One match of `preset` at a headless table in `data`; its journal file."""
    env = {**os.environ, "ONO99_DATA_DIR": str(data), "ONO99_MDNS_INTERFACES": "127.0.0.1"}
    port = free_port()
    host = subprocess.Popen(
        [sys.executable, "-m", "ono99tui", "host", "--headless", "--no-advertise", "--bind",
         "127.0.0.1", "--port", str(port), "--name", f"Golden {preset}", "--seats", "3",
         "--rules", preset, "--seed", "99", "--bot-delay", "0", "--turn-time", "off",
         "--exit-after", "1"], stdout=subprocess.PIPE, text=True, env=env)
    assert host.stdout is not None
    assert "listening" in host.stdout.readline()
    bots = [subprocess.Popen([sys.executable, "-m", "ono99tui", "bot", f"127.0.0.1:{port}",
                              "--name", name, "--seed", str(seed)], env=env)
            for seed, name in enumerate(("ana", "bob", "cy"))]
    for bot in bots:
        bot.wait(120)
    host.wait(60)
    [path] = (data / "tables").glob("*.journal")
    return path


def main(version: int) -> None:
    if version != JOURNAL_VERSION:
        sys.exit(f"this ono99 writes journal format {JOURNAL_VERSION}, not {version}")
    out = HERE / f"v{version}"
    out.mkdir(exist_ok=True)
    for preset in PRESET_NAMES:
        with tempfile.TemporaryDirectory() as data:
            path = play(preset, Path(data))
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

"""Reading a table's history back: prints ONE JSON object of figures.

    python bench/journal_history.py [--matches 1000] [--seats 4]

A journal file of `--matches` finished matches (greedy bots, the presets in turn) is
written as a hosted table writes it (`JournalWriter`, the records `record_to_map` makes of
the core's `MatchDealt` / `MovePlayed` / `MatchWon`), then read back, each step timed in
this run (best of 3, seconds):
- `read_journal_s`: the baseline: every record framed, checksummed and unpacked, what a
  host restart reads of a file (`read_journal`, all of it).
- `read_matches_s`: the same plus grouping into matches and checking each record's shape
  (`ono99tui.host.journal.history.read_matches`: what `ono99 replay --list` does).
- `stats_s`: `ono99 stats` of the file: read, and every match replayed through the engine
  to count busts (`tally_directory`).
- `replay_one_s` / `export_one_s`: `ono99 replay` of the last match: read the file and
  replay the match; and that plus its `--json` lines encoded.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT)]

from ono99tui.bots import make_bot  # noqa: E402
from ono99tui.game import MATCH_OVER, PRESET_NAMES, apply, preset, start_match, view  # noqa: E402
from ono99tui.game.codec import move_to_wire, rules_to_wire  # noqa: E402
from ono99tui.host.journal.file import JournalWriter, journal_path, read_journal  # noqa: E402
from ono99tui.host.journal.history import read_matches, replay_match, step_lines  # noqa: E402
from ono99tui.host.journal.records import MatchDealt, MatchWon, MovePlayed  # noqa: E402
from ono99tui.host.journal.resume import record_to_map  # noqa: E402
from ono99tui.host.journal.stats import tally_directory  # noqa: E402

NAMES = ("ana", "bob", "cy", "dee", "eve", "fay", "gus", "hal")


def write_journal(path: Path, matches: int, seats: int) -> int:
    """`matches` finished matches into a new journal at `path`; the number of moves."""
    writer, _ = JournalWriter.open(path)
    bot, choices, moves = make_bot("greedy"), random.Random(1), 0
    for number in range(1, matches + 1):
        rules, seed = preset(PRESET_NAMES[number % len(PRESET_NAMES)]), number
        deck = random.Random(seed)
        state, _ = start_match(rules, seats, deck)
        names = NAMES[:seats]
        writer.append(record_to_map(MatchDealt(
            seed=seed, rules=rules_to_wire(rules), names=names, kinds=("human",) * seats,
            token_hashes=("0" * 64,) * seats, host_seat=0, number=number,
            seqs=(1,) * seats)))
        while state.phase != MATCH_OVER:
            move = bot.choose(view(state, state.turn), choices)
            state, _ = apply(state, move, deck)
            moves += 1
            writer.append(record_to_map(MovePlayed(move_to_wire(move), (moves,) * seats)))
        writer.append(record_to_map(MatchWon(tuple(state.winners))))
    writer.close()
    return moves


def best_of(runs: int, work: Callable[[], Any]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return round(min(times), 4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        data = Path(directory)
        path = journal_path(data, "Bench")
        moves = write_journal(path, args.matches, args.seats)

        def replay_last() -> None:
            replay_match(read_matches(path)[-1])

        def export_last() -> None:
            match = read_matches(path)[-1]
            for line in step_lines(match, replay_match(match)):
                json.dumps(line)

        figures = {
            "matches": args.matches, "seats": args.seats, "moves": moves,
            "file_bytes": path.stat().st_size,
            "read_journal_s": best_of(3, lambda: read_journal(path)),
            "read_matches_s": best_of(3, lambda: read_matches(path)),
            "stats_s": best_of(3, lambda: tally_directory(data)),
            "replay_one_s": best_of(3, replay_last),
            "export_one_s": best_of(3, export_last),
        }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

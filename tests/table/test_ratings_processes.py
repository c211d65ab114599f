"""Ratings through real processes: a headless host rates a finished match into the data
folder's ratings file, `ono99 stats --ratings` shows it (text and JSON) and `--merge`
renames; a damaged file is left as it is, the table plays unrated, and stats says so."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

ONO99 = [sys.executable, "-m", "ono99tui"]
FAST_HOST = ["host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--bot-delay", "0",
             "--seed", "3", "--no-advertise"]


def environment(data: Path) -> dict[str, str]:
    return {**os.environ, "ONO99_DATA_DIR": str(data), "ONO99_MDNS_INTERFACES": "127.0.0.1"}


async def run_ono99(data: Path, *arguments: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        *ONO99, *arguments, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env=environment(data))
    stdout, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, stdout.decode(), stderr.decode()


async def play_one_match(data: Path) -> list[dict[str, Any]]:
    """A headless table with a normal bot, Ann and Bob (network bots) for one match; the
    host's output lines."""
    host = await asyncio.create_subprocess_exec(
        *ONO99, *FAST_HOST, "--seats", "3", "--bots", "1", "--exit-after", "1",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=environment(data))
    assert host.stdout is not None and host.stderr is not None
    listening = json.loads(await asyncio.wait_for(host.stdout.readline(), 30))
    assert listening["event"] == "listening"
    address = f"127.0.0.1:{listening['port']}"
    for status, _, stderr in await asyncio.gather(
            run_ono99(data, "bot", address, "--name", "Ann", "--seed", "1"),
            run_ono99(data, "bot", address, "--name", "Bob", "--seed", "2")):
        assert status == 0, stderr
    rest, errors = await asyncio.wait_for(host.communicate(), 30)
    assert host.returncode == 0, errors.decode()
    lines = [listening, *(json.loads(line) for line in rest.decode().splitlines())]
    return [*lines, {"stderr": errors.decode()}]


async def test_a_hosted_match_is_rated_and_stats_shows_and_merges(tmp_path: Path) -> None:
    await play_one_match(tmp_path)
    kept = json.loads((tmp_path / "ratings.json").read_text(encoding="utf-8"))
    assert set(kept["players"]) == {"Ann", "Bob"} and set(kept["bots"]) == {"normal"}
    assert all(entry["matches"] == 1 for entry in (*kept["players"].values(),
                                                    *kept["bots"].values()))
    assert len(kept["rated"]) == 1

    status, out, _ = await run_ono99(tmp_path, "stats", "--ratings", "--json")
    assert status == 0
    shown = json.loads(out)
    assert {entry["name"] for entry in shown["ratings"]} == {"Ann", "Bob", "Normal bot"}
    ratings = [entry["rating"] for entry in shown["ratings"]]
    assert ratings == sorted(ratings, reverse=True)  # best first
    for entry in shown["ratings"]:
        source = kept["bots"]["normal"] if entry["kind"] == "bot" else kept["players"][
            entry["name"]]
        assert entry["rating"] == round(1000 + 40 * (source["mu"] - 3 * source["sigma"]))

    status, text, _ = await run_ono99(tmp_path, "stats", "--ratings")
    assert status == 0
    rows = {line.split()[0]: line for line in text.splitlines()[3:]}
    assert set(rows) == {"Ann", "Bob", "Normal"}
    for entry in shown["ratings"]:
        assert str(entry["rating"]) in rows[entry["name"].split()[0]]

    status, out, _ = await run_ono99(tmp_path, "stats", "--merge", "Ann", "Anna", "--json")
    assert status == 0
    names = {entry["name"] for entry in json.loads(out)["ratings"]}
    assert names == {"Anna", "Bob", "Normal bot"}
    again = json.loads((tmp_path / "ratings.json").read_text(encoding="utf-8"))
    assert again["players"]["Anna"] == kept["players"]["Ann"]
    status, _, err = await run_ono99(tmp_path, "stats", "--merge", "Ann", "Anna")
    assert status == 1 and "nobody named 'Ann' has a rating" in err


async def test_a_damaged_ratings_file_is_left_alone_and_the_table_plays_unrated(
        tmp_path: Path) -> None:
    path = tmp_path / "ratings.json"
    path.write_text('{"format": 1, "players": {"Ann": "strong"}}', encoding="utf-8")
    lines = await play_one_match(tmp_path)
    assert path.read_text(encoding="utf-8") == '{"format": 1, "players": {"Ann": "strong"}}'
    assert "The ratings file is damaged, so this table rates nobody" in lines[-1]["stderr"]
    assert {"event": "stopped", "matches": 1} in lines
    status, out, err = await run_ono99(tmp_path, "stats", "--ratings")
    assert status == 1 and out == ""
    assert err.strip() == (f"ono99 stats: the ratings file is damaged: {path}: the rating of "
                           "'Ann' is not a map")


async def test_no_ratings_rates_nobody(tmp_path: Path) -> None:
    status, _, err = await run_ono99(tmp_path, *FAST_HOST, "--seats", "2", "--bots", "2",
                                     "--exit-after", "1", "--no-ratings")
    assert status == 0, err
    assert not (tmp_path / "ratings.json").exists()
    status, out, _ = await run_ono99(tmp_path, "stats", "--ratings")
    assert status == 0 and out.startswith("Nobody is rated in ")


async def test_stats_plots_each_ratings_history(tmp_path: Path) -> None:
    status, _, err = await run_ono99(tmp_path, "stats", "--plot")
    assert status == 2 and "--plot goes with --ratings" in err
    status, text, _ = await run_ono99(tmp_path, "stats", "--ratings", "--plot")
    assert status == 0 and "No rating has a history yet" in text
    await play_one_match(tmp_path)
    await play_one_match(tmp_path)
    status, out, _ = await run_ono99(tmp_path, "stats", "--ratings", "--json")
    entries = json.loads(out)["ratings"]
    assert all(len(entry["history"]) == 2 and entry["history"][-1] == entry["rating"]
               for entry in entries)
    status, text, _ = await run_ono99(tmp_path, "stats", "--ratings", "--plot")
    assert status == 0
    lines = text.splitlines()
    assert "Ratings after each of their last matches" in text
    assert any(line.strip() == "match" for line in lines)  # the x axis' label
    # The legend names each rating beside its mark, under the plot (plotext's own was drawn
    # in the plot's corner, over the lines), and the ticks are whole ratings.
    axis = max(i for i, line in enumerate(lines) if line.strip() == "match")
    legend = "\n".join(lines[axis + 1:])
    for entry, mark in zip(entries, "•+x", strict=False):
        assert f"{mark} {entry['name']}" in legend
        plot_from = next(i for i, line in enumerate(lines) if "Ratings after each" in line)
        assert entry["name"] not in "\n".join(lines[plot_from:axis])
    assert not any(re.match(r"\s*\d+\.\d+┤", line) for line in lines)
    assert "\x1b" not in text  # plain text: no colour codes
    title = next(i for i, line in enumerate(lines) if "Ratings after each" in line)
    assert all(len(line) <= 80 for line in lines[title:])  # the plot fits 80 columns

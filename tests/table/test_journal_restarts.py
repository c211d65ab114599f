"""Real `ono99 host --headless` processes killed (SIGKILL), limited (RLIMIT_FSIZE) and
restarted over journals damaged by hand: a restart never takes up an older position than
the one the players saw, never starts afresh without a word, and refuses damage with exit
status 2 and one message naming the file and the way out (issue 23, items 1-5); the table's
options come back with its match (issue 22, item 2); and a second host on a taken port says
that, and only that (issue 22, item 9)."""

from __future__ import annotations

import asyncio
import json
import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from testkit.waiting import wait_until

from netproto.client import ClientSettings, Reconnected, TableClient
from netproto.wire.messages import Lobby, View
from ono99tui.host.journal.file import JournalError, end_mark_path, journal_path, read_journal
from ono99tui.host.journal.resume import resume_point

NAME = "Kitchen"
# Three bots that take their time, so that a test can stop the host mid-match.
SLOW_BOTS = ("--name", NAME, "--seats", "3", "--bots", "3", "--bot-delay", "0.1",
             "--seed", "5", "--turn-time", "off")
QUICK_BOTS = ("--name", NAME, "--seats", "3", "--bots", "3", "--bot-delay", "0",
              "--seed", "5", "--turn-time", "off")
# A table of bots deals its first match by itself, never a rematch: that takes players.
WITH_PLAYERS = ("--name", NAME, "--seats", "3", "--bots", "1", "--bot-delay", "0",
                "--seed", "5", "--turn-time", "off")
FAST_RECONNECT = ClientSettings(backoff_initial=0.05, backoff_max=0.2, reconnect_for=60)


def journal(data: Path) -> Path:
    return journal_path(data, NAME)


def moves_in(path: Path) -> int:
    """Moves of the file's unfinished match (-1: none, or the file cannot be read now)."""
    try:
        point = resume_point(read_journal(path).records)
    except (OSError, JournalError):
        return -1
    return -1 if point is None else len(point.steps)


def run_host(data: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """`ono99 host --headless` run to its end (a refusal, or `--exit-after`)."""
    return subprocess.run(
        [sys.executable, "-m", "ono99tui", "host", "--headless", "--no-advertise",
         "--bind", "127.0.0.1", "--port", "0", *options],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "ONO99_DATA_DIR": str(data)})


def play_matches(data: Path, matches: int, *options: str) -> None:
    """`matches` finished matches at a headless table with two `ono99 bot` players (who
    ask for each rematch) and a bot of the table's."""
    env = {**os.environ, "ONO99_DATA_DIR": str(data)}
    host = subprocess.Popen(
        [sys.executable, "-m", "ono99tui", "host", "--headless", "--no-advertise", "--bind",
         "127.0.0.1", "--port", "0", *WITH_PLAYERS, "--exit-after", str(matches), *options],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert host.stdout is not None
        port = json.loads(host.stdout.readline())["port"]
        players = [subprocess.Popen(
            [sys.executable, "-m", "ono99tui", "bot", f"127.0.0.1:{port}", "--name", name,
             "--matches", str(matches), "--seed", str(seed)], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, env=env) for seed, name in enumerate(("ann", "bob"))]
        for player in players:
            player.wait(120)
        _, errors = host.communicate(timeout=120)
        assert host.returncode == 0, errors
    finally:
        host.kill()


def refusal(result: subprocess.CompletedProcess[str], path: Path) -> str:
    """The one message a refused start printed (exit status 2, the file named, the way
    out given, no traceback)."""
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("ono99 host: ") and str(path) in lines[0]
    assert "--fresh" in lines[0] and "Traceback" not in result.stderr
    assert result.stdout == ""  # never listened
    return lines[0]


def file_size_limit(size: int) -> Callable[[], None]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


def test_a_write_failure_after_a_restart_never_brings_back_an_older_position(
    host_process: Callable[..., Any], tmp_path: Path,
) -> None:
    # Issue 23, item 1: restart once (the match is taken up), let a write fail, play on,
    # kill -9, restart: the host took up the first restart's position.
    env = {"ONO99_DATA_DIR": str(tmp_path)}
    path = journal(tmp_path)
    first = host_process(*SLOW_BOTS, env=env)
    first.start()
    wait_until(lambda: moves_in(path) >= 6, 60.0, "six moves in the journal")
    first.kill()
    taken = moves_in(path)
    # Room for a couple of move records past the file as it is, then every write fails.
    second = host_process(*SLOW_BOTS, env=env,
                          preexec_fn=file_size_limit(path.stat().st_size + 120))
    second.port = first.port
    second.start()
    assert second.wait_for_event("resumed")["moves"] == taken
    failed = second.wait_for_event("journal")
    assert "File too large" in str(failed["message"]) and "cut out" in str(failed["message"])
    assert moves_in(path) == -1  # the taken-up match is out of the file, all of it

    async def plays_on() -> None:  # the table itself goes on, without its journal
        async with asyncio.timeout(60):
            watcher = await TableClient.connect("127.0.0.1", second.port, name="w",
                                                spectate=True)
            try:
                start = (await watcher.wait_for(View)).seq
                await watcher.wait_for(View, predicate=lambda view: view.seq >= start + 3)
            finally:
                await watcher.close()

    asyncio.run(plays_on())
    second.kill()
    third = host_process(*SLOW_BOTS, env=env)
    third.start()
    notice = third.wait_for_event("journal")
    assert "Match 1" in str(notice["message"]) and "not taken up" in str(notice["message"])
    assert "resumed" not in [event["event"] for event in third.events]
    third.kill()


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir whose journal holds two finished matches and a third in progress, left
    by a host killed mid-match (its end mark beside it)."""
    data = tmp_path_factory.mktemp("evening")
    play_matches(data, 2)
    env = {**os.environ, "ONO99_DATA_DIR": str(data)}
    host = subprocess.Popen(
        [sys.executable, "-m", "ono99tui", "host", "--headless", "--no-advertise", "--bind",
         "127.0.0.1", "--port", "0", *SLOW_BOTS], stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        wait_until(lambda: moves_in(journal(data)) >= 3, 60.0, "the third match under way")
    finally:
        host.kill()
        host.wait()
    return data


def copy_of(evening: Path, tmp_path: Path) -> Path:
    shutil.copytree(evening, tmp_path / "data")
    return tmp_path / "data"


def record_ends(path: Path) -> list[int]:
    """Where each record of the journal ends."""
    data = path.read_bytes()
    ends, offset = [], 9
    while offset < len(data):
        offset += 8 + int.from_bytes(data[offset:offset + 4], "big")
        ends.append(offset)
    return ends


@pytest.mark.parametrize("cut", ["a record boundary", "inside a record"])
def test_a_journal_cut_short_refuses_and_fresh_starts_over_keeping_it(
    evening: Path, tmp_path: Path, cut: str,
) -> None:
    # Issue 23, item 2: a truncated journal took up an old finished match.
    data = copy_of(evening, tmp_path)
    path = journal(data)
    ends = record_ends(path)
    size = ends[len(ends) // 3] + (5 if cut == "inside a record" else 0)  # in match 1
    with path.open("r+b") as stream:
        stream.truncate(size)
    message = refusal(run_host(data, "--name", NAME, "--seats", "3"), path)
    assert "whole records are missing" in message and "--resume" in message
    play_matches(data, 1, "--fresh")
    assert len(list(path.parent.glob(f"{path.name}.damaged-*"))) == 1
    after = run_host(data, *QUICK_BOTS, "--exit-after", "1")  # the new file is trusted
    assert after.returncode == 0, after.stderr


@pytest.mark.parametrize("bit", [3, 17])
def test_a_flipped_length_bit_refuses_and_cuts_nothing(
    evening: Path, tmp_path: Path, bit: int,
) -> None:
    # Issue 23, item 2: a damaged length read as a torn write; everything after it went to
    # an unread .cut-N file and the match before it was taken up.
    data = copy_of(evening, tmp_path)
    path = journal(data)
    raw = bytearray(path.read_bytes())
    second = record_ends(path)[0]
    length = int.from_bytes(raw[second:second + 4], "big") ^ (1 << bit)
    raw[second:second + 4] = length.to_bytes(4, "big")
    path.write_bytes(bytes(raw))
    message = refusal(run_host(data, "--name", NAME, "--seats", "3"), path)
    assert "damaged" in message
    assert path.read_bytes() == bytes(raw)
    assert not list(path.parent.glob("*.cut-*"))


def test_a_journal_deleted_mid_match_is_noticed_and_its_match_survives_a_crash(
    host_process: Callable[..., Any], tmp_path: Path,
) -> None:
    # Issue 23, item 3: the host went on writing to the unlinked file and, after a crash,
    # started afresh without a word.
    env = {"ONO99_DATA_DIR": str(tmp_path)}
    path = journal(tmp_path)
    host = host_process(*SLOW_BOTS, env=env)
    host.start()
    wait_until(lambda: moves_in(path) >= 4, 60.0, "four moves in the journal")
    path.unlink()
    notice = host.wait_for_event("journal")
    assert "deleted or moved away" in str(notice["message"])
    assert "started again" in str(notice["message"])
    wait_until(lambda: moves_in(path) >= 7, 60.0, "the match in the new file")
    host.kill()
    kept = moves_in(path)
    again = host_process(*SLOW_BOTS, env=env)
    again.port = host.port
    again.start()
    assert again.wait_for_event("resumed")["moves"] == kept
    again.kill()


def test_a_journal_deleted_while_its_host_was_down_refuses(
    evening: Path, tmp_path: Path,
) -> None:
    data = copy_of(evening, tmp_path)
    path = journal(data)
    path.unlink()
    message = refusal(run_host(data, "--name", NAME, "--seats", "3"), path)
    assert "it is gone" in message
    assert not path.exists() and end_mark_path(path).exists()


def test_a_journal_that_cannot_be_opened_refuses_like_a_damaged_one(tmp_path: Path) -> None:
    # Issue 23, item 3: a journal the host could not open started a fresh table, exit 0.
    # (The tests run as root, whom chmod 000 does not stop: a directory in its place
    # cannot be opened either.)
    path = journal(tmp_path)
    path.mkdir(parents=True)
    message = refusal(run_host(tmp_path, "--name", NAME, "--seats", "3"), path)
    assert "cannot open the table's journal" in message and "Is a directory" in message
    fresh = run_host(tmp_path, *QUICK_BOTS, "--fresh", "--exit-after", "1")
    assert fresh.returncode == 0, fresh.stderr
    assert path.is_file()


def test_a_journal_that_lost_its_won_record_goes_to_the_results(tmp_path: Path) -> None:
    # Issue 23, item 4: a journal that ends after the last move but before its `won` took
    # up a match with no move to make: "playing" for ever, no rematch.
    played = run_host(tmp_path, *QUICK_BOTS, "--exit-after", "1")
    assert played.returncode == 0, played.stderr
    path = journal(tmp_path)
    whole = path.read_bytes()
    ends = record_ends(path)
    with path.open("r+b") as stream:
        stream.truncate(ends[-2])  # the `won` record gone, as a power cut may leave it
    env = {**os.environ, "ONO99_DATA_DIR": str(tmp_path)}
    host = subprocess.Popen(
        [sys.executable, "-m", "ono99tui", "host", "--headless", "--no-advertise", "--bind",
         "127.0.0.1", "--port", "0", "--name", NAME, "--seats", "3"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        assert host.stdout is not None
        listening = json.loads(host.stdout.readline())
        assert json.loads(host.stdout.readline())["event"] == "resumed"

        async def results() -> Any:
            async with asyncio.timeout(30):
                watcher = await TableClient.connect("127.0.0.1", listening["port"],
                                                    name="w", spectate=True)
                try:
                    return await watcher.wait_for(Lobby, predicate=lambda lobby:
                                                  lobby.phase == "finished")
                finally:
                    await watcher.close()

        lobby = asyncio.run(results())
        assert lobby.results["winners"]
        assert path.read_bytes() == whole  # its `won` derived and written again
    finally:
        host.kill()
        host.wait()


def test_standings_and_match_numbers_go_on_after_a_restart_at_a_finished_table(
    tmp_path: Path,
) -> None:
    # Issue 23, item 5: they started again at 1.
    play_matches(tmp_path, 2)
    play_matches(tmp_path, 1)
    headers = [record for record in read_journal(journal(tmp_path)).records
               if record["kind"] == "match"]
    assert [header["number"] for header in headers] == [1, 2, 3]
    assert set(headers[2]["played"].values()) == {2}
    assert sum(headers[2]["won"].values()) >= 2
    play_matches(tmp_path, 1, "--fresh")
    last = [record for record in read_journal(journal(tmp_path)).records
            if record["kind"] == "match"][-1]
    assert last["number"] == 1 and last["played"] == {}  # --fresh starts the count over


async def test_the_turn_clock_and_hints_come_back_after_kill_9(
    host_process: Callable[..., Any], tmp_path: Path,
) -> None:
    # Issue 22, item 2: after kill -9 and the same `ono99 host`, the clock and hints were
    # gone (an idle seat waited for ever; joiners kept an h that did nothing).
    env = {"ONO99_DATA_DIR": str(tmp_path)}
    table = ("--name", NAME, "--seats", "3", "--bots", "1", "--bot-delay", "0.1",
             "--turn-time", "off")
    first = host_process(*table, env=env)
    await asyncio.to_thread(first.start)
    operator = await TableClient.connect("127.0.0.1", first.port, name="op",
                                         host_key=str(first.listening["operator_key"]),
                                         settings=FAST_RECONNECT)
    try:
        await operator.set_options(hints=True, turn_seconds=40)
        await operator.add_bot("greedy")  # the third seat: the table deals
        await operator.wait_for(View, timeout=30)
        await operator.set_options(turn_seconds=25)  # mid-match: an options record
        await asyncio.to_thread(wait_until, lambda: any(
            record["kind"] == "options"
            for record in read_journal(journal(tmp_path)).records), 60.0, "the options record")
        first.kill()
        second = host_process(*table, env=env)
        second.port = first.port
        await asyncio.to_thread(second.start)
        await operator.wait_for(Reconnected, timeout=60)  # the lobbies before it are old
        lobby = await operator.wait_for(Lobby, timeout=60)
        assert lobby.phase == "playing" and lobby.you is not None
        assert lobby.options["turn_seconds"] == 25 and lobby.options["hints"] is True
    finally:
        await operator.close()


def test_a_second_host_on_a_taken_port_says_only_that_with_the_way_out(
    host_process: Callable[..., Any], tmp_path: Path,
) -> None:
    # Issue 22, item 9: a journal-lock warning came first, and no hint about --port.
    env = {"ONO99_DATA_DIR": str(tmp_path)}
    first = host_process(*SLOW_BOTS, env=env)
    first.start()
    second = subprocess.run(
        [sys.executable, "-m", "ono99tui", "host", "--headless", "--no-advertise", "--bind",
         "127.0.0.1", "--port", str(first.port), *SLOW_BOTS],
        capture_output=True, text=True, timeout=60, env={**os.environ, **env})
    first.kill()
    assert second.returncode == 1
    lines = second.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert f"127.0.0.1:{first.port}: Address already in use (" in lines[0]
    assert "--port" in lines[0]
    assert "journal" not in lines[0]

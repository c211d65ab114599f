"""Line mode's `review` command through a real pty: refused while the match is played,
then, once it is over, the costliest choices first, as sentences."""

from __future__ import annotations

import time
from pathlib import Path

import pexpect
from plain_pty import PlainPlayer, answer, line_env, logical_lines, ono99


def test_the_review_is_told_after_the_match_and_refused_before(tmp_path: Path) -> None:
    player = PlainPlayer(ono99("solo", "--plain", "--bots", "1", "--bot-delay", "0",
                               "--seed", "5", "--name", "tess"), line_env(tmp_path, "tess"))
    try:
        first = player.prompt()
        player.send("review")
        player.expect("A review comes once the match is over.")
        answer(player, first)
        deadline = time.monotonic() + 180
        while True:
            assert time.monotonic() < deadline, player.transcript[-3000:]
            try:
                text = player.prompt(timeout=0.5)
            except pexpect.TIMEOUT:
                continue
            if "Match over" in player.transcript and not text.startswith(
                    ("Play", "Discard", "Draw")):
                break
            answer(player, text)
        told = len(player.transcript)
        player.send("v")
        player.expect(r"Reviewing your plays: 0 of \d+\.\.\.")
        player.expect(r"Of your \d+ plays? with a choice", timeout=180)
        player.prompt(timeout=60)
        lines = [line for line in logical_lines(player.transcript[told:]) if line.strip()]
    finally:
        player.close()
    summary = next(i for i, line in enumerate(lines) if line.startswith("Of your "))
    costly = [line for line in lines[summary + 1:] if line.startswith("At ")]
    if "none cost you a percentage point" in lines[summary]:
        assert costly == []
    else:
        assert costly, lines
        for line in costly:
            assert " you played " in line and " kept you " in line and "you held" in line
            assert "Chances: " in line
        points = [int(line.split(" kept you ")[1].split(" ")[0]) for line in costly]
        assert points == sorted(points, reverse=True)  # costliest first

"""Line mode's standing after a round of a tokens match says a seat out of the match is
out: it said "Sam: 0 tokens left." round after round for a player long out, the same words
as for a player on their last life who plays on."""

from __future__ import annotations

import random

from ono99tui.game import RoundEnded, apply, legal_moves, preset, start_match, view
from ono99tui.line import sentences

NAMES = ("Sam", "Ann", "Bo")


def test_an_eliminated_seat_is_said_out_and_a_last_life_plays_on() -> None:
    rules = preset("1980")
    rng = random.Random(4)
    state, _events = start_match(rules, 3, rng)
    told: list[list[str]] = []
    while view(state, 0).phase != "match_over":
        seat = next(s for s in range(3) if legal_moves(state, s))
        state, events = apply(state, legal_moves(state, seat)[0], rng)
        seen = view(state, 0)
        ended = [sentences.round_end_lines(event, seen.rules, NAMES, seen.eliminated)
                 for event in events if isinstance(event, RoundEnded)]
        told += ended
        if any(seen.eliminated) and ended:
            break
    out = [NAMES[s] for s, gone in enumerate(view(state, 0).eliminated) if gone]
    assert out, "the match went on without anybody out"
    last = told[-1]
    for name in out:
        assert f"{name}: out of the match." in last
        assert not any(line.startswith(f"{name}: 0 tokens") for line in last)
    assert any("tokens left." in line or "token left." in line for line in last)
    # Without the flags (an older caller), the tokens are said as before.
    event = RoundEnded(round_no=1, points=(0, 0, 0), scores=(0, 0, 0), tokens=(0, 2, 1))
    assert sentences.round_end_lines(event, rules, NAMES) == [
        "Sam: 0 tokens left.", "Ann: 2 tokens left.", "Bo: 1 token left."]

"""The play-out model never drifts from the engine: random matches of every preset, player
count and scoring through both, move for move, every field compared after every move
(tests/bots/playout_lockstep.py). The quick cases run a couple of dozen matches each, the
slow ones 80 more per preset and player count (about 2,200 matches in all per run, a
minute of CPU); `bench/bots.py --only lockstep` runs thousands."""

from __future__ import annotations

import os

import pytest
from playout_lockstep import lockstep_match

from ono99tui.game import MAX_PLAYERS, MIN_PLAYERS, PRESET_NAMES, preset

# Matches per case here; ONO99_LOCKSTEP_MATCHES raises it.
MATCHES = int(os.environ.get("ONO99_LOCKSTEP_MATCHES", "24"))


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_presets_in_lockstep(preset_name: str, players: int) -> None:
    rules = preset(preset_name)
    assert sum(lockstep_match(rules, players, seed) for seed in range(MATCHES)) > MATCHES


@pytest.mark.parametrize(
    "options",
    [
        {"scoring": "points-lowest", "target": 60},
        {"scoring": "points-elimination", "target": 60},
        {"scoring": "tokens", "tokens": 1},
        {"ono99_card": "tens"},
        {"reveal_eliminated": False, "negative_totals": True},
    ],
)
@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_other_scorings_and_options_in_lockstep(preset_name: str, options: dict) -> None:
    rules = preset(preset_name).replace(**options)
    for players in (2, 3, 5, 8):
        for seed in range(MATCHES // 4):
            lockstep_match(rules, players, seed)


@pytest.mark.slow
@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_eighty_more_matches_in_lockstep(preset_name: str, players: int) -> None:
    rules = preset(preset_name)
    for seed in range(1000, 1080):
        lockstep_match(rules, players, seed)

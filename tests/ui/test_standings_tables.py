"""The standings' text tables of the results dialogs, with and without the matches played
(a table from before `matches_played` sends only the matches won)."""

from __future__ import annotations

from ono99tui.ui.present import matches_played
from ono99tui.ui.screens.results import places_table, wins_table

NAMES = ("ana", "bob", "cy")


def test_places_with_the_evenings_standings() -> None:
    assert places_table(NAMES, [2, 0, 1], [1, 0, 2], [3, 3, 2]).splitlines() == [
        "This match  Won here  Played",
        "1. cy              2       2",
        "2. ana             1       3",
        "3. bob             0       3",
    ]


def test_places_from_a_table_that_counts_only_wins() -> None:
    assert places_table(NAMES, [2, 0, 1], [1, 0, 2]).splitlines()[0] == (
        "This match  Matches won")
    assert places_table(NAMES, [2, 0, 1], None).splitlines() == ["1. cy", "2. ana", "3. bob"]


def test_wins_table_with_and_without_matches_played() -> None:
    assert wins_table(NAMES, [1, 0, 2], [3, 3, 2]).splitlines() == [
        "Player  Won  Played", "cy        2       2", "ana       1       3",
        "bob       0       3"]
    assert wins_table(NAMES, [1, 0, 2]).splitlines()[0] == "Player  Matches won"


def test_matches_played_of_a_wrong_shape_are_not_shown() -> None:
    assert matches_played({"matches_played": [1, 2, 3]}, 3) == [1, 2, 3]
    assert matches_played({"matches_played": [1, 2]}, 3) is None
    assert matches_played({"matches_played": [1, -2, 3]}, 3) is None
    assert matches_played({"matches_played": [1, True, 3]}, 3) is None
    assert matches_played({}, 3) is None

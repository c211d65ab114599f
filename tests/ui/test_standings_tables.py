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


def test_players_out_before_the_app_was_watching_place_last() -> None:
    # Played in tmux: the host's app restarted mid-match and a joiner came back from the
    # lobby, so each saw only the last rounds' eliminations. The first two players out,
    # unseen, were ranked 2nd and 3rd, above those seen going out later.
    from table_helpers import LocalMatch

    from ono99tui.game import MATCH_OVER, Eliminated, legal_moves, preset
    from ono99tui.ui.screens.results import standings

    match = LocalMatch(preset("1980").replace(tokens=2), 4, seed=7)
    out: list[int] = []
    while match.state.phase != MATCH_OVER:
        events = match.step(lambda state, seat: match.rng.choice(legal_moves(state, seat)))
        out += [event.seat for event in events if isinstance(event, Eliminated)]
    view = match.view()
    assert len(out) == 3 and len(view.winners) == 1
    everything = standings(view, out)
    assert everything == [*view.winners, *reversed(out)]
    # Only the last elimination seen: the two unseen ones went out before it.
    assert standings(view, out[-1:]) == [*view.winners, out[2], *sorted(out[:2])]


def test_equal_scores_share_a_place() -> None:
    # Played in tmux: a points-lowest match ended 97 / 108 / 108 / 145, both 108s rated
    # alike (+6), and the dialog said "2. Pia" and "3. Oli".
    from dataclasses import replace

    from table_helpers import LocalMatch

    from ono99tui.client.places import place_numbers, standings
    from ono99tui.game import MATCH_OVER, legal_moves, preset

    match = LocalMatch(preset("2022").replace(scoring="points-lowest"), 4, seed=3)
    while match.state.phase != MATCH_OVER:
        match.step(lambda state, seat: match.rng.choice(legal_moves(state, seat)))
    view = replace(match.view(), scores=(97, 145, 108, 108), winners=(0,))
    order = standings(view, [])
    assert order == [0, 2, 3, 1]
    assert place_numbers(view, order) == [1, 2, 2, 4]
    assert places_table([*NAMES, "dee"], order, None, numbers=place_numbers(view, order)
                        ).splitlines() == ["1. ana", "2. cy", "2. dee", "4. bob"]
    # Winners share the first place (ties share the win); elsewhere nobody shares.
    shared = replace(view, winners=(2, 3))
    assert place_numbers(shared, standings(shared, [])) == [1, 1, 3, 4]
    tokens = replace(match.view(), rules=preset("1980"), winners=(1,))
    assert place_numbers(tokens, standings(tokens, [0, 2, 3])) == [1, 2, 3, 4]

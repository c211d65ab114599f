"""`ono99 sim`: the command line of the simulator."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ono99tui.cli import main


def run_sim(capsys, *args: str) -> tuple[int, str, str]:
    status = main(["sim", *args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("rules", ["2022", "1980", "1980-set99"])
def test_sim_json_fields(capsys, rules) -> None:
    status, out, _ = run_sim(
        capsys, "--rules", rules, "--players", "5", "--games", "20", "--seed", "7",
        "--bots", "greedy,random", "--json",
    )  # fmt: skip
    assert status == 0
    summary = json.loads(out)
    assert summary["rules"] == rules and summary["games"] == 20 and summary["players"] == 5
    assert summary["bots"] == ["greedy", "random", "greedy", "random", "greedy"]
    assert set(summary["win_rates"]) == {"greedy", "random"}
    assert sum(summary["wins"].values()) == pytest.approx(20)
    assert summary["mean_turns"] > 0 and summary["matches_per_s"] > 0
    # The seed fixes the matches: the same command gives the same results.
    _, again, _ = run_sim(
        capsys, "--rules", rules, "--players", "5", "--games", "20", "--seed", "7",
        "--bots", "greedy,random", "--json",
    )  # fmt: skip
    repeat = json.loads(again)
    for key in ("wins", "mean_turns", "mean_rounds"):
        assert repeat[key] == summary[key]


def test_sim_rule_overrides_and_text_output(capsys) -> None:
    status, out, _ = run_sim(
        capsys, "--games", "5", "--players", "3", "--bots", "random",
        "--set", "scoring=points-lowest", "--set", "target=60",
    )  # fmt: skip
    assert status == 0
    assert "5 matches of 2022 rules, 3 players" in out
    assert "random" in out and "matches/s" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "1999"], "valid presets: 2022, 1980, 1980-set99"),
        (["--bots", "greedy,nobody"], "valid bots: easy, normal, hard, random, greedy"),
        (["--players", "9"], "2 to 8 players"),
        (["--set", "scoring=best"], "scoring"),
        (["--set", "nonsense"], "OPTION=VALUE"),
        (["--games", "0"], "--games"),
    ],
)
def test_sim_bad_arguments_exit_2_with_a_clear_message(capsys, args, message) -> None:
    status, out, err = run_sim(capsys, "--games", "1", *args)
    assert status == 2
    assert message in err and out == ""


def test_sim_runs_as_a_real_process() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "ono99tui", "sim", "--games", "3", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(completed.stdout)["games"] == 3


def test_sim_reports_intervals_and_rotates_seats(capsys) -> None:
    status, out, _ = run_sim(
        capsys, "--players", "3", "--games", "30", "--bots", "greedy,random", "--json")
    assert status == 0
    summary = json.loads(out)
    assert set(summary["intervals"]) == {"greedy", "random"}
    assert all(0 < half < 0.5 for half in summary["intervals"].values())
    assert set(summary["decision_ms"]["greedy"]) == {"p50", "p99"}
    from ono99tui.bots.arena import seating

    # Every seat holds each bot in turn: match m shifts the first match's seating by m.
    assert [seating(("greedy", "random"), 3, m) for m in range(3)] == [
        ("greedy", "random", "greedy"),
        ("greedy", "greedy", "random"),
        ("random", "greedy", "greedy"),
    ]


def test_same_deal_mode_pairs_each_deal_with_greedy_in_the_bots_seats(capsys) -> None:
    # Greedy replayed by greedy: every deal plays out the same, so the edge is exactly 0.
    status, out, _ = run_sim(capsys, "--players", "4", "--games", "40", "--bots",
                             "greedy,random", "--same-deal", "--json")
    assert status == 0
    same = json.loads(out)
    assert same["edge"] == 0 and same["edge_interval"] == 0
    assert same["bot_rate"] == same["baseline_rate"] > 0.5
    # Random in those seats instead: the same deals go clearly worse than with greedy.
    status, out, _ = run_sim(capsys, "--players", "4", "--games", "40", "--bots",
                             "random,greedy", "--same-deal")
    assert status == 0
    assert "edge -" in out and "paired by deal" in out


@pytest.mark.parametrize("rules", ["2022", "1980", "1980-set99"])
def test_duplicate_mode_compares_bots_that_held_the_same_cards(capsys, rules) -> None:
    status, out, _ = run_sim(
        capsys, "--rules", rules, "--players", "2", "--games", "40", "--seed", "5",
        "--bots", "greedy,random", "--duplicate", "--json",
    )  # fmt: skip
    assert status == 0
    summary = json.loads(out)
    assert summary["sets"] == 40 and summary["matches"] == 80 and summary["rules"] == rules
    levels = summary["levels"]
    assert set(levels) == {"greedy", "random"}
    # Two players: each hand is held by both, so one's edge is the other's loss.
    assert levels["greedy"]["edge_per_hand"] == pytest.approx(-levels["random"]["edge_per_hand"])
    assert levels["greedy"]["edge_per_hand"] - levels["greedy"]["edge_interval"] > 0
    assert levels["greedy"]["mean_place"] < levels["random"]["mean_place"]
    _, again, _ = run_sim(
        capsys, "--rules", rules, "--players", "2", "--games", "40", "--seed", "5",
        "--bots", "greedy,random", "--duplicate", "--json",
    )  # fmt: skip
    assert json.loads(again)["levels"] == levels


def test_duplicate_mode_text_and_its_conflict_with_same_deal(capsys) -> None:
    status, out, _ = run_sim(capsys, "--players", "3", "--games", "4", "--bots",
                             "greedy,random", "--duplicate")
    assert status == 0
    assert "4 duplicate sets of 2022 rules, 3 players" in out and "12 matches" in out
    assert "greedy" in out and "± " in out
    status, _, err = run_sim(capsys, "--duplicate", "--same-deal")
    assert status == 2 and "choose one" in err


def test_rate_rates_each_level_from_the_finishing_orders(capsys) -> None:
    """`--rate`: one rating per level from new, each match's finishing order rated as the
    host rates it; the reference is the same matches rated here through openskill's own
    model, from the arena's places."""
    from openskill.models import PlackettLuce

    from ono99tui.bots.arena import play_matches
    from ono99tui.game import preset

    status, out, _ = run_sim(capsys, "--players", "3", "--games", "30", "--seed", "4",
                             "--bots", "easy,normal,random", "--rate", "--json")
    assert status == 0
    ratings = json.loads(out)["ratings"]
    assert set(ratings) == {"easy", "normal", "random"}
    model = PlackettLuce()
    book = {level: model.rating() for level in ("easy", "normal", "random")}
    levels = {"easy": "easy", "normal": "normal", "greedy": "normal", "random": "random"}

    def rate(names: tuple[str, ...], places: tuple[int, ...]) -> None:
        teams = [[book[levels[name]]] for name in names]
        for name, (after,) in zip(names, model.rate(teams, ranks=[float(p) for p in places]),
                                  strict=True):
            book[levels[name]] = after

    play_matches(preset("2022"), 3, 30, 4, ("easy", "normal", "random"), on_result=rate)
    for level, rating in book.items():
        assert ratings[level]["mu"] == pytest.approx(rating.mu, abs=1e-3)
        assert ratings[level]["sigma"] == pytest.approx(rating.sigma, abs=1e-3)
        assert ratings[level]["matches"] == 30
        assert ratings[level]["shown"] == round(1000 + 40 * (rating.mu - 3 * rating.sigma))
    shown = [entry["shown"] for entry in ratings.values()]
    assert shown == sorted(shown, reverse=True)  # best first
    status, text, _ = run_sim(capsys, "--players", "3", "--games", "5", "--bots",
                              "easy,normal,random", "--rate")
    assert status == 0 and "ratings (OpenSkill Plackett-Luce" in text
    status, _, err = run_sim(capsys, "--games", "5", "--rate", "--same-deal")
    assert status == 2 and "--rate" in err

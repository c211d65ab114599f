"""`ono99 sim`: play many headless matches between bots and report who wins."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from ono99tui.commands.game_options import (
    GameOptionError,
    add_rules_option,
    checked_bot_list,
    checked_rules,
    rule_settings,
)
from ono99tui.i18n import N_, _

# Translated where it is shown (cli.py).
HELP = N_("play many headless matches between bots and report win rates and speed")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of `ono99 sim`."""
    add_rules_option(parser, settings=True)
    parser.add_argument(
        "--players", type=int, default=4, help=_("seats per match, 2 to 8 (default 4)")
    )
    parser.add_argument("--games", type=int, default=100, help=_("matches to play (default 100)"))
    parser.add_argument("--seed", type=int, default=0, help=_("random seed (default 0)"))
    parser.add_argument(
        "--bots",
        default="greedy,random",
        help=_("comma-separated bot levels (easy, normal, hard) or kinds (random, greedy), given "
               "to the seats in turn (default greedy,random)"),
    )
    parser.add_argument(
        "--same-deal",
        action="store_true",
        help=_("play each deal twice, the second time with greedy in the first bot's seats, and "
               "report the first bot's paired edge over greedy"),
    )
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help=_("play duplicate sets (docs/DUPLICATE.md): each deal once per seat rotation; "
               "--games counts sets; report each bot's edge over the bots that held the same "
               "cards"),
    )
    parser.add_argument(
        "--rate",
        action="store_true",
        help=_("rate the bots from every match's finishing order (OpenSkill, one rating per "
               "level, from new; not kept) and report each level's rating"),
    )
    parser.add_argument("--json", action="store_true", help=_("print one JSON object"))


def run(args: argparse.Namespace) -> int:
    """Play the matches and print the summary; 2 on a bad option."""
    from ono99tui.bots import UnknownBot
    from ono99tui.bots.arena import play_duplicate_sets, play_matches, play_same_deals
    from ono99tui.game import InvalidPlayerCount

    try:
        overrides = rule_settings(args.set)
        rules = checked_rules(args.rules, overrides)
        if args.games < 1:
            raise ValueError(_("--games must be at least 1"))
        bot_names = checked_bot_list(args.bots)
        if args.same_deal and args.duplicate:
            raise ValueError(_("--same-deal and --duplicate are two ways to compare: "
                               "choose one"))
        if args.same_deal and args.rate:
            raise ValueError(_("--rate rates the matches of a series: not with --same-deal"))
        if args.duplicate and args.rate:
            raise ValueError(_("--rate rates the matches of a series: not with --duplicate"))
        if args.duplicate:
            sets = play_duplicate_sets(rules, args.players, args.games, args.seed, bot_names)
            return _report_duplicate(sets, overrides, args.json)
        if args.same_deal:
            paired = play_same_deals(rules, args.players, args.games, args.seed, bot_names)
        else:
            rating = SimRatings() if args.rate else None
            result = play_matches(rules, args.players, args.games, args.seed, bot_names,
                                  on_result=None if rating is None else rating.add)
    except (GameOptionError, ValueError, UnknownBot, InvalidPlayerCount) as error:
        print(f"ono99 sim: {error}", file=sys.stderr)
        return 2
    if args.same_deal:
        return _report_same_deal(paired, overrides, args.json)
    summary = {
        "rules": result.rules,
        "options": {k: v for k, v in overrides.items()} if overrides else {},
        "players": result.players,
        "games": result.games,
        "seed": result.seed,
        "bots": list(result.bots),
        "wins": {name: round(count, 3) for name, count in result.wins.items()},
        "win_rates": {name: round(rate, 4) for name, rate in result.win_rates.items()},
        "intervals": {name: round(half, 4) for name, half in result.intervals.items()},
        "seat_shares": {name: round(share, 4) for name, share in result.seat_shares.items()},
        "mean_turns": round(result.mean_turns, 2),
        "mean_rounds": round(result.mean_rounds, 2),
        "seconds": round(result.seconds, 3),
        "matches_per_s": round(result.matches_per_s, 1),
        "decision_ms": {
            name: {"p50": round(p50, 3), "p99": round(p99, 3)}
            for name, (p50, p99) in result.decision_ms.items()
        },
    }
    if rating is not None:
        summary["ratings"] = rating.to_json()
    if args.json:
        print(json.dumps(summary))
        return 0
    print(
        f"{result.games} matches of {result.rules} rules, {result.players} players, "
        f"seed {result.seed}"
    )
    print("seats (rotated each match): "
          + ", ".join(f"{seat}={name}" for seat, name in enumerate(result.bots)))
    for name, rate in result.win_rates.items():
        share = result.seat_shares[name]
        half = result.intervals[name]
        p50, p99 = result.decision_ms[name]
        print(f"  {name:<10} wins {rate:7.1%} ± {half:.1%} (95%)  (holds {share:.0%} of the "
              f"seats; {p50:.2f}/{p99:.2f} ms per decision p50/p99)")
    print(f"mean turns per match {result.mean_turns:.1f}, mean rounds {result.mean_rounds:.2f}")
    if rating is not None:
        print("ratings (OpenSkill Plackett-Luce from new; shown = 1000 + 40(mu - 3 sigma)):")
        for level, entry in rating.to_json().items():
            print(f"  {level:<10} {entry['shown']:>5}  mu {entry['mu']:.2f} ± "
                  f"{entry['sigma']:.2f} (sigma)  {entry['matches']} matches; mu over the "
                  f"second half {entry['mu_second_half']:.2f} (sd "
                  f"{entry['mu_second_half_sd']:.2f})")
    print(f"{result.matches_per_s:.0f} matches/s ({result.seconds:.2f} s)")
    return 0


class SimRatings:
    """The levels' ratings over a series of matches, from new (`--rate`): one rating per
    bot name given (each level once, however many seats it has), as the host rates them.

    A rating never settles: every update adds the model's dynamics (tau), so σ stops near
    1.5 and μ wanders by about that much from match to match. Beside the last rating the
    summary gives each level's μ averaged over the second half of the series, with the
    standard deviation of its wander there: the steadier figure for placing the levels."""

    def __init__(self) -> None:
        from ono99tui.host.ratings import RatingBook

        self.book = RatingBook()
        # Each level's μ after every match, in order; and how often it finished at each
        # place (0 first; ties share the better place).
        self.history: dict[str, list[float]] = {}
        self.places: dict[str, list[int]] = {}

    def add(self, seat_names: tuple[str, ...], places: tuple[int, ...]) -> None:
        """Rate one match: `seat_names[i]` finished at `places[i]`."""
        from ono99tui.bots import level_of
        from ono99tui.host.ratings import BOT, Entrant, Rated, rate_match

        entrants = [Entrant(Rated(BOT, level_of(name)), place)
                    for name, place in zip(seat_names, places, strict=True)]
        self.book, _ = rate_match(self.book, entrants)
        for entrant in entrants:
            counts = self.places.setdefault(entrant.who.name, [0] * len(places))
            counts[entrant.place] += 1
        for who, rating in self.book.ratings.items():
            if who in {entrant.who for entrant in entrants}:
                self.history.setdefault(who.name, []).append(rating.mu)

    def to_json(self) -> dict[str, dict[str, Any]]:
        """Each level's rating, best first: shown number, mu, sigma, matches."""
        ranked = sorted(self.book.ratings.items(), key=lambda item: -item[1].shown)
        summary: dict[str, dict[str, Any]] = {}
        for who, rating in ranked:
            late = self.history.get(who.name, [])[len(self.history.get(who.name, [])) // 2:]
            mean = sum(late) / len(late) if late else rating.mu
            spread = (math.sqrt(sum((mu - mean) ** 2 for mu in late) / (len(late) - 1))
                      if len(late) > 1 else 0.0)
            summary[who.name] = {"shown": rating.shown, "mu": round(rating.mu, 3),
                                 "sigma": round(rating.sigma, 3), "matches": rating.matches,
                                 "mu_second_half": round(mean, 3),
                                 "mu_second_half_sd": round(spread, 3),
                                 "places": self.places.get(who.name, [])}
        return summary


def _report_same_deal(paired: Any, overrides: dict[str, Any], as_json: bool) -> int:
    """Print a same-deal comparison (`play_same_deals`)."""
    summary = {
        "rules": paired.rules,
        "options": dict(overrides) if overrides else {},
        "players": paired.players,
        "games": paired.games,
        "seed": paired.seed,
        "bot": paired.bot,
        "baseline": paired.baseline,
        "bot_rate": round(paired.bot_rate, 4),
        "bot_interval": round(paired.bot_interval, 4),
        "baseline_rate": round(paired.baseline_rate, 4),
        "edge": round(paired.edge, 4),
        "edge_interval": round(paired.edge_interval, 4),
        "seconds": round(paired.seconds, 3),
        "decision_ms": {"p50": round(paired.decision_ms[0], 3),
                        "p99": round(paired.decision_ms[1], 3)},
    }
    if as_json:
        print(json.dumps(summary))
        return 0
    print(f"{paired.games} deals of {paired.rules} rules, {paired.players} players, "
          f"seed {paired.seed}, each played twice")
    print(f"  {paired.bot} wins {paired.bot_rate:.1%} ± {paired.bot_interval:.1%}; "
          f"{paired.baseline} in the same seats and deals {paired.baseline_rate:.1%}")
    print(f"  edge {paired.edge:+.1%} ± {paired.edge_interval:.1%} (95%, paired by deal)")
    return 0


def _report_duplicate(sets: Any, overrides: dict[str, Any], as_json: bool) -> int:
    """Print a duplicate comparison (`play_duplicate_sets`)."""
    summary = {
        "rules": sets.rules,
        "options": dict(overrides) if overrides else {},
        "players": sets.players,
        "sets": sets.sets,
        "matches": sets.matches,
        "seed": sets.seed,
        "bots": list(sets.bots),
        "levels": {
            name: {"edge_per_hand": round(level.edge, 4),
                   "edge_interval": round(level.edge_interval, 4),
                   "mean_place": round(level.mean_place, 4),
                   "best_share": round(level.best_share, 4)}
            for name, level in sets.levels.items()
        },
        "seconds": round(sets.seconds, 3),
    }
    if as_json:
        print(json.dumps(summary))
        return 0
    print(f"{sets.sets} duplicate sets of {sets.rules} rules, {sets.players} players, "
          f"seed {sets.seed} ({sets.matches} matches: each deal once per seat rotation)")
    print("players of the first set: " + ", ".join(sets.bots))
    print("edge: places per hand better than the others who held the same cards")
    for name, level in sorted(sets.levels.items(), key=lambda item: -item[1].edge):
        print(f"  {name:<10} edge {level.edge:+.3f} ± {level.edge_interval:.3f} (95%)  "
              f"mean place {level.mean_place:.2f}  best on {level.best_share:.0%} of its hands")
    print(f"{sets.seconds:.2f} s")
    return 0

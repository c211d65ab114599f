"""Ratings across evenings: an OpenSkill rating (the Plackett–Luce model of the `openskill`
package, its default parameters) per player name and per bot level, updated from every
finished match's finishing order (`ono99tui.game.finish`).

Sans-IO and pure: a `RatingBook` is a value; `rate_match` returns the book after a match
and what changed. The host's core keeps the book and asks for the change to be written
(`outputs.RatingsChanged`); the file is the IO edge's (`ono99tui.host.journal.ratings_file`).

Who is rated: each seat dealt the match, people by their name and bots by their level
("Hard bot"): one rating per level, whatever the seat was called, so that the levels are
placed on one scale with the people who play them. Two seats of one level in a match are
rated as two players from the level's rating, and the level takes both updates (their
changes of μ added, their shrinking of σ² multiplied: as if rated one after the other). A
player who asked to be unrated (`Hello.unrated`) is left out: the others are rated on
their order among themselves. A match with fewer than two rated seats changes nothing. A
duplicate set (issue 28, not built yet) would call `rate_match` once for the set, with
the places its comparison gives, instead of once per deal.

What is shown: one number, `shown(rating)` = 1000 + 40 × (μ − 3σ), rounded: a new
player's is 1000 (μ 25, σ 25/3), and it rises as the rating grows surer as well as better
(the conservative "ordinal"; docs/PROTOCOL.md "Ratings"). `ono99 stats --ratings` also
prints μ ± σ.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
# A new rating: the model's prior.
NEW_MU = MODEL.mu
NEW_SIGMA = MODEL.sigma
# The shown number's offset and scale (see the module docstring).
SHOWN_BASE = 1000
SHOWN_SCALE = 40
# How many rated matches' ids the book keeps, so that a match is never rated twice (a
# restarted host that ends a match whose `won` record was lost).
RATED_KEPT = 500
# Each rating's shown numbers after its latest matches, kept for `ono99 stats --ratings
# --plot` (the oldest dropped first).
HISTORY_KEPT = 50

PLAYER = "player"
BOT = "bot"
# A bot level's rated name (the level names of ono99tui.bots).
BOT_LEVEL_NAMES: dict[str, str] = {"easy": "Easy bot", "normal": "Normal bot",
                                   "hard": "Hard bot", "random": "Random bot"}


@dataclass(frozen=True, slots=True)
class Rating:
    """One rating: the model's μ and σ, and the matches it was updated from."""

    mu: float = NEW_MU
    sigma: float = NEW_SIGMA
    matches: int = 0

    @property
    def shown(self) -> int:
        """The one number players see (see the module docstring)."""
        return shown(self.mu, self.sigma)


def shown(mu: float, sigma: float) -> int:
    """1000 + 40 × (μ − 3σ), rounded."""
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - 3 * sigma))


@dataclass(frozen=True, slots=True, order=True)
class Rated:
    """Who a rating belongs to: a person by name (`PLAYER`), or a bot level (`BOT`,
    "easy"/"normal"/"hard"/"random")."""

    kind: str
    name: str

    @property
    def label(self) -> str:
        """How it is named on screen: the person's name, or "Hard bot"."""
        return BOT_LEVEL_NAMES.get(self.name, self.name) if self.kind == BOT else self.name


@dataclass(frozen=True, slots=True)
class Entrant:
    """One seat of a finished match: who plays it, its place (0 first; ties equal), and
    whether its player asked not to be rated."""

    who: Rated
    place: int
    unrated: bool = False


@dataclass(frozen=True, slots=True)
class Change:
    """One rating before and after a match."""

    who: Rated
    before: Rating
    after: Rating

    @property
    def shown_change(self) -> int:
        """The shown number's change ("+23")."""
        return self.after.shown - self.before.shown


@dataclass(frozen=True, slots=True)
class RatingBook:
    """Every rating, the ids of the matches rated lately (never rated twice), and each
    rating's shown number after each of its last HISTORY_KEPT matches (`history`)."""

    ratings: Mapping[Rated, Rating] = field(default_factory=dict)
    rated: tuple[str, ...] = ()
    history: Mapping[Rated, tuple[int, ...]] = field(default_factory=dict)

    def get(self, who: Rated) -> Rating:
        """`who`'s rating (a new one if `who` has none)."""
        return self.ratings.get(who, Rating())

    def has(self, who: Rated) -> bool:
        """Has `who` been rated?"""
        return who in self.ratings

    def with_changes(self, changes: Sequence[Change], match_id: str | None) -> RatingBook:
        """The book with `changes` made and `match_id` noted as rated."""
        ratings = dict(self.ratings)
        history = dict(self.history)
        for change in changes:
            ratings[change.who] = change.after
            history[change.who] = (*history.get(change.who, ()),
                                   change.after.shown)[-HISTORY_KEPT:]
        rated = self.rated if match_id is None else (*self.rated, match_id)[-RATED_KEPT:]
        return RatingBook(ratings, rated, history)


class MergeError(ValueError):
    """A merge of two names that cannot be made; the message says why."""


def merged(book: RatingBook, old: str, new: str) -> RatingBook:
    """The book with the player `old`'s rating given to `new` (a rename): if `new` has
    none, `old`'s rating becomes `new`'s; if both have one, `new` keeps the surer one (the
    smaller σ) with both counts of matches added. MergeError if `old` has none, or the
    names are the same."""
    old_key, new_key = Rated(PLAYER, old), Rated(PLAYER, new)
    if old == new:
        raise MergeError(f"{old!r} and {new!r} are the same name")
    if old_key not in book.ratings:
        raise MergeError(f"nobody named {old!r} has a rating")
    ratings = dict(book.ratings)
    history = dict(book.history)
    moved = ratings.pop(old_key)
    moved_history = history.pop(old_key, ())
    kept = ratings.get(new_key)
    if kept is None:
        ratings[new_key] = moved
        history[new_key] = moved_history
    else:
        surer = kept if kept.sigma <= moved.sigma else moved
        ratings[new_key] = Rating(surer.mu, surer.sigma, kept.matches + moved.matches)
        if surer is moved:  # the history of the rating kept
            history[new_key] = moved_history
    return RatingBook(ratings, book.rated, {who: kept for who, kept in history.items() if kept})


def rate_match(book: RatingBook, entrants: Sequence[Entrant],
               match_id: str | None = None) -> tuple[RatingBook, tuple[Change, ...]]:
    """The book after one finished match, and each rated entrant's change (one per
    rating: a level with two seats has one change). Nothing changes for a match already
    rated (`match_id` in `book.rated`) or with fewer than two rated seats."""
    if match_id is not None and match_id in book.rated:
        return book, ()
    rated = [entrant for entrant in entrants if not entrant.unrated]
    if len(rated) < 2:
        return book, ()
    befores = [book.get(entrant.who) for entrant in rated]
    teams = [[MODEL.rating(mu=before.mu, sigma=before.sigma)] for before in befores]
    after_teams = MODEL.rate(teams, ranks=[float(entrant.place) for entrant in rated])
    # Per rating: (before, Σ Δμ, Π σ'²/σ²).
    moved: dict[Rated, tuple[Rating, float, float]] = {}
    for entrant, before, (after,) in zip(rated, befores, after_teams, strict=True):
        _, mu_sum, shrink = moved.get(entrant.who, (before, 0.0, 1.0))
        moved[entrant.who] = (before, mu_sum + after.mu - before.mu,
                              shrink * (after.sigma / before.sigma) ** 2)
    changes = tuple(
        Change(who, before, Rating(before.mu + mu_sum, before.sigma * math.sqrt(shrink),
                                   before.matches + 1))
        for who, (before, mu_sum, shrink) in moved.items())
    return book.with_changes(changes, match_id), changes

"""What changed at the table between two lobbies, as line mode says it."""

from __future__ import annotations

from itertools import pairwise

from netproto.wire.messages import Lobby, SeatInfo, SeatKind, TablePhase
from ono99tui.client.options import NO_OPTIONS
from ono99tui.line.room_news import lobby_news


def seat(number: int, name: str, *, bot: bool = False, ready: bool = False,
         connected: bool = True) -> SeatInfo:
    return SeatInfo(number, name, SeatKind.BOT if bot else SeatKind.HUMAN, ready, connected)


def lobby(phase: TablePhase, *seats: SeatInfo, you: int = 0) -> Lobby:
    return Lobby(phase=phase, seats=seats, host_seat=0, you=you, capacity=4)


def news(said: Lobby | None, after: Lobby, **kinds: bool) -> list[str]:
    return lobby_news(said, after, NO_OPTIONS, solo=kinds.get("solo", False),
                      spectating=False, host=kinds.get("host", True))


def test_the_room_is_told_once_then_only_what_changes() -> None:
    room = lobby(TablePhase.WAITING, seat(0, "ana"))
    assert news(None, room) == ["Waiting room: 1 of 4 seats taken.", "Seat 1, ana (you): host.",
                                "You host: g deals once someone is here to play against; b "
                                "adds a bot, o changes the rules."]
    joined = lobby(TablePhase.WAITING, seat(0, "ana"), seat(1, "bob"), seat(2, "Easy bot", bot=True))
    assert news(room, joined) == ["A player, bob, sat down in seat 2.",
                                  "A bot, Easy bot, sat down in seat 3.",
                                  "Someone to play against is here: type g to deal."]
    ready = lobby(TablePhase.WAITING, seat(0, "ana"), seat(1, "bob", ready=True),
                  seat(2, "Easy bot", bot=True))
    assert news(joined, ready) == ["bob is ready."]
    left = lobby(TablePhase.WAITING, seat(0, "ana"), seat(1, "Easy bot", bot=True))
    assert news(ready, left) == ["bob left the table."]
    assert news(left, left) == []


def test_the_host_is_told_when_g_can_deal_and_when_it_cannot() -> None:
    """Alone, "g deals" is not true: the table refuses a deal with one player. The host is
    told when someone to play against comes, and when the last one goes (or is away)."""
    alone = lobby(TablePhase.WAITING, seat(0, "ana"))
    assert news(None, alone)[-1] == ("You host: g deals once someone is here to play "
                                     "against; b adds a bot, o changes the rules.")
    joined = lobby(TablePhase.WAITING, seat(0, "ana"), seat(1, "bob"))
    assert news(alone, joined) == ["A player, bob, sat down in seat 2.",
                                   "Someone to play against is here: type g to deal."]
    assert news(None, joined)[-1] == "You host: g deals, b adds a bot, o changes the rules."
    away = lobby(TablePhase.WAITING, seat(0, "ana"), seat(1, "bob", connected=False))
    assert news(joined, away) == ["bob is away.", "Nobody is left to play against: g deals "
                                  "once someone is here (b adds a bot)."]
    bot = lobby(TablePhase.WAITING, seat(0, "ana"), seat(1, "Easy bot", bot=True))
    assert news(alone, bot)[-1] == "Someone to play against is here: type g to deal."
    # Only the host is told (a player does not deal), and only before a deal.
    assert news(alone, joined, host=False) == ["A player, bob, sat down in seat 2."]
    over = lobby(TablePhase.FINISHED, seat(0, "ana"), seat(1, "bob"))
    assert "Nobody is left" not in " ".join(
        news(over, lobby(TablePhase.FINISHED, seat(0, "ana"))))


def test_mid_match_only_people_going_and_coming_back_are_told() -> None:
    playing = lobby(TablePhase.PLAYING, seat(0, "ana"), seat(1, "bob"))
    away = lobby(TablePhase.PLAYING, seat(0, "ana"), seat(1, "bob", connected=False))
    assert news(None, playing) == []
    assert news(playing, away) == ["bob is away."]
    assert news(away, playing) == ["bob is back."]
    # The viewer's own seat is never told to them.
    assert news(playing, lobby(TablePhase.PLAYING, seat(0, "ana", connected=False), seat(1, "bob"))) == []


def test_a_solo_table_s_room_is_not_told() -> None:
    assert news(None, lobby(TablePhase.WAITING, seat(0, "you")), solo=True) == []


def test_a_duplicate_set_is_told_deal_by_deal_and_compared_at_its_end() -> None:
    """The set's progress when a deal of it starts, and, once the table says the match is
    over, its comparison (as the table sends it: `comparison_to_wire`) in sentences."""
    from ono99tui.client.options import options_from_wire
    from ono99tui.game.duplicate import compare
    from ono99tui.host.duplicate_set import comparison_to_wire
    from ono99tui.line.sentences import room_lines

    seats = (seat(0, "ana"), seat(1, "bob"), seat(2, "cy"))
    progress = {"duplicate": True,
                "duplicate_set": {"deal": 3, "of": 3, "players": ["ana", "bob", "cy"],
                                  "complete": False}}
    dealt = Lobby(phase=TablePhase.PLAYING, seats=seats, host_seat=0, you=0, capacity=3,
                  options=progress)
    waiting = Lobby(phase=TablePhase.FINISHED, seats=seats, host_seat=0, you=0, capacity=3)
    assert lobby_news(waiting, dealt, options_from_wire(progress), solo=False,
                      spectating=False, host=True) == ["Duplicate set: deal 3 of 3."]
    # A's set of docs/DUPLICATE.md's example: A +4.50, C -1.50, B -3.00.
    results = {"duplicate": comparison_to_wire(
        compare(("ana", "bob", "cy"), [(1, 2, 3), (2, 1, 3), (3, 2, 1)]))}
    done = {**progress, "duplicate_set": {**progress["duplicate_set"], "complete": True}}
    over = Lobby(phase=TablePhase.FINISHED, seats=seats, host_seat=0, you=0, capacity=3,
                 options=done, results=results)
    told = lobby_news(dealt, over, options_from_wire(done), solo=False, spectating=False,
                      host=True)
    assert told == [
        "Duplicate set over: each player against those who held the same cards:",
        "Edges, in places: 1. ana +4.50, 2. cy -1.50, 3. bob -3.00.",
        "Seat 1's cards: best played by ana.",
        "Seat 2's cards: best played by ana.",
        "Seat 3's cards: best played by ana.",
    ]
    assert room_lines(over, options_from_wire(done))[-1] == \
        "Duplicate set: all 3 deals played."
    # A table that says nothing of a set (or says it in a shape no set has) tells none.
    broken = Lobby(phase=TablePhase.FINISHED, seats=seats, host_seat=0, you=0, capacity=3,
                   results={"duplicate": {"rotations": "three"}})
    assert lobby_news(dealt, broken, NO_OPTIONS, solo=False, spectating=False,
                      host=True) == []


def test_ratings_are_told_beside_each_seat_and_after_a_match() -> None:
    room = Lobby(phase=TablePhase.WAITING, host_seat=0, you=0, capacity=4, seats=(
        SeatInfo(0, "ana", SeatKind.HUMAN, False, True, rating=1043),
        SeatInfo(1, "Hard bot", SeatKind.BOT, True, True, rating=1924),
        SeatInfo(2, "cy", SeatKind.HUMAN, True, True, unrated=True)))  # asked to be unrated
    assert news(None, room)[1:4] == ["Seat 1, ana (you): host, rating 1043.",
                                     "Seat 2, Hard bot: bot, rating 1924.",
                                     "Seat 3, cy: ready, not rated."]
    over = Lobby(phase=TablePhase.FINISHED, host_seat=0, you=0, capacity=4, seats=room.seats,
                 results={"winners": [1], "ratings": [{"rating": 1020, "change": -23},
                                                      {"rating": 1931, "change": 7}, None]})
    assert news(room, over) == ["Ratings now: ana 1020 (-23), Hard bot 1931 (+7)."]
    unrated = Lobby(phase=TablePhase.FINISHED, host_seat=0, you=0, capacity=4,
                    seats=room.seats, results={"winners": [1]})
    assert news(room, unrated) == []


def test_each_option_the_host_changes_is_named_once() -> None:
    # Found playing: setting the turn clock, the hints or the spectators' chat was told as
    # "The rules are now preset 1980: type r to hear them.", the same words each time.
    from ono99tui.client.options import options_from_wire
    from ono99tui.game.codec import rules_to_wire
    from ono99tui.game.rules import preset

    def room(**options: object) -> Lobby:
        return Lobby(phase=TablePhase.WAITING, seats=(seat(0, "ana"), seat(1, "bob")),
                     host_seat=0, you=1, capacity=4, options=dict(options))

    rules = rules_to_wire(preset("1980"))
    steps = [room(rules=rules), room(rules=rules, turn_seconds=30),
             room(rules=rules, turn_seconds=30, hints=True),
             room(rules=rules, turn_seconds=30, hints=True, spectator_chat=False),
             room(rules=rules_to_wire(preset("2022")), turn_seconds=None, hints=False,
                  spectator_chat=False)]
    told = [lobby_news(before, after, options_from_wire(after.options), solo=False,
                       spectating=False, host=False) for before, after in pairwise(steps)]
    assert told == [
        ["The turn clock now gives 30 seconds a move."],
        ["Hints are now allowed: type h on your turn."],
        ["Spectators may no longer talk."],
        ["The rules are now preset 2022: type r to hear them.", "The turn clock is now off.",
         "Hints are now off."],
    ]
    on = room(rules=rules, duplicate=True)
    assert lobby_news(steps[0], on, options_from_wire(on.options), solo=False,
                      spectating=False, host=False) == [
        "The table now deals duplicate sets: each deal once per seat rotation."]
    assert lobby_news(on, steps[0], options_from_wire(steps[0].options), solo=False,
                      spectating=False, host=False) == ["Duplicate sets are now off."]


def test_a_player_switching_their_rating_is_told_in_a_sentence() -> None:
    def room(*, ana: bool, cy: bool) -> Lobby:
        return Lobby(phase=TablePhase.WAITING, host_seat=0, you=0, capacity=4, seats=(
            SeatInfo(0, "ana", SeatKind.HUMAN, False, True, unrated=ana),
            SeatInfo(1, "cy", SeatKind.HUMAN, True, True, unrated=cy)))

    rated = room(ana=False, cy=False)
    assert news(rated, room(ana=True, cy=False)) == [
        "Your play is not rated from the next match on: your rating stays as it is."]
    assert news(room(ana=True, cy=False), rated) == [
        "Your play is rated again from the next match on."]
    assert news(rated, room(ana=False, cy=True)) == ["cy plays unrated from the next match on."]
    assert news(room(ana=False, cy=True), rated) == ["cy is rated again from the next match on."]


def test_the_viewer_s_own_ready_is_told_as_theirs() -> None:
    # Typing y said "bob is ready." to bob himself, as if it were someone else's news.
    room = lobby(TablePhase.WAITING, seat(0, "ana"), seat(1, "bob"), you=1)
    ready = lobby(TablePhase.WAITING, seat(0, "ana", ready=True), seat(1, "bob", ready=True),
                  you=1)
    assert news(room, ready, host=False) == ["ana is ready.", "You are ready."]
    assert news(ready, room, host=False) == ["ana is not ready.", "You are not ready."]


def test_solo_s_default_name_is_not_marked_you_twice() -> None:
    # "Seat 1, you (you): host." in English, "আপনি (আপনি)" in Bengali.
    assert news(None, lobby(TablePhase.WAITING, seat(0, "you")))[1] == "Seat 1, you: host."

"""The core's journal records and a restart from them, on a fake clock (no sockets).

A table plays part of a match; its journal records, in the file's form (`record_to_map`),
are all a second core gets: it takes the match up (`TableCore.restore`) and must stand
exactly where the first stood: same state, same view numbers, same tokens (known to it only
by hash), bots back in their seats, humans held for the grace period.
"""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from core_clock_helpers import ClockedTable, config

from netproto.wire.errors import BadHostKey, BadToken
from netproto.wire.messages import Ready, SetOptions, View
from ono99tui.game import MATCH_OVER
from ono99tui.host.core import FINISHED, PLAYING
from ono99tui.host.journal.file import token_hash
from ono99tui.host.journal.records import JOURNAL_RECORDS, MovePlayed, replay
from ono99tui.host.journal.resume import (
    ResumeError,
    matches_from_records,
    record_to_map,
    resume_point,
    standing_after,
)
from ono99tui.host.outputs import GraceExpiry, Output, Send


class JournaledTable(ClockedTable):
    """A ClockedTable that also keeps every journal record in the file's form."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.records: list[dict[str, Any]] = []

    def run(self, outputs: list[Output]) -> list[Output]:
        for output in outputs:
            if isinstance(output, JOURNAL_RECORDS):
                self.records.append(record_to_map(output))
        return super().run(outputs)


def half_played(grace: float = 30.0) -> tuple[JournaledTable, dict[str, int], dict[str, str]]:
    """Two humans and two bots, well into a match; the humans' peers and tokens."""
    table = JournaledTable(config(capacity=4, start_when=4, bot_delay=0.5,
                                  grace_seconds=grace))
    peers = {name: table.connect(name) for name in ("ana", "bo")}
    tokens = {name: table.welcome(peer).token for name, peer in peers.items()}
    table.run(table.core.add_bot("greedy", table.now))
    table.run(table.core.add_bot("random", table.now))
    assert table.core.phase == PLAYING
    table.play_until(lambda: table.moves_played() >= 12)
    return table, peers, tokens


def restarted(records: list[dict[str, Any]], grace: float = 30.0) -> JournaledTable:
    """A new core that took up the match `records` left unfinished."""
    point = resume_point(records)
    assert point is not None
    table = JournaledTable(config(capacity=4, start_when=4, bot_delay=0.5,
                                  grace_seconds=grace))
    table.run(table.core.restore(point, table.now))
    return table


def test_the_header_holds_what_a_restart_needs_and_never_a_token() -> None:
    table, _, tokens = half_played()
    header = table.records[0]
    assert header["kind"] == "match"
    assert header["kinds"] == ("human", "human", "greedy", "random")
    assert header["token_hashes"] == (token_hash(tokens["ana"]), token_hash(tokens["bo"]),
                                      None, None)
    assert header["host_seat"] == 0 and header["number"] == 1
    assert header["seqs"] == (1, 1, 0, 0)  # the deal's view went to both humans
    packed = b"".join(msgpack.packb(record) for record in table.records)
    for token in tokens.values():
        assert token.encode() not in packed
    # Each move records every seat's view number once its views are out.
    last = table.records[-1]
    assert last["seqs"] == tuple(seat.seq for seat in table.core.seats)


def test_a_moves_record_comes_before_its_views() -> None:
    table, _, _ = half_played()
    index = table.human_to_act()
    while index is None:
        table.advance(0.5)
        index = table.human_to_act()
    state = table.core.state
    assert state is not None
    from ono99tui.game import legal_moves

    peer = table.core.seats[index].peer
    assert peer is not None
    outputs = table.play(peer, legal_moves(state, index)[0])
    kinds = [type(output) for output in outputs]
    first_view = next(i for i, output in enumerate(outputs)
                      if isinstance(output, Send) and isinstance(output.message, View))
    assert kinds.index(MovePlayed) < first_view


def test_a_restarted_core_stands_where_the_killed_one_stood() -> None:
    before, _, tokens = half_played()
    after = restarted(before.records)
    assert after.core.state == before.core.state
    assert after.core.phase == PLAYING
    assert [seat.seq for seat in after.core.seats] == [seat.seq for seat in before.core.seats]
    assert [seat.name for seat in after.core.seats] == [seat.name for seat in before.core.seats]
    assert [seat.human for seat in after.core.seats] == [True, True, False, False]
    # The humans are held as after a drop: the grace period runs from the restart.
    for seat in after.core.seats[:2]:
        assert after.deadline(GraceExpiry(seat.id)) == pytest.approx(30.0)
    # Their old tokens (known only by hash) resume them, at the next view number.
    for index, name in enumerate(("ana", "bo")):
        peer = after.resume(tokens[name])
        assert after.welcome(peer).token == tokens[name]
        assert after.views(peer)[-1].seq == before.core.seats[index].seq + 1
    assert after.core.host is after.core.seats[0]


def test_views_sent_for_a_clock_started_mid_match_are_numbered_on_after_a_restart() -> None:
    before, peers, tokens = half_played()
    before.send(peers["ana"], SetOptions(options={"turn_seconds": 40}))
    after = restarted(before.records)
    assert [seat.seq for seat in after.core.seats] == [seat.seq for seat in before.core.seats]
    peer = after.resume(tokens["bo"])
    assert after.views(peer)[-1].seq == before.core.seats[1].seq + 1


def test_a_wrong_token_resumes_nothing_after_a_restart() -> None:
    before, _, _ = half_played()
    after = restarted(before.records)
    with pytest.raises(BadToken):
        after.resume("x" * 32)


def test_the_taken_up_match_finishes_and_replays_legally_with_nothing_doubled() -> None:
    before, _, tokens = half_played()
    moves_before = before.moves_played()
    after = restarted(before.records)
    for name in ("ana", "bo"):
        after.resume(tokens[name])
    after.play_until(lambda: after.core.phase == FINISHED)
    records = before.records + after.records
    matches = matches_from_records(records)
    assert len(matches) == 1
    match = matches[0]
    assert match.moves[:moves_before] == before.journal[-1].moves
    final = replay(match)  # raises if a move were doubled (or any were illegal)
    assert final.phase == MATCH_OVER and final == after.core.state
    assert match.winners == tuple(final.winners)
    assert resume_point(records) is None  # a finished match is not taken up again


def test_a_second_restart_keeps_the_resumed_view_numbers() -> None:
    before, _, tokens = half_played()
    after = restarted(before.records)
    peer = after.resume(tokens["ana"])
    seq = after.views(peer)[-1].seq
    again = restarted(before.records + after.records)
    assert again.core.seats[0].seq == seq
    assert again.core.state == after.core.state


def test_events_a_seat_missed_while_away_wait_for_it_after_a_restart() -> None:
    before, peers, _ = half_played()
    before.drop(peers["bo"])
    moves = before.moves_played()
    before.play_until(lambda: before.moves_played() >= moves + 3)
    after = restarted(before.records)
    assert after.core.seats[1].pending_events == before.core.seats[1].pending_events
    assert after.core.seats[1].pending_events


def test_without_grace_a_restarted_match_gives_the_humans_stand_ins() -> None:
    before, _, _ = half_played(grace=0)
    after = restarted(before.records, grace=0)
    assert all(seat.bot_plays for seat in after.core.seats)
    after.play_until(lambda: after.core.phase == FINISHED)


def test_the_next_deal_after_a_restart_gets_the_seed_it_would_have_had() -> None:
    before, _, _ = half_played()
    seeds_before = before.core._seeds.getstate()
    after = restarted(before.records)
    assert after.core._seeds.getstate() == seeds_before


def test_a_journal_with_a_refused_move_is_not_taken_up() -> None:
    before, _, _ = half_played()
    records = list(before.records)
    records.append(records[-1])  # the same move twice: the engine refuses the second
    point = resume_point(records)
    assert point is not None
    table = JournaledTable(config(capacity=4))
    with pytest.raises(ResumeError):
        table.run(table.core.restore(point, 0.0))
    assert table.core.seats == [] and table.core.state is None



def test_the_operators_app_takes_its_seat_back_with_the_host_key_after_a_restart() -> None:
    # `ono99 host` with its app: the app restarts with the host and never had its seat's
    # token; the host key (the new run's) gives it the host's seat back, not a spectator's.
    before = JournaledTable(config(capacity=3, start_when=3, host_key="old-key",
                                   bot_delay=0.5))
    operator = before.connect("host", host_key="old-key")
    before.connect("guest")
    before.run(before.core.add_bot("greedy", before.now))
    before.play_until(lambda: before.moves_played() >= 6)
    point = resume_point(before.records)
    assert point is not None
    after = JournaledTable(config(capacity=3, start_when=3, host_key="new-key"))
    after.run(after.core.restore(point, 0.0))
    with pytest.raises(BadHostKey):  # a wrong key takes no seat, the host's least of all
        after.connect("mallory", host_key="wrong")
    assert after.core.seats[0].peer is None
    app = after.connect("host", host_key="new-key")
    welcome = after.welcome(app)
    assert (welcome.role, welcome.seat, welcome.host) == ("player", 0, True)
    assert after.views(app)[-1].seq == before.core.seats[0].seq + 1
    assert GraceExpiry(after.core.seats[0].id) not in after.timers
    assert operator != app


def test_a_table_with_fewer_seats_than_the_journals_match_does_not_take_it_up() -> None:
    before, _, _ = half_played()
    point = resume_point(before.records)
    assert point is not None
    table = JournaledTable(config(capacity=3))
    with pytest.raises(ResumeError, match="4 seats"):
        table.run(table.core.restore(point, 0.0))
    assert table.core.seats == []


def test_the_evenings_standings_go_on_after_a_restart() -> None:
    # One match played to its end, a rematch dealt, then the host is killed: the restarted
    # table must still count the first match in "won here / played".
    table = JournaledTable(config(capacity=3, start_when=3, bot_delay=0.5))
    peers = [table.connect(name) for name in ("Ann", "Bob", "Cy")]
    table.play_until(lambda: table.core.phase == FINISHED)
    for peer in peers:
        table.send(peer, Ready(ready=True))
    table.advance(1.0)
    assert table.core.phase == PLAYING and table.core.matches_dealt == 2
    first_winners = table.lobby(peers[0]).results  # the standings after match 1
    header = [record for record in table.records if record["kind"] == "match"][-1]
    assert header["played"] == {"Ann": 1, "Bob": 1, "Cy": 1}
    assert sum(header["won"].values()) >= 1
    point = resume_point(table.records)
    assert point is not None
    after = JournaledTable(config(capacity=3, start_when=3, bot_delay=0.5))
    after.run(after.core.restore(point, after.now))
    assert after.core._matches_played == {"Ann": 1, "Bob": 1, "Cy": 1}
    assert after.core._matches_won == header["won"]
    assert first_winners["matches_played"] == [1, 1, 1]


def test_standings_that_are_not_a_map_of_counts_are_not_taken_up() -> None:
    before, _, _ = half_played()
    records = [dict(record) for record in before.records]
    records[0]["won"] = {"ana": -1}
    with pytest.raises(ResumeError, match="standings"):
        resume_point(records)
    records[0].pop("won")
    records[0].pop("played")
    point = resume_point(records)  # a journal from before standings were recorded
    assert point is not None and point.won == {} and point.played == {}


# --- the table's options, a match that ended without its end, closing on purpose ----------


def test_the_header_and_each_change_mid_match_record_the_tables_options() -> None:
    from ono99tui.host.table_config import with_table_options

    table = JournaledTable(config(capacity=4, start_when=4, bot_delay=0.5, hints=True,
                                  turn_seconds=30.0, timeouts_to_abandon=2,
                                  takeover_bot="hard", spectator_chat=False))
    peers = [table.connect(name) for name in ("ana", "bo")]
    for _ in range(2):
        table.run(table.core.add_bot("greedy", table.now))
    header = table.records[0]
    assert header["table"] == {"turn_seconds": 30.0, "timeouts_to_abandon": 2, "hints": True,
                               "spectator_chat": False, "bot_level": "hard",
                               "duplicate": False}
    table.play_until(lambda: table.moves_played() >= 4)
    table.send(peers[0], SetOptions(options={"turn_seconds": 45, "spectator_chat": True}))
    changed = [record for record in table.records if record["kind"] == "options"]
    assert changed == [{"kind": "options", "table": header["table"] | {
        "turn_seconds": 45.0, "spectator_chat": True}}]
    table.send(peers[0], SetOptions(options={"turn_seconds": 45}))  # no change: no record
    assert len([record for record in table.records if record["kind"] == "options"]) == 1
    point = resume_point(table.records)
    assert point is not None and point.table == changed[0]["table"]
    # What the restarted host's table is made with: the journal's options over the
    # command line's (which here has none of them).
    restored = with_table_options(config(capacity=4), point.table)
    after = JournaledTable(restored)
    after.run(after.core.restore(point, 0.0))
    assert after.core.table_options() == changed[0]["table"]
    assert after.core.turn_seconds == 45.0 and after.core.hints is True
    assert after.core.config.takeover_bot == "hard"
    assert after.core.config.timeouts_to_abandon == 2


def test_every_option_the_host_may_set_is_among_the_journaled_table_options() -> None:
    # "Any later option": what `set_options` takes besides the rules must come back after
    # a restart; a new option left out of `table_options` fails here.
    table = JournaledTable(config(capacity=2))
    host = table.connect("ana")
    settable = {"turn_seconds": 20, "spectator_chat": False, "hints": True, "duplicate": True}
    table.send(host, SetOptions(options=settable))
    options = table.core.table_options()
    lobby_options = table.lobby(host).options
    for name, value in settable.items():
        assert options[name] == value == lobby_options[name]
    assert {"timeouts_to_abandon", "bot_level"} <= options.keys()
    assert all(lobby_options[name] == value for name, value in options.items())


def all_moves_but_the_end() -> tuple[JournaledTable, list[dict[str, Any]], dict[str, str]]:
    """A match played to its end; its records without the `won` (a power cut took it)."""
    table = JournaledTable(config(capacity=3, start_when=3, bot_delay=0.5, host_key="k"))
    peers = {"ana": table.connect("ana", host_key="k"), "bo": table.connect("bo")}
    tokens = {name: table.welcome(peer).token for name, peer in peers.items()}
    table.run(table.core.add_bot("greedy", table.now))
    table.play_until(lambda: table.core.phase == FINISHED)
    assert table.records[-1]["kind"] == "won"
    return table, table.records[:-1], tokens


def test_a_match_whose_end_was_not_recorded_is_taken_up_finished_with_its_results() -> None:
    before, records, tokens = all_moves_but_the_end()
    point = resume_point(records)
    assert point is not None
    after = JournaledTable(config(capacity=3, start_when=3, bot_delay=0.5, host_key="new"))
    after.run(after.core.restore(point, 0.0))
    assert after.core.phase == FINISHED  # not "playing" for ever with no move to make
    assert after.records == [before.records[-1]]  # the `won` it lacked, derived again
    assert after.core._results["winners"] == list(before.core.state.winners)  # type: ignore[union-attr]
    assert after.core._matches_won == before.core._matches_won
    # Everyone comes back to the results (the host's app with its key), and a rematch
    # comes once they are ready.
    app = after.connect("ana", host_key="new")
    bo = after.resume(tokens["bo"])
    assert (after.welcome(app).seat, after.welcome(app).host) == (0, True)
    lobby = after.lobby(bo)
    assert lobby.phase == "finished" and lobby.results["winners"] == after.core._results[
        "winners"]
    after.send(bo, Ready(ready=True))
    after.run(after.core.start(after.now))
    assert after.core.phase == PLAYING and after.core.matches_dealt == 2


def test_a_restart_at_a_finished_table_goes_on_counting_from_its_last_match() -> None:
    before, _, _ = all_moves_but_the_end()
    standing = standing_after(before.records)
    assert standing is not None and standing.number == 1
    assert standing.won == before.core._matches_won
    assert standing.played == before.core._matches_played == {"ana": 1, "bo": 1,
                                                              "Greedy bot": 1}
    after = JournaledTable(config(capacity=3, start_when=3, bot_delay=0.5))
    after.run(after.core.go_on_from(standing, 0.0))
    peers = [after.connect(name) for name in ("ana", "bo")]
    assert after.lobby(peers[0]).results["matches_won"][:2] == [
        before.core._matches_won.get(name, 0) for name in ("ana", "bo")]
    after.run(after.core.add_bot("greedy", after.now))
    assert after.records[0]["number"] == 2  # not match 1 again
    assert after.records[0]["played"] == standing.played


def test_closing_on_purpose_ends_the_match_and_a_signal_does_not() -> None:
    table, _, _ = half_played()
    table.run(table.core.close(table.now))
    assert table.records[-1]["kind"] == "move"  # stopped by a signal: to be taken up
    assert resume_point(table.records) is not None
    table, _, _ = half_played()
    table.run(table.core.close(table.now, on_purpose=True))
    assert table.records[-1] == {"kind": "abandoned", "reason": "closed"}
    assert resume_point(table.records) is None
    standing = standing_after(table.records)
    assert standing is not None and standing.played == {}  # counted for nobody


def test_closing_a_finished_table_on_purpose_records_nothing() -> None:
    table, _, _ = all_moves_but_the_end()
    count = len(table.records)
    table.run(table.core.close(table.now, on_purpose=True))
    assert len(table.records) == count


def test_a_restart_between_matches_deals_the_next_with_the_last_matchs_rules_and_options(
) -> None:
    # Played by hand: a host set points scoring and a 45 s clock, the match ended, the host
    # was killed at the results and started again with the same command: the next match
    # was dealt single-round with no clock, the command line's.
    from ono99tui.game import preset
    from ono99tui.host.hosting import going_on_with

    before = JournaledTable(config(capacity=3, start_when=3, bot_delay=0.5, host_key="k"))
    ana = before.connect("ana", host_key="k")
    before.connect("bo")
    before.send(ana, SetOptions(options={"rules": {"scoring": "points-lowest", "target": 40},
                                         "hints": True}))
    before.run(before.core.add_bot("greedy", before.now))
    before.play_until(lambda: before.moves_played() >= 3)
    before.send(ana, SetOptions(options={"turn_seconds": 45}))  # mid-match: journaled
    before.play_until(lambda: before.core.phase == FINISHED)
    standing = standing_after(before.records)
    assert standing is not None and standing.rules == before.core.rules
    assert standing.table["turn_seconds"] == 45.0 and standing.table["hints"] is True

    command_line = config(capacity=3, start_when=3, bot_delay=0.5, rules=preset("2022"))
    notices: list[str] = []
    going_on = going_on_with(command_line, standing, notices)
    assert going_on.rules.scoring == "points-lowest" and going_on.rules.target == 40
    assert going_on.turn_seconds == 45.0 and going_on.hints is True
    assert "goes on with the rules and options of its last match" in notices[0]
    after = JournaledTable(going_on)
    after.run(after.core.go_on_from(standing, 0.0))
    for name in ("ana", "bo"):
        after.connect(name)
    after.run(after.core.add_bot("greedy", after.now))
    assert after.records[0]["rules"] == before.records[0]["rules"]
    assert after.records[0]["table"]["turn_seconds"] == 45.0

    # Options this table cannot be cost only themselves, with a notice; so do rules this
    # version cannot read (the evening's standings go on either way).
    records = [dict(record) for record in before.records]
    records[0] = records[0] | {"rules": {"deck": "moon"}, "table": {"turn_seconds": "soon"}}
    records = [record for record in records if record["kind"] != "options"]
    broken = standing_after(records)
    assert broken is not None and broken.rules is None and broken.number == 1
    notices = []
    assert going_on_with(command_line, broken, notices) == command_line
    assert "not usable" in notices[0]

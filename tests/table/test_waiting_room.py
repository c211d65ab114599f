"""The waiting room over real sockets: host rights, bots, options, names, spectators."""

from __future__ import annotations

import asyncio

import pytest
from host_table_helpers import FAST_CLIENT, serve

from netproto.client import TableClient
from netproto.client_errors import ClientError, HandshakeRefused
from netproto.wire.messages import Error, Lobby, View
from ono99tui.game.codec import move_to_wire, view_from_wire
from ono99tui.host.outputs import BotTurn


async def connect(port: int, name: str, **options: object) -> TableClient:
    return await TableClient.connect("127.0.0.1", port, name=name, settings=FAST_CLIENT,
                                     **options)  # type: ignore[arg-type]


async def error_after(client: TableClient, action: object) -> Error:
    await action  # type: ignore[misc]
    return await client.wait_for(Error, 2)


async def test_only_the_host_may_run_the_table() -> None:
    server = await serve(capacity=4)
    try:
        host = await connect(server.port, "Host")
        guest = await connect(server.port, "Guest")
        assert host.is_host and not guest.is_host
        for action in (guest.start(), guest.add_bot("greedy"), guest.remove_bot(0),
                       guest.set_options(preset="1980")):
            assert (await error_after(guest, action)).code == "not-host"
        assert (await error_after(host, host.add_bot("clever"))).code == "unknown-bot"
        await host.add_bot("random")
        lobby = await host.wait_for(Lobby, 2, lambda m: len(m.seats) == 3)
        assert lobby.seats[2].kind == "bot" and lobby.seats[2].name == "Random bot"
        assert (await error_after(host, host.remove_bot(1))).code == "not-a-bot"
        assert (await error_after(host, host.set_options(preset="1999"))).code == "bad-options"
        assert (await error_after(host, host.set_options(rules={"bust_at": "99"}))).code \
            == "bad-options"
        await host.set_options(preset="1980-set99", rules={"late_draw_penalty": True})
        lobby = await host.wait_for(Lobby, 2, lambda m: m.options["preset"] == "1980-set99")
        assert lobby.options["rules"]["late_draw_penalty"] is True
        await host.remove_bot(2)
        await host.wait_for(Lobby, 2, lambda m: len(m.seats) == 2)
        await host.start()
        await host.wait_for(Lobby, 2, lambda m: m.phase == "playing")
        assert server.table.state is not None and server.table.state.rules.name == "1980-set99"
        await guest.wait_for(Lobby, 2, lambda m: m.phase == "playing")
        with pytest.raises(ClientError):
            await guest.ready()  # the waiting room's messages are refused while dealing
    finally:
        await server.stop()


async def test_start_needs_two_players_and_the_host_leaving_passes_rights_on() -> None:
    server = await serve(capacity=3, grace_seconds=5.0)
    try:
        host = await connect(server.port, "Host")
        assert (await error_after(host, host.start())).code == "not-enough-players"
        guest = await connect(server.port, "Guest")
        assert guest.seat == 1
        await host.close()  # a goodbye frees the seat at once
        lobby = await guest.wait_for(Lobby, 2, lambda m: len(m.seats) == 1)
        assert lobby.you == 0 and guest.seat == 0 and guest.is_host
    finally:
        await server.stop()


async def test_names_are_cleaned_and_made_unique() -> None:
    server = await serve(capacity=3)
    try:
        first = await connect(server.port, "\x1b[31mAnn\x1b[0m")
        second = await connect(server.port, "Ann")
        with pytest.raises(HandshakeRefused) as refused:
            await connect(server.port, "\x07\x1b[2J")
        assert refused.value.code == "bad-name"
        lobby = await second.wait_for(Lobby, 2, lambda m: len(m.seats) == 2)
        assert [seat.name for seat in lobby.seats] == ["Ann", "Ann 2"]
        await first.close()
    finally:
        await server.stop()


async def test_password_protects_the_table() -> None:
    server = await serve(capacity=2, password="sesame")
    try:
        with pytest.raises(HandshakeRefused) as refused:
            await connect(server.port, "Eve")
        assert refused.value.code == "bad-password"
        with pytest.raises(HandshakeRefused):
            await connect(server.port, "Eve", password="guess")
        ann = await connect(server.port, "Ann", password="sesame")
        assert ann.role == "player"
    finally:
        await server.stop()


async def test_newcomers_watch_a_full_or_playing_table() -> None:
    server = await serve(capacity=2, start_when=2)
    try:
        await connect(server.port, "Ann")
        await connect(server.port, "Bob")
        late = await connect(server.port, "Cat")
        assert late.role == "spectator" and late.seat is None and late.token is None
        view = await late.wait_for(View, 2)
        watched = view_from_wire(view.view)
        assert watched.seat is None and watched.hand == () and watched.legal_moves == ()
        with pytest.raises(ClientError):
            await late.send_move({"kind": "draw", "seat": 0}, seq=view.seq)
        watcher = await connect(server.port, "Dan", spectate=True)
        lobby = await watcher.wait_for(Lobby, 2, lambda m: m.spectators == 2)
        assert lobby.you is None
    finally:
        await server.stop()


async def test_moves_out_of_turn_stale_or_for_another_seat_are_refused() -> None:
    server = await serve(capacity=2, start_when=2)
    try:
        clients = [await connect(server.port, name) for name in ("Ann", "Bob")]
        views = [await client.wait_for(View, 2) for client in clients]
        actor = next(i for i, v in enumerate(views) if view_from_wire(v.view).legal_moves)
        idle = 1 - actor
        move = view_from_wire(views[actor].view).legal_moves[0]
        wrong_seat = move_to_wire(move)
        await clients[idle].send_move(wrong_seat, seq=views[idle].seq)
        assert (await clients[idle].wait_for(Error, 2)).code == "wrong-seat"
        own = dict(wrong_seat, seat=idle)
        await clients[idle].send_move(own, seq=views[idle].seq)
        assert (await clients[idle].wait_for(Error, 2)).code == "not-your-turn"
        await clients[actor].send_move({"kind": "play", "seat": actor, "card": "jack"},
                                       seq=views[actor].seq)
        error = await clients[actor].wait_for(Error, 2)
        assert error.code == "malformed-move" and error.reason.startswith("the move map")
        await clients[actor].send_move(move_to_wire(move), seq=views[actor].seq - 1)
        assert (await clients[actor].wait_for(Error, 2)).code == "stale-seq"
        assert server.table.journal[0].moves == []  # nothing was applied
        await clients[actor].send_move(move_to_wire(move), seq=views[actor].seq)
        await clients[actor].wait_for(View, 2, lambda v: v.seq > views[actor].seq)
        assert server.table.journal[0].moves == [move_to_wire(move)]
    finally:
        await server.stop()


async def test_late_draw_rule_makes_the_next_bot_wait_for_the_human() -> None:
    from ono99tui.game import preset

    rules = preset("2022").replace(late_draw_penalty=True)
    server = await serve(capacity=2, start_when=2, rules=rules, late_draw_bot_wait=2.0)
    try:
        human = await connect(server.port, "Ann")
        server.table.add_bot("greedy")
        loop = asyncio.get_running_loop()
        while True:
            view = await human.wait_for(View, 5, lambda v: v is human.view)
            player_view = view_from_wire(view.view)
            plays = [m for m in player_view.legal_moves if type(m).__name__ == "Play"]
            if player_view.phase != "playing":
                pytest.fail("the match ended before the human could play: pick another seed")
            if plays and player_view.pending_draw is None \
                    and player_view.obligation_seat != human.seat:
                break
        await human.send_move(move_to_wire(plays[0]), seq=view.seq)
        after = await human.wait_for(View, 2, lambda v: v.seq > view.seq)
        pending = view_from_wire(after.view)
        assert pending.pending_draw == human.seat and pending.turn != human.seat
        # The bot is next, the human has not drawn: its move is scheduled >= 2 s away.
        timers = [t for key, t in server.table.timers.items() if isinstance(key, BotTurn)
                  and not t.cancelled()]
        assert timers and min(t.when() for t in timers) - loop.time() > 1.5
        draw = next(m for m in pending.legal_moves if type(m).__name__ == "Draw")
        await human.send_move(move_to_wire(draw), seq=after.seq)
        await human.wait_for(View, 2, lambda v: v.seq > after.seq)
        # Once the human drew, the bot no longer waits.
        timers = [t for key, t in server.table.timers.items() if isinstance(key, BotTurn)
                  and not t.cancelled()]
        assert all(t.when() - loop.time() < 1.0 for t in timers)
    finally:
        await server.stop()

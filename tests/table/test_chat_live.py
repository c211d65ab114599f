"""Table talk over real sockets: bad input is a typed error and the table goes on.

Oversize, empty, unknown and too-fast lines each get an `error` with `ref: "say"`, nobody
else hears anything, the connection stays up, and the match goes on (a move still plays).
"""

from __future__ import annotations

import pytest
from host_table_helpers import FAST_CLIENT, serve

from netproto.client import TableClient
from netproto.wire.messages import MAX_CHAT_TEXT, Chat, Error, Lobby, Say, View
from ono99tui.game import legal_moves
from ono99tui.game.codec import move_to_wire
from ono99tui.host.chat import CHAT_BURST


async def connect(port: int, name: str, **options: object) -> TableClient:
    return await TableClient.connect("127.0.0.1", port, name=name, settings=FAST_CLIENT,
                                     **options)  # type: ignore[arg-type]


@pytest.mark.parametrize(("say", "code"), [
    (Say(text="x" * (MAX_CHAT_TEXT + 1)), "bad-message"),
    (Say(text="\x1b[31m\u202e\n"), "empty-chat"),
    (Say(emote="shrug"), "unknown-emote"),
])
async def test_a_bad_line_is_refused_and_nobody_hears_it(say: Say, code: str) -> None:
    server = await serve(capacity=2)
    try:
        ann = await connect(server.port, "Ann")
        bob = await connect(server.port, "Bob")
        await ann.send(say)
        error = await ann.wait_for(Error, 2)
        assert (error.code, error.ref) == (code, "say")
        await ann.say("and now a real line")
        chat = await bob.wait_for(Chat, 2)
        assert chat == Chat(name="Ann", text="and now a real line", seat=0)
        await ann.close()
        await bob.close()
    finally:
        await server.stop()


async def test_too_fast_slows_down_and_the_match_goes_on() -> None:
    server = await serve(capacity=2)
    try:
        ann = await connect(server.port, "Ann")
        bob = await connect(server.port, "Bob")
        await ann.start()
        await bob.wait_for(View, 2)
        for number in range(CHAT_BURST + 1):
            await bob.say(f"line {number}")
        error = await bob.wait_for(Error, 2)
        assert (error.code, error.ref) == ("slow-down", "say")
        assert "slow down" in error.reason
        heard = [await ann.wait_for(Chat, 2) for _ in range(CHAT_BURST)]
        assert [chat.text for chat in heard] == [f"line {n}" for n in range(CHAT_BURST)]
        # The table goes on: whoever is to act plays a legal move and everyone sees it.
        state = server.table.state
        assert state is not None
        actor = next(seat for seat in range(2) if legal_moves(state, seat))
        client = (ann, bob)[actor]
        await client.send_move(move_to_wire(legal_moves(state, actor)[0]))
        seq = client.view.seq if client.view else 0
        await client.wait_for(View, 2, lambda view: view.seq > seq)
        assert bob.state.value == "seated"
        await ann.close()
        await bob.close()
    finally:
        await server.stop()


async def test_a_spectator_talks_until_the_host_says_no() -> None:
    server = await serve(capacity=2)
    try:
        ann = await connect(server.port, "Ann")
        eve = await connect(server.port, "Eve", spectate=True)
        await eve.say("hello from the rail")
        assert (await ann.wait_for(Chat, 2)) == Chat(name="Eve", text="hello from the rail")
        await ann.set_options(spectator_chat=False)
        await eve.wait_for(Lobby, 2, lambda lobby: lobby.options["spectator_chat"] is False)
        await eve.say("still here?")
        error = await eve.wait_for(Error, 2)
        assert (error.code, error.ref) == ("chat-off", "say")
        await ann.say("shh")
        assert (await eve.wait_for(Chat, 2)).text == "shh"
        await ann.close()
        await eve.close()
    finally:
        await server.stop()

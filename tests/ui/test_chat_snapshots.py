"""SVG snapshots of table talk: lines in the log marked apart from events, the Footer's
chat key, the chat prompt over the table, the mute list. Engine-made views, pinned glyphs
and colours, so the pictures repeat exactly. Update with `pytest --snapshot-update`."""

from __future__ import annotations

from table_helpers import LocalMatch, RecordingApp, lobby_for, open_local, wait_until
from table_items import chat_received

from netproto.wire.messages import PROTOCOL_VERSION, Chat, Welcome
from ono99tui.game import preset
from ono99tui.ui.app import Ono99App
from ono99tui.ui.log_lines import log_entries
from ono99tui.ui.screens.chat_prompt import ChatPrompt
from ono99tui.ui.screens.mute import MuteScreen


def talking_app(**options: object) -> Ono99App:
    """An app seated at a table that talks (its welcome says so), with no connection."""
    app = RecordingApp(**options)
    app.session.welcome = Welcome(proto=PROTOCOL_VERSION, role="player", seat=0,
                                  table={"name": "den", "capacity": 3, "preset": "2022",
                                         "chat": True})
    return app


def with_talk(*, then: str | None = None):
    async def run_before(pilot) -> None:
        app = pilot.app
        match = LocalMatch(preset("2022"), 3, seed=21)
        for _ in range(4):
            match.step()
        await open_local(app, pilot, match, lobby_for(3, bots=(2,)))
        app.session.connection_state = "connected"
        for chat in (Chat(name="bob", text="good luck [b]all[/b]", seat=1),
                     Chat(name="ana", text="Nice play!", seat=0, emote="nice-play")):
            app.post_message(chat_received(chat))
        await wait_until(pilot, lambda: len([e for e in log_entries(app.session.story.items) if e.chat]) == 2)
        await match.show(app, pilot)  # the Footer follows the view: "c Chat" shows
        if then == "prompt":
            await pilot.press("c")
            await wait_until(pilot, lambda: isinstance(app.screen, ChatPrompt))
            await pilot.press(*"see you")
        elif then == "mute":
            await pilot.press("m")
            await wait_until(pilot, lambda: isinstance(app.screen, MuteScreen))
            await pilot.press("space")
        await pilot.pause()

    return run_before


def test_talk_in_the_log_80x24(snap_compare) -> None:
    assert snap_compare(talking_app(), terminal_size=(80, 24), run_before=with_talk())


def test_talk_in_the_log_ascii(snap_compare) -> None:
    assert snap_compare(talking_app(ascii_glyphs=True), terminal_size=(80, 24),
                        run_before=with_talk())


def test_the_chat_prompt_80x24(snap_compare) -> None:
    assert snap_compare(talking_app(), terminal_size=(80, 24),
                        run_before=with_talk(then="prompt"))


def test_the_mute_list_80x24(snap_compare) -> None:
    assert snap_compare(talking_app(), terminal_size=(80, 24),
                        run_before=with_talk(then="mute"))

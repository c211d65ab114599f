"""A modal closes only itself: Textual's `dismiss` pops whatever screen is on top, so a
prompt answered just as the table put a dialog over it (a round ended as Enter was
pressed) closed the dialog instead and stayed on screen, its line already sent.

Played in tmux: the host typed a line, pressed Enter as round 15 ended; the line was said,
the round's dialog was never seen, and the prompt stayed up with the line still in it.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static

from ono99tui.ui.screens.chat_prompt import ChatPrompt
from ono99tui.ui.screens.confirm_quit import ConfirmQuitScreen
from ono99tui.ui.screens.mute import MuteScreen


class Dialog(ModalScreen[None]):
    """Stands for the table's round dialog, pushed by the app over whatever is up."""

    def compose(self) -> ComposeResult:
        yield Static("Round 15 is over")


class Host(App[None]):
    """Opens one modal over a plain screen and keeps what it dismissed with."""

    def __init__(self, modal: Screen[object]) -> None:
        super().__init__()
        self.modal = modal
        self.answers: list[object] = []

    def on_mount(self) -> None:
        self.push_screen(self.modal, self.answers.append)


async def test_a_line_said_as_a_dialog_comes_up_closes_the_dialog_not() -> None:
    prompt = ChatPrompt()
    app = Host(prompt)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        field = prompt.query_one("#chat-input", Input)
        field.value = "nice one"
        # The dialog lands between the Enter key and the prompt handling it.
        dialog = Dialog()
        app.push_screen(dialog)
        field.post_message(Input.Submitted(field, field.value))
        await pilot.pause()
        assert app.screen is dialog
        assert prompt in app.screen_stack
        assert app.answers == []  # not said yet: the line is still in the prompt
        # Closing the dialog shows the prompt with the line; Enter says it.
        app.pop_screen()
        await pilot.pause()
        assert app.screen is prompt and field.value == "nice one"
        await pilot.press("enter")
        await pilot.pause()
        assert app.answers == ["nice one"]
        assert not isinstance(app.screen, ChatPrompt)


async def test_the_mute_list_and_the_quit_question_close_only_themselves() -> None:
    for modal, key in ((MuteScreen(["bob"], set()), "escape"),
                       (ConfirmQuitScreen("Quit?", "It ends."), "n")):
        app = Host(modal)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            dialog = Dialog()
            app.push_screen(dialog)
            await modal.run_action({"escape": "close", "n": "answer(False)"}[key])
            await pilot.pause()
            assert app.screen is dialog, type(modal).__name__
            assert app.answers == []

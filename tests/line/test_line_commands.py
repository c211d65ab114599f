"""What the player types in line mode: each command by word and one-letter form, and a
line that is not a command refused with why, in one sentence (nothing is sent: the parser
has no way to send)."""

from __future__ import annotations

import pytest

from ono99tui.client.options import TableOptions, options_from_wire
from ono99tui.game import preset
from ono99tui.game.codec import rules_to_wire
from ono99tui.line.commands import Command, CommandError, command_words, read_command, read_yes_no
from ono99tui.line.host_options import HostOptionError, option_change, option_lines


def test_every_command_has_a_word_and_a_short_form_none_shared() -> None:
    words = command_words()
    shorts = [command.short for command in words]
    assert len(set(shorts)) == len(shorts)
    assert all(len(short) == 1 for short in shorts)
    for command in words:
        if command.word in ("play", "say", "remove"):
            continue  # these need an argument
        assert read_command(command.word) == read_command(command.short.upper() if
                                                          command.short.isalpha()
                                                          else command.short)
        assert read_command(command.word) == Command(command.word)


@pytest.mark.parametrize(("typed", "command"), [
    ("2", Command("play", 2)), (" 3 ", Command("play", 3)), ("p 1", Command("play", 1)),
    ("last", Command("last")), ("l 10", Command("last", 10)),
    ("say hello there", Command("say", text="hello there")),
    ("c gg", Command("say", text="gg")), ("e 3", Command("emotes", text="3")),
    ("bot hard", Command("bot", text="hard")), ("x 2", Command("remove", 2)),
    ("o preset 1980", Command("set", text="preset 1980")), ("?", Command("help")),
])
def test_commands_are_read_with_their_arguments(typed: str, command: Command) -> None:
    assert read_command(typed) == command


@pytest.mark.parametrize(("typed", "why"), [
    ("fly", "Unknown command 'fly': type ? for the commands."),
    ("say", "say needs something after it: say hello."),
    ("last ten", "last takes a whole number, not 'ten'."),
    ("play", "play needs a number: play 2."),
    ("who cares", "who takes nothing after it."),
])
def test_a_line_that_is_no_command_says_why(typed: str, why: str) -> None:
    with pytest.raises(CommandError) as refused:
        read_command(typed)
    assert str(refused.value) == why


def test_an_empty_line_is_nothing_and_yes_or_no_is_read() -> None:
    assert read_command("   ") is None
    assert read_yes_no("Yes") is True and read_yes_no("n") is False
    assert read_yes_no("maybe") is None


def test_the_host_s_options_become_the_session_s_changes() -> None:
    options = options_from_wire({"rules": rules_to_wire(preset("2022")), "hints": False})
    # (what is said if the change cannot be sent, the change)
    assert option_change("preset 1980", options) == ("Could not change the preset",
                                                     {"preset": "1980"})
    assert option_change("hints on", options) == ("Could not change hints",
                                                  {"table": {"hints": True}})
    assert option_change("duplicate on", options) == ("Could not change duplicate sets",
                                                      {"table": {"duplicate": True}})
    assert option_change("duplicate off", options)[1] == {"table": {"duplicate": False}}
    assert option_change("turn 0", options) == ("Could not change the turn time",
                                                {"table": {"turn_seconds": None}})
    tokens = options_from_wire({"rules": rules_to_wire(preset("1980")), "hints": False})
    assert option_change("tokens 5", tokens) == ("Could not change the rules",
                                                 {"rules": {"tokens": 5}})
    assert option_change("swap off", options) == ("Could not change the rules",
                                                  {"rules": {"four_ono99_swap": False}})
    with pytest.raises(HostOptionError, match="whole number"):
        option_change("tokens many", tokens)
    for bad, why in [("preset 1999", "No preset '1999'"),
                     ("hints maybe", "on or off"), ("colour red", "No option 'colour'"),
                     ("preset", "needs a value")]:
        with pytest.raises(HostOptionError, match=why):
            option_change(bad, options)


def test_the_options_listed_and_set_are_those_the_scoring_uses() -> None:
    """RULES.md §3: a single round has neither target nor tokens, tokens scoring the
    tokens, points scoring the target; the one the scoring does not use is neither listed
    nor set (the refusal says why and what to type)."""
    def options(preset_name: str, **changes: object) -> TableOptions:
        rules = preset(preset_name).replace(**changes)
        return options_from_wire({"rules": rules_to_wire(rules), "hints": False})

    def said(options: TableOptions) -> str:
        return "\n".join(option_lines(options))

    single, tokens = options("2022"), options("1980")
    points = options("1980", scoring="points-lowest", target=150)
    assert "tokens:" not in said(single) and "target:" not in said(single)
    assert "tokens: 3 (each player's, with tokens scoring)." in said(tokens)
    assert "target:" not in said(tokens)
    assert "target: 150 (the points that end the match)." in said(points)
    assert "tokens:" not in said(points)
    assert option_change("target 200", points)[1] == {"rules": {"target": 200}}
    assert option_change("tokens 4", tokens)[1] == {"rules": {"tokens": 4}}
    for word, wrong in (("target", single), ("target", tokens), ("tokens", single),
                        ("tokens", points)):
        with pytest.raises(HostOptionError, match=r"type o scoring .* first"):
            option_change(f"{word} 5", wrong)

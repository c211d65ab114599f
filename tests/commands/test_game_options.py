"""`--rules`, `--set` and bot kinds: checked once, alike, by `ono99 solo`, `host`, `sim`
(and `bot`, which takes no rules: the table has them)."""

from __future__ import annotations

import argparse

import pytest

from ono99tui.bots import BOT_NAMES, LEVEL_NAMES
from ono99tui.cli import build_parser, main
from ono99tui.commands.game_options import (
    GameOptionError,
    checked_bot_kind,
    checked_bot_list,
    checked_rules,
    rule_settings,
)
from ono99tui.game import DEFAULT_PRESET, PRESET_NAMES, preset

# Every command with --rules, with the arguments that make it stop before opening anything.
COMMANDS = {
    "solo": ["solo"],
    "host": ["host", "--headless", "--no-advertise", "--port", "0"],
    "sim": ["sim", "--games", "1"],
}
UNKNOWN_PRESET = "unknown rules preset '1999'; valid presets: 2022, 1980, 1980-set99"
UNKNOWN_BOT = f"unknown bot 'nobody'; valid bots: {', '.join(BOT_NAMES)}"


def subparser(command: str) -> argparse.ArgumentParser:
    actions = build_parser()._subparsers._group_actions  # type: ignore[union-attr]
    return actions[0].choices[command]  # type: ignore[index, no-any-return]


@pytest.mark.parametrize("command", COMMANDS)
def test_rules_choices_are_the_engine_s_presets(command: str) -> None:
    rules = next(a for a in subparser(command)._actions if "--rules" in a.option_strings)
    assert rules.default == DEFAULT_PRESET
    assert rules.help is not None and all(name in rules.help for name in PRESET_NAMES)


@pytest.mark.parametrize("command", COMMANDS)
def test_an_unknown_preset_is_one_clear_usage_error(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*COMMANDS[command], "--rules", "1999"]) == 2
    out, err = capsys.readouterr()
    assert err == f"ono99 {command}: {UNKNOWN_PRESET}\n" and out == ""


@pytest.mark.parametrize("command", ["solo", "host"])
def test_an_unknown_bot_kind_is_one_clear_usage_error(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # `ono99 host --bots 1 --bot nobody` used to open the table, then fail with a traceback.
    assert main([*COMMANDS[command], "--bots", "1", "--bot", "nobody"]) == 2
    out, err = capsys.readouterr()
    assert err == f"ono99 {command}: {UNKNOWN_BOT}\n" and out == ""


@pytest.mark.parametrize("command", ["solo", "host", "bot"])
def test_level_is_the_bot_option_and_bot_its_older_spelling(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    start = ["bot", "127.0.0.1:1"] if command == "bot" else COMMANDS[command]
    assert build_parser().parse_args(start).bot == "normal"
    assert build_parser().parse_args([*start, "--level", "easy"]).bot == "easy"
    assert build_parser().parse_args([*start, "--bot", "random"]).bot == "random"
    assert main([*start, "--level", "nobody"]) == 2  # before anything opens
    assert capsys.readouterr().err == f"ono99 {command}: {UNKNOWN_BOT}\n"


def test_sim_and_bot_name_an_unknown_bot_the_same_way(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*COMMANDS["sim"], "--bots", "greedy,nobody"]) == 2
    assert capsys.readouterr().err == f"ono99 sim: {UNKNOWN_BOT}\n"
    assert main(["bot", "127.0.0.1:1", "--bot", "nobody"]) == 2  # before any connection
    assert capsys.readouterr().err == f"ono99 bot: {UNKNOWN_BOT}\n"


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_is_taken(name: str) -> None:
    assert checked_rules(name) == preset(name)
    assert build_parser().parse_args(["host", "--rules", name]).rules == name


def test_rule_settings_apply_over_the_preset() -> None:
    settings = rule_settings(["scoring=points-lowest", "target = 60", "late_draw_penalty=on"])
    assert settings == {"scoring": "points-lowest", "target": 60, "late_draw_penalty": True}
    rules = checked_rules("1980", settings)
    assert (rules.name, rules.scoring, rules.target) == ("1980", "points-lowest", 60)


@pytest.mark.parametrize(
    ("preset_name", "items", "message"),
    [
        ("1999", [], UNKNOWN_PRESET),
        ("2022", ["scoring=best"], "rule option 'scoring'"),
        ("2022", ["colour=red"], "rule option 'colour': no such option"),
        ("2022", ["target=many"], "rule option 'target'"),
        ("2022", ["nonsense"], "--set needs OPTION=VALUE, not 'nonsense'"),
    ],
)
def test_bad_rules_raise_one_typed_error(preset_name: str, items: list[str], message: str) -> None:
    with pytest.raises(GameOptionError, match="^" + message.replace("(", r"\(")):
        checked_rules(preset_name, rule_settings(items))


def test_bot_kinds() -> None:
    assert checked_bot_kind("random") == "random"
    assert LEVEL_NAMES[:2] == ("easy", "normal")
    for level in LEVEL_NAMES:
        assert checked_bot_kind(level) == level
    assert checked_bot_list(" easy, normal ,random") == ("easy", "normal", "random")
    with pytest.raises(GameOptionError, match="at least one"):
        checked_bot_list(" , ")
    with pytest.raises(GameOptionError, match=f"^{UNKNOWN_BOT}$"):
        checked_bot_kind("nobody")

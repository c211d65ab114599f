"""The `ono99` command line: dispatches to the modules in `ono99tui.commands`."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from ono99tui import i18n
from ono99tui.i18n import N_, _

# Sub-command name -> module under ono99tui.commands. Order is the order shown in --help.
COMMANDS: dict[str, str] = {
    "solo": "solo",
    "host": "host",
    "join": "join",
    "list": "list_tables",
    "bot": "bot",
    "sim": "sim",
    "replay": "replay",
    "stats": "stats",
}


# argparse's own words, as its module says them (it looks each up with `gettext` where it
# uses it, in the domain "argparse" nobody ships): ono99's catalog translates them, and
# `speak_for_argparse` points argparse at it. Only the messages a player meets are here;
# the rest (a programming error in a parser) stays English.
ARGPARSE_WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
)


def speak_for_argparse() -> None:
    """argparse's own words ("usage:", "options", "error:") in the language chosen: its
    module looks up its `_` and `ngettext` globals each time it speaks."""
    setattr(argparse, "_", _)  # noqa: B010 (argparse reads the module global at call time)
    setattr(argparse, "ngettext", i18n.ngettext)  # noqa: B010


def _add_language_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang", metavar="CODE", type=_language_code, default=argparse.SUPPRESS,
        help=_("the language to play in: {languages} (default: the saved choice, then "
               "LANG/LC_ALL/LC_MESSAGES, then English)").format(
                   languages=", ".join(i18n.LANGUAGES)))


def _language_code(text: str) -> str:
    try:
        return i18n.known_language(text)
    except i18n.UnknownLanguage as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def build_parser() -> argparse.ArgumentParser:
    """Build the parser for every sub-command whose module is present."""
    parser = argparse.ArgumentParser(
        prog="ono99", description=_("ONO 99, the adding card game, in the terminal.")
    )
    _add_language_option(parser)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        try:
            module = importlib.import_module(f"ono99tui.commands.{module_name}")
        except ModuleNotFoundError as error:
            if error.name != f"ono99tui.commands.{module_name}":
                raise
            continue
        sub = subparsers.add_parser(name, help=_(module.HELP), description=_(module.HELP))
        module.add_arguments(sub)
        _add_language_option(sub)
        sub.set_defaults(run=module.run)
    return parser


def _language_flag(argv: list[str]) -> str | None:
    """The value of `--lang CODE` / `--lang=CODE` anywhere in `argv` (an unknown code is
    left for the parser to report)."""
    for index, word in enumerate(argv):
        if word == "--":
            break
        value = None
        if word == "--lang" and index + 1 < len(argv):
            value = argv[index + 1]
        elif word.startswith("--lang="):
            value = word.partition("=")[2]
        if value is not None:
            try:
                return i18n.known_language(value)
            except i18n.UnknownLanguage:
                return None
    return None


def apply_language(flag: str | None) -> str:
    """Speak `flag`, else the saved choice, else the locale's language, else English;
    returns the code chosen. A damaged settings file does not stop the game (English)."""
    from ono99tui.user_settings import ConfigError, load_settings

    try:
        saved = load_settings().language
    except ConfigError:
        saved = ""
    language = i18n.choose_language(flag, saved)
    i18n.use_language(language)
    return language


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `ono99` console script; returns the process exit status."""
    # The language first (before the parser is built), so `--help` speaks it too.
    apply_language(_language_flag(sys.argv[1:] if argv is None else list(argv)))
    speak_for_argparse()
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "run", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        status = int(args.run(args) or 0)
        sys.stdout.flush()  # inside the try: a closed pipe shows here, not at exit
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `ono99 stats --json | head`: the reader has what it wanted. Point stdout at
        # nothing so the interpreter's own last flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0

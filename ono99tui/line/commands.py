"""What the player types in line mode, read into typed commands (pure: no I/O).

A command is a word or its one-letter short form, then its arguments; a number alone plays
that card of the hand. `read_command` never sends anything and never guesses: a line it
cannot read raises `CommandError`, whose text says why in one sentence (the front end
prints it and asks again, and the table goes on).
"""

from __future__ import annotations

from dataclasses import dataclass

from ono99tui.i18n import _


class CommandError(ValueError):
    """The line is not a command: `str(error)` says why, in one sentence for the player."""


@dataclass(frozen=True, slots=True)
class Command:
    """One command: its word (`COMMANDS`' key) and what followed it."""

    word: str
    # A card's place in the hand (1-based) for "play", a count for "last", a seat for
    # "remove": a whole number. None when none was given.
    number: int | None = None
    # Text after the word ("say", "emote", "bot", "set", "mute").
    text: str = ""


@dataclass(frozen=True, slots=True)
class CommandWords:
    """How one command is typed and what it does, for the parser and for `help`."""

    word: str
    short: str
    usage: str  # how it is typed, short form first
    does: str  # what it does, one short sentence


def _commands() -> tuple[CommandWords, ...]:
    # Built on each call: `_` reads the language chosen now (issue 27 switches it).
    return (
        CommandWords("play", "p", _("1-4, or p N"), _("Play that card of your hand.")),
        CommandWords("swap", "s", _("s, swap"), _("Swap four ONO 99 cards.")),
        CommandWords("draw", "d", _("d, draw"), _("Draw your card (late-draw rule).")),
        CommandWords("hint", "h", _("h, hint"), _("Advice on your cards.")),
        CommandWords("review", "v", _("v, review, review 10"),
                     _("After a match: your costliest choices.")),
        CommandWords("total", "t", _("t, total"), _("The total, the limit, whose turn.")),
        CommandWords("hand", "n", _("n, hand"), _("Your hand again, numbered.")),
        CommandWords("who", "w", _("w, who"), _("Every seat: cards, tokens, points.")),
        CommandWords("last", "l", _("l, last, last 10"), _("The last plays.")),
        CommandWords("rules", "r", _("r, rules"), _("This table's rules.")),
        CommandWords("say", "c", _("c TEXT, say TEXT"), _("Say TEXT at the table.")),
        CommandWords("emotes", "e", _("e, emotes, e NAME"), _("List the emotes, or send one.")),
        CommandWords("ready", "y", _("y, ready"), _("Ready, or not ready any more.")),
        CommandWords("rated", "a", _("a on, a off, rated on"),
                     _("Be rated from the next match, or not.")),
        CommandWords("rematch", "m", _("m, rematch"), _("Ask for another match.")),
        CommandWords("seat", "j", _("j, seat"), _("Take a seat (when watching).")),
        CommandWords("mute", "u", _("u NAME, mute NAME"), _("Mute or unmute a name.")),
        CommandWords("start", "g", _("g, start"), _("Host: deal the match.")),
        CommandWords("bot", "b", _("b, bot, bot hard"), _("Host: seat a bot.")),
        CommandWords("remove", "x", _("x N, remove N"), _("Host: remove the bot in seat N.")),
        CommandWords("set", "o", _("o OPTION VALUE"), _("Host: change a rule (o: list).")),
        CommandWords("room", "k", _("k, room"), _("Host: back to the waiting room.")),
        CommandWords("help", "?", _("?, help"), _("These commands.")),
        CommandWords("quit", "q", _("q, quit"), _("Leave (asks first mid-match).")),
    )


def command_words() -> tuple[CommandWords, ...]:
    """Every command, in the order `help` lists them."""
    return _commands()


# Commands whose argument is a whole number, and whether it must be given.
_NUMBER_ARGUMENT = {"play": True, "last": False, "remove": True, "review": False}
# Commands whose argument is text, and whether it must be given.
_TEXT_ARGUMENT = {"say": True, "emotes": False, "bot": False, "set": False, "mute": False,
                  "rated": False}


def read_command(line: str) -> Command | None:
    """The command `line` holds; None for an empty line (the front end just asks again).

    Raises CommandError when the line is not a command, saying why.
    """
    text = line.strip()
    if not text:
        return None
    if text.isdigit():
        return Command("play", int(text))
    head, _space, rest = text.partition(" ")
    rest = rest.strip()
    lowered = head.lower()
    by_name = {command.word: command.word for command in _commands()}
    by_name.update({command.short: command.word for command in _commands()})
    word = by_name.get(lowered)
    if word is None:
        raise CommandError(_("Unknown command {word!r}: type ? for the commands.").format(
            word=head[:20]))
    if word in _NUMBER_ARGUMENT:
        if not rest:
            if _NUMBER_ARGUMENT[word]:
                raise CommandError(_("{word} needs a number: {word} 2.").format(word=word))
            return Command(word)
        if not rest.isdigit():
            raise CommandError(_("{word} takes a whole number, not {rest!r}.").format(
                word=word, rest=rest[:20]))
        return Command(word, int(rest))
    if word in _TEXT_ARGUMENT:
        if not rest and _TEXT_ARGUMENT[word]:
            raise CommandError(_("{word} needs something after it: {word} hello.").format(
                word=word))
        return Command(word, text=rest)
    if rest:
        raise CommandError(_("{word} takes nothing after it.").format(word=word))
    return Command(word)


def read_on_off(text: str) -> bool | None:
    """On or off (`rated on`; a yes or a no will do too); None: neither."""
    answer = text.strip().lower()
    if answer in ("on", "yes", "y", _("on"), _("yes"), _("y")):
        return True
    if answer in ("off", "no", "n", _("off"), _("no"), _("n")):
        return False
    return None


def read_yes_no(line: str) -> bool | None:
    """A yes or a no to a question (None: neither)."""
    answer = line.strip().lower()
    if answer in ("y", "yes", _("y"), _("yes")):
        return True
    if answer in ("n", "no", _("n"), _("no")):
        return False
    return None

"""The host's options in the waiting room, typed as `set OPTION VALUE` (pure: no I/O).

The terminal's waiting room offers the same as drop-downs, check boxes and fields; here
each is a word and a value ("set preset 1980", "set hints on", "set duplicate on",
"set turn 30"). A value
that cannot be read raises `HostOptionError`, saying why: nothing is sent.
"""

from __future__ import annotations

from typing import Any

from ono99tui.client.options import TableOptions
from ono99tui.game import ONO99_MODES, PRESET_NAMES, SCORING_MODES, Scoring
from ono99tui.i18n import _

# The yes/no rule options, by the word the host types.
_SWITCHES = {"swap": "four_ono99_swap", "negative": "negative_totals",
             "latedraw": "late_draw_penalty"}
_ON, _OFF = ("on", "yes", "true", "1"), ("off", "no", "false", "0")


class HostOptionError(ValueError):
    """`set` was given something it cannot read; `str(error)` says why."""


def option_lines(options: TableOptions) -> list[str]:
    """`set` alone: every option the host may set, with its value now."""
    rules = options.rules
    lines = [_("Options (host, in the waiting room): o OPTION VALUE.")]
    lines.append(_("preset: {value} ({choices}).").format(
        value=rules.name if rules else "?", choices=", ".join(PRESET_NAMES)))
    lines.append(_("scoring: {value} ({choices}).").format(
        value=rules.scoring if rules else "?", choices=", ".join(SCORING_MODES)))
    lines.append(_("ono99: {value} ({choices}).").format(
        value=rules.ono99_card if rules else "?", choices=", ".join(ONO99_MODES)))
    if rules is not None:
        # Only what the scoring uses (RULES.md §3): a single round has neither.
        if rules.scoring == Scoring.TOKENS:
            lines.append(_("tokens: {value} (each player's, with tokens scoring).").format(
                value=rules.tokens))
        elif rules.scoring.counts_points:
            lines.append(_("target: {value} (the points that end the match).").format(
                value=rules.target))
        for word, option in _SWITCHES.items():
            lines.append(_("{word}: {value}.").format(
                word=word, value=_("on") if getattr(rules, option) else _("off")))
    lines.append(_("hints: {value}.").format(value=_("on") if options.hints else _("off")))
    lines.append(_("duplicate (sets: each deal once per seat rotation): {value}.").format(
        value=_("on") if options.duplicate else _("off")))
    lines.append(_("spectators (may talk): {value}.").format(
        value=_("on") if options.spectator_chat else _("off")))
    turn = options.turn_seconds
    lines.append(_("turn: {value} (seconds, 0 for no clock).").format(
        value=f"{turn:g}" if turn is not None else 0))
    return lines


def _switch(value: str, word: str) -> bool:
    if value in _ON:
        return True
    if value in _OFF:
        return False
    raise HostOptionError(_("{word} is on or off, not {value!r}.").format(word=word,
                                                                         value=value[:20]))


def _whole(value: str, word: str, least: int) -> int:
    if not value.isdigit() or int(value) < least:
        raise HostOptionError(_("{word} takes a whole number from {least}, not {value!r}.").format(
            word=word, least=least, value=value[:20]))
    return int(value)


def _unused_by_the_scoring(word: str, options: TableOptions) -> None:
    """The tokens count only with tokens scoring, the target only with points scoring
    (RULES.md §3): setting one the scoring does not use is refused, saying so."""
    rules = options.rules
    if rules is None:
        return
    if word == "tokens" and rules.scoring != Scoring.TOKENS:
        raise HostOptionError(_("Tokens count only with tokens scoring, and the scoring is "
                                "{scoring}: type o scoring tokens first.").format(
            scoring=rules.scoring))
    if word == "target" and not rules.scoring.counts_points:
        raise HostOptionError(_("The target counts only with points scoring, and the scoring "
                                "is {scoring}: type o scoring points-lowest (or "
                                "points-elimination) first.").format(scoring=rules.scoring))


def option_change(text: str, options: TableOptions) -> tuple[str, dict[str, Any]]:
    """What `set TEXT` asks: (what is said if it cannot be sent, the keyword arguments of
    `TableSession.set_options`). Raises HostOptionError."""
    word, _space, value = text.strip().partition(" ")
    word, value = word.lower(), value.strip().lower()
    if not value:
        raise HostOptionError(_("set {word} needs a value: type o for the options.").format(
            word=word[:20]))
    if word == "preset":
        if value not in PRESET_NAMES:
            raise HostOptionError(_("No preset {value!r}: {choices}.").format(
                value=value[:20], choices=", ".join(PRESET_NAMES)))
        return _("Could not change the preset"), {"preset": value}
    if word == "scoring":
        if value not in SCORING_MODES:
            raise HostOptionError(_("No scoring {value!r}: {choices}.").format(
                value=value[:20], choices=", ".join(SCORING_MODES)))
        return _("Could not change the rules"), {"rules": {"scoring": value}}
    if word == "ono99":
        if value not in ONO99_MODES:
            raise HostOptionError(_("No ONO 99 mode {value!r}: {choices}.").format(
                value=value[:20], choices=", ".join(ONO99_MODES)))
        return _("Could not change the rules"), {"rules": {"ono99_card": value}}
    if word in ("tokens", "target"):
        _unused_by_the_scoring(word, options)
        return _("Could not change the rules"), {"rules": {word: _whole(value, word, 1)}}
    if word in _SWITCHES:
        return _("Could not change the rules"), {"rules": {_SWITCHES[word]: _switch(value, word)}}
    if word == "hints":
        on = _switch(value, word)
        return _("Could not change hints"), {"table": {"hints": on}}
    if word == "duplicate":
        return _("Could not change duplicate sets"), {"table": {"duplicate": _switch(value, word)}}
    if word == "spectators":
        return (_("Could not change spectators' chat"),
                {"table": {"spectator_chat": _switch(value, word)}})
    if word == "turn":
        seconds = _whole(value, word, 0)
        return (_("Could not change the turn time"),
                {"table": {"turn_seconds": float(seconds) or None}})
    raise HostOptionError(_("No option {word!r}: type o for the options.").format(word=word[:20]))

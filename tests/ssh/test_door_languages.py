"""Each SSH session speaks its own player's language, through the real OpenSSH client.

The door's host speaks Urdu (`--lang ur`); three players come in at once with OpenSSH,
each sending its locale the way OpenSSH does (`SendEnv LANG LC_*`, the default of
Debian's ssh_config): one with LANG=bn_BD.UTF-8, one with LC_MESSAGES=kn_IN.UTF-8 under an
English LANG, one with nothing. Each session's game speaks the player's language (the
third English): never the host's. Line mode, so the words can be read off the transcript.
"""

from __future__ import annotations

import gettext
import re
import shutil
import sys
from pathlib import Path

import pytest

from ono99tui.i18n import DOMAIN, LOCALE_DIR

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "line"))
from plain_pty import HeadlessTable, PlainPlayer, line_env

pytestmark = [
    pytest.mark.ssh,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("ssh") is None, reason="no OpenSSH client"),
]

GREETING = "ONO 99, line mode."


def said_in(language: str, message: str) -> str:
    with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as stream:
        return gettext.GNUTranslations(stream).gettext(message)


def door_ssh(port: int, user: str, send_env: str) -> list[str]:
    """OpenSSH's client to the door on loopback (open access), in line mode, sending the
    locale variables as OpenSSH's own configuration does."""
    return ["ssh", "-tt", "-p", str(port), "-F", "/dev/null",
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
            "-o", "LogLevel=ERROR", "-o", "PreferredAuthentications=none,password",
            "-o", "NumberOfPasswordPrompts=0", "-o", f"SendEnv={send_env}",
            f"{user}@127.0.0.1", "plain"]


@pytest.fixture
def urdu_door(tmp_path: Path):
    table = HeadlessTable(tmp_path, "--lang", "ur", "--seats", "4", "--start-when", "4",
                          "--bot-delay", "0", "--turn-time", "off", "--ssh-port", "0",
                          "--ssh-open", "--name", "Door")
    table.wait_for_event("listening")
    try:
        yield table.wait_for_event("ssh-door")["port"]
    finally:
        table.stop()


def test_each_ssh_session_speaks_its_own_locale_not_the_host_s(urdu_door: int,
                                                               tmp_path: Path) -> None:
    port = urdu_door
    bengali = {**line_env(tmp_path, "ana"), "LANG": "bn_BD.UTF-8"}
    kannada = {**line_env(tmp_path, "bob"), "LANG": "C.UTF-8", "LC_MESSAGES": "kn_IN.UTF-8"}
    english = line_env(tmp_path, "cy")
    players = {
        "bn": PlainPlayer(door_ssh(port, "ana", "LANG LC_*"), bengali),
        "kn": PlainPlayer(door_ssh(port, "bob", "LANG LC_*"), kannada),
        "en": PlainPlayer(door_ssh(port, "cy", "LANG LC_*"), english),
    }
    try:
        for language, player in players.items():
            greeting = GREETING if language == "en" else said_in(language, GREETING)
            assert greeting != GREETING or language == "en"
            player.expect(greeting)
            player.prompt()
            # The waiting room, in the session's language: "w" says who is here.
            player.send("w")
            player.expect(r"\(")
            player.prompt()
        for language, player in players.items():
            assert said_in("ur", GREETING) not in player.transcript
            if language != "en":
                assert GREETING not in player.transcript, player.transcript
        # The door's own words too: ana comes in again from a Kannada terminal; the
        # Bengali session she leaves is told why in Bengali, and the new one speaks Kannada.
        players["again"] = PlainPlayer(door_ssh(port, "ana", "LANG LC_*"),
                                       {**line_env(tmp_path, "ana"), "LANG": "kn_IN.UTF-8"})
        replaced = said_in("bn", "{player} connected again from elsewhere; this session is "
                                 "closed.").format(player="ana")
        players["bn"].expect(re.escape(replaced))
        players["again"].expect(re.escape(said_in("kn", GREETING)))
    finally:
        for player in players.values():
            player.close()

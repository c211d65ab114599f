"""Which language ono99 speaks: `--lang`, then the saved choice, then the locale, then English."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ono99tui import cli, i18n


@pytest.fixture(autouse=True)
def _english_after() -> object:
    yield None
    i18n.use_language(None)


def test_the_flag_wins_over_the_saved_choice_and_the_locale() -> None:
    assert i18n.choose_language("kn", "bn", {"LANG": "ur_PK.UTF-8"}) == "kn"


def test_the_saved_choice_wins_over_the_locale() -> None:
    assert i18n.choose_language(None, "bn", {"LANG": "ur_PK.UTF-8"}) == "bn"


@pytest.mark.parametrize(("environ", "expected"), [
    ({"LANG": "ur_PK.UTF-8"}, "ur"),
    ({"LC_ALL": "be_BY.UTF-8", "LANG": "en_US.UTF-8"}, "be"),
    ({"LC_MESSAGES": "ps_AF", "LANG": "en_GB.UTF-8"}, "ps"),
    ({"LANGUAGE": "xx:kn", "LANG": "en_US.UTF-8"}, "kn"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({}, "en"),
])
def test_the_locale_decides_when_nothing_was_chosen(environ: dict[str, str],
                                                     expected: str) -> None:
    assert i18n.choose_language(None, "", environ) == expected


def test_an_unknown_saved_choice_is_passed_over() -> None:
    assert i18n.choose_language(None, "xx", {"LANG": "bn_BD.UTF-8"}) == "bn"


def test_an_unknown_flag_is_an_error() -> None:
    with pytest.raises(i18n.UnknownLanguage, match="ono99 speaks en, be, bn"):
        i18n.choose_language("xx", None, {})


def test_a_missing_string_falls_back_to_english() -> None:
    assert i18n.use_language("bn")
    assert i18n._("A sentence no catalog has.") == "A sentence no catalog has."


def _run(args: list[str], config: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {"PATH": "/usr/bin:/bin", "ONO99_CONFIG_DIR": str(config), **env}
    return subprocess.run([sys.executable, "-m", "ono99tui", *args], capture_output=True,
                          text=True, env=environ, timeout=60, check=False)


def test_help_speaks_the_flag_the_saved_choice_or_the_locale(tmp_path: Path) -> None:
    english = _run(["solo", "--help"], tmp_path, LANG="C.UTF-8").stdout
    assert "the language to play in" in english
    by_flag = _run(["solo", "--lang", "be", "--help"], tmp_path, LANG="C.UTF-8").stdout
    assert "the language to play in" not in by_flag
    assert i18n.LANGUAGES["be"] not in english
    by_locale = _run(["solo", "--help"], tmp_path, LANG="bn_BD.UTF-8").stdout
    assert "the language to play in" not in by_locale
    (tmp_path / "settings.json").write_text(json.dumps({"language": "kn"}))
    saved = _run(["solo", "--help"], tmp_path, LANG="bn_BD.UTF-8").stdout
    i18n.use_language("kn")
    assert i18n._("the language to play in: {languages} (default: the saved choice, then "
                  "LANG/LC_ALL/LC_MESSAGES, then English)").split(":")[0] in saved


def test_an_unknown_flag_stops_the_command(tmp_path: Path) -> None:
    result = _run(["solo", "--lang", "xx"], tmp_path, LANG="C.UTF-8")
    assert result.returncode == 2
    assert "unknown language 'xx'" in result.stderr


def test_the_flag_is_found_anywhere_in_the_arguments() -> None:
    assert cli._language_flag(["join", "host.lan", "--lang=ur"]) == "ur"
    assert cli._language_flag(["solo", "--lang", "ps", "--bots", "2"]) == "ps"
    assert cli._language_flag(["solo", "--", "--lang", "ps"]) is None

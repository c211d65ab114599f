"""Line mode never loads Textual: a screen reader's user gets a program that starts fast
and has no full-screen machinery in it (DESIGN.md: `client/` and its front ends below the
UI). Checked twice: no module of `ono99tui.line` or `ono99tui.words` imports Textual or the
UI package, and a real `ono99 solo --plain`, played to its end, never had Textual loaded."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import ono99tui

PACKAGE = Path(ono99tui.__file__).parent
FORBIDDEN = ("textual", "ono99tui.ui", "rich")
CHECKED = [*sorted((PACKAGE / "line").glob("*.py")), *sorted((PACKAGE / "words").glob("*.py")),
           PACKAGE / "commands" / "plain_option.py", PACKAGE / "commands" / "host_plain.py"]


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_no_line_mode_module_imports_textual_or_the_ui() -> None:
    assert len(CHECKED) > 8
    found = {f"{path.name}: {name}" for path in CHECKED for name in imported_modules(path)
             if any(name == top or name.startswith(top + ".") for top in FORBIDDEN)}
    assert found == set()


def test_a_solo_match_in_line_mode_never_loads_textual(tmp_path: Path) -> None:
    # Once the match is dealt the player quits (asked, says yes); the table was started,
    # dealt and closed, all in this process.
    code = (
        "import sys\n"
        "from ono99tui.cli import main\n"
        "status = main(['solo', '--plain', '--bots', '2', '--bot-delay', '0', '--seed', '3'])\n"
        "print('STATUS', status, sorted(m for m in sys.modules"
        " if m.split('.')[0] in ('textual', 'rich') or m.startswith('ono99tui.ui')))\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-u", "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
        env={"ONO99_DATA_DIR": str(tmp_path / "data"), "ONO99_CONFIG_DIR": str(tmp_path / "cfg"),
             "PATH": "/usr/bin:/bin", "ONO99_MDNS_INTERFACES": "127.0.0.1"})
    assert process.stdin is not None and process.stdout is not None
    told = []
    for line in process.stdout:
        told.append(line)
        if line.startswith("Round 1:"):
            break
    process.stdin.write("q\nyes\n")
    process.stdin.close()
    told += process.stdout.readlines()
    assert process.wait(timeout=60) == 0, process.stderr.read() if process.stderr else ""
    assert any(line.startswith("Quit the game?") for line in told), told
    assert told[-1] == "STATUS 0 []\n"

"""Line mode's `rules` says each rule once: whether totals may go below 0 was said twice
("Totals may go below 0." and then the switch's own "Totals below 0: allowed.")."""

from __future__ import annotations

import pytest

from ono99tui.client.options import TableOptions
from ono99tui.game import preset
from ono99tui.line.sentences import rules_lines


@pytest.mark.parametrize(("name", "said"), [
    ("1980", "Totals below 0: allowed."),
    ("2022", "Totals below 0: no, the total stops at 0."),
])
def test_below_zero_is_said_once(name: str, said: str) -> None:
    lines = rules_lines(TableOptions(rules=preset(name), preset=name))
    assert len(lines) == len(set(lines))
    below = [line for line in lines if "below 0" in line or "stops at 0" in line]
    assert below == [said]

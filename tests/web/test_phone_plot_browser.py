"""The phone page's plot of a round's total (`drawPlot` in static/phone/phone.js, its data
`plot_state` in web/phone/state.py): in Chromium, at a round's end and at the match's, an
inline SVG with one dot per play of the round and a cross per bust, named for a screen
reader in a sentence (role="img", aria-label), with no serious axe-core violation."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from phone_helpers import Phone, phone_context, play_until, wait_for_hand
from web_helpers import web_host

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLOT = """() => {
  const svg = document.querySelector('#results-plot svg');
  if (!svg || document.getElementById('results-plot').hidden) return null;
  return {role: svg.getAttribute('role'), label: svg.getAttribute('aria-label'),
          dots: [...svg.querySelectorAll('.plot-plays circle')].map(c => Number(c.dataset.total)),
          busts: svg.querySelectorAll('.plot-busts path').length,
          title: svg.querySelector('title').textContent,
          heading: document.querySelector('#results-plot h3').textContent};
}"""


def _check(phone: Phone, plot: dict[str, Any] | None) -> dict[str, Any]:
    assert plot is not None
    sent = phone.states()[-1]["plot"]
    assert plot["role"] == "img"
    assert plot["dots"] == sent["t"]  # one dot per play, at its total
    assert plot["busts"] == len(sent["b"]) >= 1
    last = sent["t"][-1] if sent["t"] else 0
    assert plot["label"].startswith(
        f"In round {sent['r']} the total went from 0 to {last} over {len(sent['t'])} plays")
    assert "busted at" in plot["label"] and plot["title"] == plot["label"]
    assert plot["heading"] == "The total, play by play"
    return sent


def test_the_round_and_the_match_end_show_the_totals_plot(browser: Any, tmp_path: Path) -> None:
    with web_host(tmp_path, "--grace", "30", "--rules", "1980", seed=5) as table, \
            phone_context(browser) as (context, outside):
        phone = Phone(context.new_page())
        phone.open(table.base, "ana")
        wait_for_hand(phone)
        # Play up to the first round's results (its Continue not tapped yet).
        rounds: list[Any] = []

        def round_shown() -> bool:
            if phone.match_over():
                return True
            if not phone.visible("#results-continue"):
                return False
            rounds.append(phone.page.evaluate(PLOT))
            return True

        play_until([phone], round_shown)
        assert rounds, "a 1980 match at this seed has more than one round"
        sent = _check(phone, rounds[0])
        assert sent["r"] == 1
        assert phone.axe() == []
        play_until([phone], phone.match_over)
        sent = _check(phone, phone.page.evaluate(PLOT))
        figures = os.environ.get("ONO99_FIGURES")  # docs/WEB.md's picture of it
        if figures:
            phone.page.locator("#results").screenshot(path=str(Path(figures) / "phone-plot.png"))
        assert phone.axe() == []
        assert phone.no_horizontal_scroll()
        assert phone.errors == []
        assert outside.urls == []

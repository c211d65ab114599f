"""The phone page after a match, in Chromium with a phone's screen and touch: a coach's
review of the player's plays (asked mid-match it is refused with a typed error frame;
asked at the end it is worked out in a child process, its progress shown, then the
costliest choices listed with the hand as chips, announced when ready), and the evening's
ratings as an inline SVG with a table under it (`drawReview` and `drawEvening` in
static/phone/phone.js; web/phone/review.py and `evening_state` in web/phone/state.py)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from phone_helpers import Phone, phone_context, play_until, wait_for_hand
from web_helpers import wait_until, web_host

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REVIEW = """() => {
  const box = document.getElementById('review');
  if (box.hidden) return null;
  return {heading: document.getElementById('review-title').textContent,
          focused: document.activeElement && document.activeElement.id,
          summary: document.getElementById('review-summary').textContent,
          plays: [...document.querySelectorAll('#review-plays > li')].map(li => ({
            says: li.querySelector('.review-says').textContent,
            position: li.querySelector('.review-position').textContent,
            chips: [...li.querySelectorAll('.chip')].map(c => ({
              label: c.querySelector('.chip-label').textContent,
              chance: c.querySelector('.chip-chance').textContent,
              mark: c.querySelector('.chip-mark') ? c.querySelector('.chip-mark').textContent : ''}))}))};
}"""
EVENING = """() => {
  const box = document.getElementById('evening');
  if (box.hidden) return null;
  const svg = box.querySelector('svg');
  return {label: svg.getAttribute('aria-label'), role: svg.getAttribute('role'),
          lines: [...svg.querySelectorAll('.evening-line')].map(g => g.dataset.name),
          names: [...svg.querySelectorAll('.plot-name')].map(t => t.textContent),
          axis: svg.querySelector('.plot-label').textContent,
          rows: [...document.querySelectorAll('#evening-rows tr')].map(
            tr => [...tr.children].map(c => c.textContent.trim()))};
}"""


def heard(phone: Phone) -> list[dict[str, Any]]:
    """The frames the page has been sent so far (Playwright hands its events over only
    while it is called: a short wait lets them in)."""
    phone.page.wait_for_timeout(50)
    return phone.frames


def review_frames(phone: Phone) -> list[dict[str, Any]]:
    return [frame for frame in heard(phone) if frame.get("t") == "review"]


def test_a_review_after_the_match_and_the_evenings_ratings(browser: Any, tmp_path: Path) -> None:
    with web_host(tmp_path, "--grace", "30", "--rules", "2022", seed=5) as table:
        figures = os.environ.get("ONO99_FIGURES")  # docs/WEB.md's pictures of it
        with phone_context(browser) as (context, outside):
            phone = Phone(context.new_page())
            phone.open(table.base, "ana")
            wait_for_hand(phone)
            # Mid-match the button is not offered; a forged tap is refused, typed.
            assert not phone.visible("#review-open")
            assert phone.states()[-1]["may"]["review"] is False
            phone.page.evaluate("() => document.getElementById('review-open').click()")
            refused = wait_until(lambda: [f for f in heard(phone) if f.get("t") == "error"
                                          and f.get("ref") == "review"], 10, "a refusal")
            assert refused[0]["code"] == "not-now"
            assert review_frames(phone) == []
            assert phone.visible("#hand")  # the match goes on as before
            play_until([phone], phone.match_over)
            assert phone.states()[-1]["may"]["review"] is True
            wait_until(lambda: phone.visible("#review-open"), 10, "the review's button")
            phone.page.tap("#review-open")
            phone.page.evaluate("() => document.getElementById('review-open').click()")  # again
            ready = wait_until(lambda: [f for f in review_frames(phone) if f["phase"] == "ready"],
                               120, "the review")
            frames = review_frames(phone)
            working = [f for f in frames if f["phase"] == "working"]
            assert working and working[0]["done"] == 0
            of = working[0]["of"]
            assert of >= 1 and {f["of"] for f in working} == {of}
            assert working[-1]["text"] == f"Reviewing your plays: {working[-1]['done']} of {of}..."
            assert len(ready) == 1  # a second tap while it worked started nothing new
            shown = wait_until(lambda: (phone.page.evaluate(REVIEW) or {}).get("summary"), 10,
                               "the summary")
            review = phone.page.evaluate(REVIEW)
            frame = ready[0]
            assert shown == frame["summary"] and review["heading"] == "A coach's review of your plays"
            assert review["focused"] == "review-title"
            assert "The review of your plays is ready." in (phone.page.text_content("#notice") or "")
            assert len(review["plays"]) == len(frame["plays"])
            for drawn, sent in zip(review["plays"], frame["plays"], strict=True):
                assert drawn["says"] == sent["text"] and drawn["position"] == sent["position"]
                assert [chip["label"] for chip in drawn["chips"]] == [c[0] for c in sent["hand"]]
                marks = {chip["label"]: chip["mark"] for chip in drawn["chips"] if chip["mark"]}
                assert "played" in marks[sent["played"]] and "best" in marks[sent["best"]]
                assert drawn["says"].startswith(f"At {sent['total']} you played {sent['played']}")
            if figures:
                phone.page.locator("#review").screenshot(path=str(Path(figures) / "phone-review.png"), scale="css")
            # The evening's ratings: one rated match, one line per player, named in text.
            evening = wait_until(lambda: phone.page.evaluate(EVENING), 10, "the ratings plot")
            sent_evening = phone.states()[-1]["evening"]
            names = [player[0] for player in sent_evening["p"]]
            assert "ana" in names and len(names) == 2 and sent_evening["m"] == [1]
            assert evening["role"] == "img" and evening["label"] == sent_evening["s"]
            assert evening["label"].startswith("Ratings this evening: ")
            assert evening["lines"] == names and sorted(evening["names"]) == sorted(names)
            assert evening["axis"] == "match"  # under its one tick "1": not "1 matches"
            assert [row[0] for row in evening["rows"]] == [f"{'●■'[i]} {n}" for i, n in enumerate(names)]
            if figures:
                phone.page.locator("#evening").screenshot(path=str(Path(figures) / "phone-evening.png"), scale="css")
            assert phone.axe() == []
            assert phone.no_horizontal_scroll()
            phone.page.tap("#review-close")
            assert not phone.visible("#review") and phone.visible("#review-open")
            assert phone.errors == []
            assert outside.urls == []

"""The catalogs against the code: every marked string translated in every language, none
left over, the placeholders the same, and the committed .mo files compiled from the .po."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

ROOT = Path(__file__).resolve().parents[2]


def _tools():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("catalogs", ROOT / "tools" / "catalogs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["catalogs"] = module
    spec.loader.exec_module(module)
    return module


catalogs = _tools()


@pytest.fixture(scope="module")
def code() -> Catalog:
    return catalogs.extract()


def test_the_code_marks_strings(code: Catalog) -> None:
    ids = {message.id for message in code if message.id}
    assert "Language: {language}" in ids
    assert len(ids) > 50


@pytest.mark.parametrize("language", catalogs.LANGUAGES)
def test_the_catalog_is_complete_current_and_compiled(language: str, code: Catalog) -> None:
    found = [str(problem) for problem in catalogs.problems(language, code)]
    assert found == [], "\n".join(found[:40])


def test_the_template_is_current(code: Catalog) -> None:
    template = catalogs.read_catalog(catalogs.TEMPLATE)
    assert {m.id for m in template if m.id} == {m.id for m in code if m.id}, (
        "run `python tools/catalogs.py all`")


def test_the_check_finds_what_is_wrong(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       code: Catalog) -> None:
    # A copy of the Bengali catalog with one string untranslated, one stale, one with a
    # placeholder renamed: each is reported, and the .mo (not recompiled) as older.
    from babel.messages.pofile import write_po

    catalog = catalogs.read_catalog(catalogs.po_path("bn"), "bn")
    catalog["Language: {language}"].string = "ভাষা: {lang}"
    catalog["ASCII glyphs"].string = ""
    catalog.add("A sentence the code no longer has.", "কোড থেকে মুছে ফেলা বাক্য।")
    target = tmp_path / "bn" / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / "ono99.po").open("wb") as stream:
        write_po(stream, catalog)
    (target / "ono99.mo").write_bytes(catalogs.po_path("bn").with_suffix(".mo").read_bytes())
    monkeypatch.setattr(catalogs, "LOCALE_DIR", tmp_path)
    found = [(p.message, p.what) for p in catalogs.problems("bn", code)]
    assert ("ASCII glyphs", "untranslated") in found
    assert ("A sentence the code no longer has.", "no longer in the code (run update)") in found
    assert any(m == "Language: {language}" and w.startswith("placeholders differ")
               for m, w in found)
    assert any(w.startswith("the .mo is older") for _m, w in found)


def test_placeholders_are_named_fields() -> None:
    assert catalogs.placeholders("{name} played {card} -> {total:d}; {{literal}}") == {
        "name", "card", "total"}

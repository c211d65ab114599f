"""The message catalogs' tooling: extract the strings, update each language, compile, check.

    python tools/catalogs.py extract   # code -> ono99tui/locale/ono99.pot
    python tools/catalogs.py update    # the .pot -> each locale/<lang>/LC_MESSAGES/ono99.po
    python tools/catalogs.py compile   # every .po -> its .mo (committed; shipped in the package)
    python tools/catalogs.py check     # what tests/i18n/test_catalogs.py checks, as a report
    python tools/catalogs.py all       # extract, update, compile, check

Needs Babel (the `i18n` extra: `pip install -e '.[i18n]'`). docs/TRANSLATING.md explains
the work around these steps.
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = ROOT / "ono99tui" / "locale"
TEMPLATE = LOCALE_DIR / "ono99.pot"
PHONE_TABLE = ROOT / "ono99tui" / "web" / "static" / "phone" / "messages.json"
DOMAIN = "ono99"
# `_("…")`, `N_("…")` (a constant marked for translation, translated where shown) and
# `ngettext("one", "many", n)`.
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
# The languages of the rule books (docs/TRANSLATING.md: adding one is `init`, then this list).
LANGUAGES = ("be", "bn", "kn", "ur", "ps")
# `{name}` / `{count:d}` placeholders of str.format, by field name.
PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)[^{}]*\}")


def extract() -> Catalog:
    """Every marked string of the package, as a template catalog."""
    catalog = Catalog(project="ono99", version="0.1.0", charset="utf-8")
    # The web door's pages (Jinja templates) call `_` as the code does (web/server.py `_page`).
    method_map = [("**.py", "python"), ("web/templates/*.html", "jinja2.ext:babel_extract")]
    for filename, lineno, message, comments, context in extract_from_dir(
        ROOT / "ono99tui", method_map=method_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    ):
        catalog.add(message, None, [(f"ono99tui/{filename}", lineno)], auto_comments=comments,
                    context=context)
    # The phone page's table of words: its values are msgids too (ono99tui/web/phone/
    # messages.py serves them translated).
    table = json.loads(PHONE_TABLE.read_text(encoding="utf-8"))
    for key, value in table.items():
        if key not in ("lang", "dir"):  # [singular, plural]: a plural entry, as ngettext's
            catalog.add(tuple(value) if isinstance(value, list) else value, None,
                        [(PHONE_TABLE.relative_to(ROOT).as_posix(), 0)],
                        auto_comments=[f"phone page: {key}"])
    return catalog


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as stream:
        return read_po(stream, locale=language, domain=DOMAIN)


def _write(catalog: Catalog, path: Path) -> None:
    buffer = io.BytesIO()
    # No line numbers (file names only): an edit elsewhere in a file does not churn every catalog.
    write_po(buffer, catalog, width=100, sort_output=True, include_lineno=False,
             omit_header=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def write_template() -> None:
    template = extract()
    template.creation_date = _fixed_date()
    _write(template, TEMPLATE)


def _fixed_date():  # type: ignore[no-untyped-def]
    # A fixed date in the header, so extracting twice gives the same file.
    import datetime

    return datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


def update() -> None:
    """Merge the template into each language's catalog (new strings untranslated, gone ones
    dropped: a stale translation is no use to keep)."""
    template = read_catalog(TEMPLATE)
    for language in LANGUAGES:
        path = po_path(language)
        if path.exists():
            catalog = read_catalog(path, language)
        else:
            catalog = Catalog(locale=language, domain=DOMAIN, project="ono99", version="0.1.0")
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        # The header is ours, not a machine's guess: not fuzzy, and naming who to ask.
        catalog.fuzzy = False
        catalog.last_translator = "ono99 <docs/TRANSLATING.md>"
        catalog.language_team = f"{language} <docs/TRANSLATING.md>"
        catalog.copyright_holder = "the ono99 authors"
        catalog.msgid_bugs_address = "docs/TRANSLATING.md"

        catalog.creation_date = _fixed_date()
        catalog.revision_date = _fixed_date()
        _write(catalog, path)


def compile_all() -> None:
    for language in LANGUAGES:
        catalog = read_catalog(po_path(language), language)
        buffer = io.BytesIO()
        write_mo(buffer, catalog, use_fuzzy=False)
        po_path(language).with_suffix(".mo").write_bytes(buffer.getvalue())


def placeholders(text: str) -> set[str]:
    """The named fields of a str.format template."""
    return set(PLACEHOLDER.findall(text))


@dataclass(frozen=True)
class Problem:
    language: str
    message: str
    what: str

    def __str__(self) -> str:
        return f"{self.language}: {self.what}: {self.message!r}"


def _ids(message: Message) -> tuple[str, ...]:
    return message.id if isinstance(message.id, tuple) else (message.id,)


def _strings(message: Message) -> tuple[str, ...]:
    if isinstance(message.string, tuple | list):
        return tuple(message.string)
    return (message.string or "",)


def problems(language: str, code: Catalog | None = None) -> Iterator[Problem]:
    """What is wrong with one language's catalog against the code: strings missing or
    untranslated or fuzzy, strings no longer in the code, placeholders that differ, and a
    compiled .mo that does not say what the .po says."""
    code = code if code is not None else extract()
    path = po_path(language)
    if not path.exists():
        yield Problem(language, str(path), "no catalog")
        return
    catalog = read_catalog(path, language)
    wanted = {message.id for message in code if message.id}
    have = {message.id for message in catalog if message.id}
    for missing in sorted(map(str, wanted - have)):
        yield Problem(language, missing, "not in the catalog (run update)")
    for stale in sorted(map(str, have - wanted)):
        yield Problem(language, stale, "no longer in the code (run update)")
    for message in catalog:
        if not message.id or message.id not in wanted:
            continue
        ids, strings = _ids(message), _strings(message)
        if message.fuzzy or not all(strings):
            yield Problem(language, ids[0], "untranslated")
            continue
        expected = set().union(*(placeholders(text) for text in ids))
        for text in strings:
            # A plural form may leave out the count where the language says it with a word
            # ("one card"), but it may not invent a field the code does not fill.
            if not placeholders(text) <= expected or (
                    len(ids) == 1 and placeholders(text) != expected):
                yield Problem(language, ids[0], f"placeholders differ in {text!r}")
    mo_path = path.with_suffix(".mo")
    if not mo_path.exists():
        yield Problem(language, str(mo_path), "not compiled (run compile)")
        return
    import gettext

    with mo_path.open("rb") as stream:
        compiled = gettext.GNUTranslations(stream)
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        ids, strings = _ids(message), _strings(message)
        if len(ids) == 1:
            got = compiled.gettext(ids[0])
            if strings[0] and got != strings[0]:
                yield Problem(language, ids[0], "the .mo is older than the .po (run compile)")
        elif strings[0] and compiled.ngettext(ids[0], ids[1], 1) != strings[
                catalog.plural_expr and _plural_index(catalog, 1)]:
            yield Problem(language, ids[0], "the .mo is older than the .po (run compile)")


def _plural_index(catalog: Catalog, count: int) -> int:
    import gettext

    return int(gettext.c2py(catalog.plural_expr)(count))


def main(argv: list[str]) -> int:
    steps = {"extract": write_template, "update": update, "compile": compile_all}
    command = argv[1] if len(argv) > 1 else "all"
    if command in steps:
        steps[command]()
        return 0
    if command == "all":
        for step in steps.values():
            step()
    elif command != "check":
        print(__doc__, file=sys.stderr)
        return 2
    code = extract()
    found = [problem for language in LANGUAGES for problem in problems(language, code)]
    for problem in found:
        print(problem)
    print(f"{len(code) - 1} strings; {len(found)} problems", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

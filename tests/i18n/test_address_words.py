"""A mistyped table address is said in the player's language: `netproto` words its
`AddressError`s in English (it knows no languages), and `ono99tui.words.addresses` says
each of their codes through the catalogs."""

from __future__ import annotations

import pytest

from netproto.addresses import AddressError, parse_address
from ono99tui import i18n
from ono99tui.words.addresses import address_problem

# One mistyped address for every problem `parse_address` names.
MISTYPED = ["", "   ", "http://", "ftp://host", "http://[::1", "[::1", "[::1]x", "[nothere]:9",
            "1:2:3:zz", "bad host", "x" * 300, "host:99999", "host:port", "host:²"]


def problems_of(texts: list[str]) -> list[AddressError]:
    errors = []
    for text in texts:
        with pytest.raises(AddressError) as caught:
            parse_address(text)
        errors.append(caught.value)
    return errors


def test_every_problem_has_words_of_its_own_in_english_as_before() -> None:
    errors = problems_of(MISTYPED)
    assert {error.code for error in errors} == {
        "empty", "web_address_without_host", "other_url", "bad_web_address",
        "no_closing_bracket", "junk_after_bracket", "not_ipv6", "bare_ipv6_with_port",
        "bad_host", "bad_port"}
    for error in errors:  # English, the words are netproto's own
        assert address_problem(error) == str(error), error.code


@pytest.mark.parametrize("language", ["be", "bn", "kn", "ur", "ps"])
def test_a_mistyped_address_is_said_in_the_language(language: str) -> None:
    errors = problems_of(MISTYPED)
    try:
        assert i18n.use_language(language)
        for error in errors:
            said = address_problem(error)
            assert said != str(error), (error.code, said)
            for value in error.values.values():  # what was typed, as typed
                assert repr(value) in said, (error.code, said)
    finally:
        i18n.use_language(None)

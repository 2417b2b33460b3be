"""replay_web.i18n.translate: lower layers' messages shown in the chosen language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from domain.text import say
from replay_web import i18n


@pytest.fixture
def catalogue(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    entries: dict[str, str] = {}

    class Fake:
        def gettext(self, message: str) -> str:
            return entries.get(message, message)

    monkeypatch.setattr(i18n, "_current", Fake())
    yield entries


def test_a_message_and_its_nested_messages_are_translated(catalogue: dict[str, str]) -> None:
    catalogue["{what}: card {card}"] = "{what}: carta {card}"
    catalogue["not legal"] = "non regolare"
    message = say("{what}: card {card}", what=say("not legal"), card="7d")
    assert i18n.translate(message) == "non regolare: carta 7d"
    assert i18n.translate_error(ValueError(message)) == "non regolare: carta 7d"


def test_plain_text_and_a_broken_translation_stay_english(catalogue: dict[str, str]) -> None:
    catalogue["card {card}"] = "carta {carta}"
    assert i18n.translate(say("card {card}", card="Rc")) == "card Rc"
    assert i18n.translate("as it is") == "as it is"
    assert i18n.translate_error(KeyError("k")) == "'k'"

"""domain.text: a message is its English text and keeps its template for translation."""

from __future__ import annotations

import pickle

import pytest

from domain.text import Said, said_of, say


def test_a_message_is_the_english_text_and_keeps_template_and_params() -> None:
    message = say("seat {seat} plays {card}", seat=2, card="7d")
    assert message == "seat 2 plays 7d"
    assert isinstance(message, str) and isinstance(message, Said)
    assert message.template == "seat {seat} plays {card}"
    assert message.params == {"seat": 2, "card": "7d"}
    assert pickle.loads(pickle.dumps(message)).template == message.template


def test_an_exception_raised_with_a_message_gives_it_back() -> None:
    with pytest.raises(ValueError) as raised:
        raise ValueError(say("no {thing}", thing="card"))
    said = said_of(raised.value)
    assert said is not None and said.template == "no {thing}"
    assert str(raised.value) == "no card"
    assert said_of(ValueError("plain")) is None
    assert said_of(ValueError(say("a"), "b")) is None

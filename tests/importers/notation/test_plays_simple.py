"""A line of plays read word by word (plays_simple.py) against the grammar's play pattern.

Over random lines of plays the grammar accepts (numbered or not, cards in every spelling the
reader takes, captures, scopa marks, seats, matta values, markers, one or more spaces or tabs),
`plain_plays` either declines or gives exactly the plays the pattern gives, positions included;
and a line written the plain way, as the writer writes it, is always read word by word.
"""

from __future__ import annotations

import re
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Token

from domain.cards import DECK
from importers.notation import plays_simple, reader, reader_build
from importers.notation.plays_simple import plain_plays
from tests.importers.notation.test_reader_lines import exact

MANY = settings(max_examples=settings().max_examples * 5)
PLAYS_LINE = re.compile(reader._PARSER.get_terminal("PLAYS_LINE").pattern.to_regexp())

codes = st.sampled_from([card.code for card in DECK])
spellings = st.one_of(codes, codes.map(str.lower), codes.map(str.upper), st.just("??"),
                      st.sampled_from(["7♦", "A♠", "R♥", "5♣"]))
gaps = st.one_of(st.just(" "), st.sampled_from(["  ", "\t", " \t"]))


@st.composite
def plays(draw: st.DrawFn, plain: bool) -> str:
    card = draw(codes if plain else spellings)
    text = card if plain or draw(st.integers(0, 9)) else f"{draw(st.integers(1, 4))}:{card}"
    if draw(st.booleans()):
        taken = draw(st.lists(codes if plain else spellings, min_size=1, max_size=4))
        gap = " " if plain else draw(gaps)
        text += f"{gap}x{gap}" + "+".join(taken)
    if not plain and not draw(st.integers(0, 9)):
        text += f"={draw(st.integers(1, 10))}"
    if draw(st.integers(0, 3)) == 0:
        text += "#"
    if not plain and not draw(st.integers(0, 9)):
        text += "!" + draw(st.sampled_from(["tardi", "fuori-turno", "x"]))
    return text


@st.composite
def lines(draw: st.DrawFn, plain: bool) -> str:
    words = draw(st.lists(plays(plain), min_size=1, max_size=6))
    if draw(st.booleans()):
        words.insert(0, f"{draw(st.integers(1, 40))}.")
    gap = " " if plain else draw(gaps)
    trailing = "" if plain else draw(st.sampled_from(["", " ", "\t "]))
    return gap.join(words) + trailing + "\n"


def by_pattern(text: str, line: int, column: int) -> object:
    """plays_of's reading with the pattern alone."""
    token = Token("PLAYS_LINE", text, line=line, column=column)
    with mock.patch.object(reader_build, "plain_plays", lambda *args: None):
        return exact(reader_build.plays_of(token))


@MANY
@given(st.one_of(lines(plain=False), lines(plain=True)), st.integers(1, 500),
       st.integers(1, 3))
def test_it_declines_or_reads_as_the_pattern(text: str, line: int, column: int) -> None:
    if PLAYS_LINE.fullmatch(text) is None:
        return   # not a line of plays the grammar takes: plays_of never sees it
    plain = plain_plays(text, line, column)
    if plain is not None:
        assert exact(plain) == by_pattern(text, line, column)


@given(lines(plain=True), st.integers(1, 500))
def test_a_line_written_the_plain_way_is_read_word_by_word(text: str, line: int) -> None:
    assert PLAYS_LINE.fullmatch(text) is not None
    plain = plain_plays(text, line, 1)
    assert plain is not None
    assert exact(plain) == by_pattern(text, line, 1)
    token = Token("PLAYS_LINE", text, line=line, column=1)
    with mock.patch.object(reader_build, "plain_plays", wraps=plays_simple.plain_plays) as seen:
        assert exact(reader_build.plays_of(token)) == exact(plain)
    assert seen.called

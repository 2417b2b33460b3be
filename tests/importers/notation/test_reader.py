"""The notation reader: exact models of whole records, each syntax element, each error."""

from __future__ import annotations

import io

import pytest

from domain.cards import UNKNOWN, Card, parse_card
from importers.notation.errors import NotationError
from importers.notation.model import (
    Pos,
    Tag,
    WrittenAccuso,
    WrittenClaim,
    WrittenIncident,
    WrittenLayout,
    WrittenMatch,
    WrittenPlay,
    WrittenSmazzata,
)
from importers.notation.reader import Parsed, read, read_bytes
from tests.importers.notation.strategies import (
    BRISCOLA_2P_CLAIM,
    BRISCOLA_4P,
    CIRULLA_2P_PARTIAL,
    CIRULLA_4P,
    VALID_RECORDS,
)

HEAD = '[Game "cirulla"]\n[Players "Anna, Bruno"]\nSmazzata 1\nTable 7d 3c 4b 5s\n'
"""Four lines of a valid Cirulla record: what a test writes next is on line 5."""


def c(*codes: str) -> tuple[Card, ...]:
    return tuple(UNKNOWN if code == "??" else parse_card(code) for code in codes)


def one(text: str) -> WrittenMatch:
    parsed = read(text, "t.vbl")
    assert parsed.errors == ()
    assert len(parsed.matches) == 1
    return parsed.matches[0]


def moves(text: str) -> tuple[object, ...]:
    return one(HEAD + text).smazzate[0].moves


def error(text: str) -> NotationError:
    with pytest.raises(NotationError) as raised:
        read(text, "t.vbl")
    return raised.value


# ---- whole records ---------------------------------------------------------------------------


def test_cirulla_two_players_partial_record() -> None:
    (d7, c3, unknown, rc), = (c("7d", "3c", "??", "Rc"),)
    assert one(CIRULLA_2P_PARTIAL) == WrittenMatch(
        tags=(Tag("Game", "cirulla"), Tag("Event", 'Circolo "Il Ponte"'),
              Tag("Date", "2026.??.??"), Tag("Players", "Anna, Bruno"), Tag("Arbiter", "Carla")),
        smazzate=(WrittenSmazzata(
            number=0, dealer=0, seed=None,
            attempts=(WrittenLayout(table=(d7, c3, unknown, rc),
                                    hands=(None, c("Ad", "5s", "??"))),),
            moves=(WrittenPlay(c("Ad")[0], seat=1),
                   WrittenPlay(c("7c")[0], seat=0, capture=(d7,), matta_value=7, scopa=True),
                   WrittenPlay(c("5s")[0]),
                   WrittenPlay(c("2c")[0], irregular="fuori-turno"),
                   WrittenPlay(UNKNOWN, capture=c("3c", "2c")),
                   WrittenPlay(c("Fb")[0]),
                   WrittenIncident("timeout", seat=0, elapsed_ms=12500)),
            claim=WrittenClaim((("scope", 1, 0), ("settebello", 0, 1), ("primiera", 1, 0),
                                ("denari", 0, 0), ("carte", 1, 0)))),))


def test_briscola_four_players_record() -> None:
    plays = [WrittenPlay(card) for card in c("Ad", "3d", "Rd", "Cd", "7b", "Ab", "2b", "6b")]
    assert one(BRISCOLA_4P) == WrittenMatch(
        tags=(Tag("Game", "briscola"), Tag("Players", "Anna, Bruno, Carla, Dario"),
              Tag("Visibility", "carte_viste")),
        smazzate=(WrittenSmazzata(
            number=0, dealer=2, seed=None, attempts=(WrittenLayout(briscola=c("Rc")[0]),),
            moves=(*plays, WrittenIncident("ruling", reason="parlato al compagno",
                                           arbiter="arbitro", ruling="warning")),
            claim=WrittenClaim((("punti", 70, 50), ("prese", 6, 4), ("carte", 20, 20)))),))


def test_italian_keywords_attempts_stock_accuso_and_what_follows_end() -> None:
    match = one(CIRULLA_4P)
    first, second = match.smazzate
    assert (first.dealer, first.seed) == (3, "00ff17")
    assert [a.table for a in first.attempts] == [c("Rd", "Rc", "Rb", "Rs"),
                                                 c("4d", "5c", "6b", "7s")]
    assert first.attempts[0].hands is None and first.attempts[0].stock is None
    assert first.attempts[1].hands == (c("Ad", "2d", "3d"), c("Ac", "2c", "3c"),
                                       c("Ab", "2b", "3b"), c("As", "2s", "3s"))
    assert first.attempts[1].stock == c("4c", "5d", "??", "6s")
    assert first.moves[0] == WrittenAccuso(0, "cirulla", c("Ad", "2d", "3d"))
    assert second.moves[-1] == WrittenIncident("abandon", seat=2, elapsed_ms=40000,
                                               reason="malore")
    assert match.after == (WrittenIncident("ruling", reason="abbandono", arbiter="Carla",
                                           ruling="penalty", smazzata=1, adjustment=(0, 3),
                                           refers=("Abandoned", 1)),)


def test_french_cards_deal_alias_and_claim() -> None:
    match = one(BRISCOLA_2P_CLAIM)
    smazzata = match.smazzate[0]
    assert smazzata.attempts[0].briscola == c("7d")[0]
    assert smazzata.attempts[0].hands == (c("Rc", "Cs", "3b"), None)
    assert [m.card for m in smazzata.moves if isinstance(m, WrittenPlay)] == list(
        c("Rc", "3b", "Cs", "As"))
    assert smazzata.claim == WrittenClaim((("punti", 61, 59), ("prese", 11, 9),
                                           ("vinco_subito", 0, 0)))


def test_several_matches_in_one_file_keep_their_source_and_position() -> None:
    parsed = read("\n\n".join(VALID_RECORDS), "all.vbl")
    assert [m.tag("Game") for m in parsed.matches] == ["cirulla", "cirulla", "briscola",
                                                       "briscola"]
    # the first record's lines, then the two blank lines of the join
    assert parsed.matches[1].pos == Pos(CIRULLA_2P_PARTIAL.count("\n") + 3, 1)
    assert {m.source for m in parsed.matches} == {"all.vbl"}


@pytest.mark.parametrize("record", VALID_RECORDS)
def test_crlf_bom_and_text_files_read_the_same(record: str) -> None:
    lf = read(record).matches
    assert read(record.replace("\n", "\r\n")).matches == lf
    assert read("\ufeff" + record).matches == lf
    assert read_bytes(b"\xef\xbb\xbf" + record.encode(), "b").matches == lf
    assert read(io.StringIO(record)).matches == lf


def test_empty_text_has_no_match() -> None:
    assert read("; only a comment\n\n") == Parsed((), ())


# ---- syntax elements ------------------------------------------------------------------------


def test_play_parts_and_their_positions() -> None:
    play, = moves("12. 2:Ad x 3c + 4b=5#!presa-mancata\n")
    assert play == WrittenPlay(c("Ad")[0], 1, c("3c", "4b"), 5, True, "presa-mancata")
    assert isinstance(play, WrittenPlay) and play.pos == Pos(5, 5)


def test_comments_anywhere_between_tokens() -> None:
    text = "1. 7d {a comment\nover two lines} 3c ; to the end\n{x} 2. Ab\n"
    assert moves(text) == tuple(WrittenPlay(card) for card in c("7d", "3c", "Ab"))
    assert [m.pos for m in moves(text)] == [Pos(5, 4), Pos(6, 17), Pos(7, 8)]  # type: ignore[attr-defined]


def test_keywords_are_case_insensitive_and_plays_need_no_move_number() -> None:
    text = HEAD.replace("Smazzata", "DEAL").replace("Table", "tavola") + "7d 3c\n"
    assert one(text).smazzate[0].moves == (WrittenPlay(c("7d")[0]), WrittenPlay(c("3c")[0]))


def test_tag_escapes() -> None:
    match = one('[Game "cirulla"]\n[Players "A \\"B\\", C\\\\D"]\n')
    assert match.tag("Players") == 'A "B", C\\D'


def test_incident_lines() -> None:
    assert moves('Timeout 2\nAbandon 1 "va via"\nDecisione "x" nullo smazzata 1 adjust -1-2 '
                 '"perché"\n') == (
        WrittenIncident("timeout", seat=1),
        WrittenIncident("abandon", seat=0, reason="va via"),
        WrittenIncident("ruling", arbiter="x", ruling="nullo", smazzata=0, adjustment=(-1, 2),
                        reason="perché"))


def test_accuso_with_matta_value() -> None:
    assert moves("Accuso 2 decino 7c 3d 3s matta 3\n") == (
        WrittenAccuso(1, "decino", c("7c", "3d", "3s"), 3),)


# ---- errors -----------------------------------------------------------------------------------

CARD = "a card such as 7d or ??"
PLAY = "a play such as 7d, 2: 7d, 7c x 3c+4b =5 # or 7d !fuori-turno or the end of the line"


@pytest.mark.parametrize(("text", "line", "column", "found", "expected"), [
    (HEAD + "1. 9d 3c\n", 5, 4, "'9d'", PLAY),
    (HEAD + "1. 7d x 9c\n", 5, 9, "'9c'", CARD + " after x"),
    (HEAD + "1. 7d 3c =x\n", 5, 11, "'x'", "the matta's value such as =5"),
    (HEAD + "1. Ad !boh\n", 5, 7, "'!boh'",
     "a marker among !fuori-turno, !presa-mancata, !presa-sbagliata, !carta-sbagliata, "
     "!accuso-mancato"),
    (HEAD + "1. 3: Ad\n", 5, 4, "'3:'", "a seat from 1 to 2"),
    (HEAD + "Hand 1 7d 8c\n", 5, 11, "'8c'", CARD + ", the end of the line or matta"),
    (HEAD + "Hand 3 7d\n", 5, 6, "'3'", "a seat from 1 to 2"),
    (HEAD + "Timeout x\n", 5, 9, "'x'", "a seat such as 1"),
    (HEAD + "Claimed scope 1-0 punti 3-3\n", 5, 19, "'punti'",
     "a category among scope, settebello, primiera, denari, carte, grande, piccola, accusi"),
    (HEAD + "Smazzata 3\nTable 1d 2d 3d 4d\n", 5, 10, "'3'", "the smazzata number 2"),
    (HEAD + "{ unclosed\n1. 7d\n", 5, 1, "'{'", "a comment closed by }"),
    (HEAD + "1. 7d\x00\n", 5, 6, "character U+0000",
     "text without control characters (only tab, CR and LF)"),
    (HEAD + "Accuso 1 boh 7d\n", 5, 10, "'boh'", "an accuso kind: cirulla or decino"),
    (HEAD + "Table 1d\n", 5, 1, "'1d'", "a Table line of 4 cards"),
    ('[Game "cir', 1, 7, "'\"cir'", 'a quoted text closed by " on the same line '
     '(escapes: \\" and \\\\)'),
    ('[Game "scopa"]\n[Players "a, b"]\n', 1, 1, "'[Game \"scopa\"]'",
     'a first tag [Game "cirulla"] or [Game "briscola"]'),
    ('[Players "a, b"]\n[Game "cirulla"]\n', 1, 1, "'[Players \"a, b\"]'",
     'a first tag [Game "cirulla"] or [Game "briscola"]'),
    ('[Game "cirulla"]\n[Players "a"]\n', 2, 1, "'a'", "2 or 4 player names separated by commas"),
    ('[Game "cirulla"]\n', 1, 1, "no Players tag", 'a tag such as [Players "Anna, Bruno"]'),
    ("Smazzata 1\n", 1, 1, "'Smazzata'", 'a tag such as [Game "cirulla"] or the end of the line'),
    ('[Game "briscola"]\n[Players "a, b"]\nSmazzata 1\nTable 1d 2d 3d 4d\n', 4, 1, "'Table'",
     "a Briscola line with one card"),
    (HEAD + "1. 7d\nDealer 1\n", 6, 1, "'Dealer'",
     "a play: Dealer, Seed and Table come before the plays"),
])
def test_error_positions_found_and_expected(text: str, line: int, column: int, found: str,
                                            expected: str) -> None:
    raised = error(text)
    assert (raised.source, raised.line, raised.column, raised.found, raised.expected) == (
        "t.vbl", line, column, found, expected)


def test_undecodable_byte_is_reported_at_its_character_column() -> None:
    data = b'[Game "cirulla"]\n[Site "Caff\xe8 \xe9"]\n[Players "A, B"]\n'
    with pytest.raises(NotationError) as raised:
        read_bytes(data, "b.vbl")
    assert (raised.value.line, raised.value.column, raised.value.found,
            raised.value.expected) == (2, 12, "byte 0xE8", "UTF-8 text")
    lenient = read_bytes(data, "b.vbl", lenient=True)
    assert [(e.line, e.column, e.found) for e in lenient.errors] == [
        (2, 12, "byte 0xE8"), (2, 14, "byte 0xE9")]
    assert lenient.matches == ()


def test_lenient_collects_every_error_and_keeps_the_good_matches() -> None:
    bad = HEAD + "1. 9d 3c\nHand 7 7d\n1. Ad !boh\nClaimed punti 1-0\n"
    parsed = read(bad + "\n" + BRISCOLA_4P + "\n" + bad, "l.vbl", lenient=True)
    later = bad.count("\n") + 1 + BRISCOLA_4P.count("\n") + 1
    assert [(e.line, e.column) for e in parsed.errors] == [
        (5, 4), (6, 6), (7, 7), (8, 9),
        (later + 5, 4), (later + 6, 6), (later + 7, 7), (later + 8, 9)]
    assert [m.tag("Game") for m in parsed.matches] == ["briscola"]
    assert all(e.source == "l.vbl" for e in parsed.errors)


def test_strict_raises_the_first_error() -> None:
    raised = error(HEAD + "1. Ad !boh\nHand 7 7d\n")
    assert (raised.line, raised.column) == (5, 7)
    assert str(raised).startswith("t.vbl:5:7: found '!boh', expected a marker")


@pytest.mark.parametrize(("text", "line", "column", "found", "expected"), [
    ('[Game "cirulla"]\n[Players "a, b"]\n[Players "c, d"]\n', 3, 1, "'Players'",
     "each tag once"),
    ('[Game "cirulla"]\n[Players "a, b"]\n[FirstDealer "3"]\n', 3, 1, "'3'",
     "a seat from 1 to 2"),
    (HEAD + "1. 7d\r3c\n", 5, 6, "character U+000D",
     "text without control characters (only tab, CR and LF)"),
    (HEAD + "Stock 7d\nStock 3c\n", 6, 1, "'Stock'", "one Stock line for each Table"),
    (HEAD + "Claimed scope 1-0\nClaimed scope 1-0\n", 6, 1, "'Claimed'",
     "one Claimed line for each smazzata"),
])
def test_more_error_kinds(text: str, line: int, column: int, found: str, expected: str) -> None:
    raised = error(text)
    assert (raised.line, raised.column, raised.found, raised.expected) == (
        line, column, found, expected)


def test_undecodable_text_file() -> None:
    with pytest.raises(NotationError) as raised:
        read(io.TextIOWrapper(io.BytesIO(b"\xe9"), encoding="utf-8"), "t.vbl")
    assert (raised.value.found, raised.value.expected) == ("byte 0xE9", "UTF-8 text")


def test_lenient_keeps_the_matches_before_a_truncated_one() -> None:
    text = CIRULLA_4P + "\n" + BRISCOLA_4P[:BRISCOLA_4P.index("Ad 3d") + 4]
    parsed = read(text, "t.vbl", lenient=True)
    assert parsed.matches == read(CIRULLA_4P).matches
    assert len(parsed.errors) == 1 and parsed.errors[0].line == CIRULLA_4P.count("\n") + 9


# ---- a ruling's reference, a Result below zero, matches of tags only --------------------------


def test_a_ruling_refers_to_an_event_by_its_type_in_any_case_and_its_ordinal() -> None:
    assert moves('Ruling "Rossi" adjust-score adjust 1-0 refers CardPlayed 12 "vista"\n'
                 'Decisione "Rossi" adjust-score refers seedrevealed 1 "seme"\n') == (
        WrittenIncident("ruling", arbiter="Rossi", ruling="adjust-score", adjustment=(1, 0),
                        refers=("CardPlayed", 12), reason="vista"),
        WrittenIncident("ruling", arbiter="Rossi", ruling="adjust-score",
                        refers=("SeedRevealed", 1), reason="seme"))


@pytest.mark.parametrize(("text", "column", "found", "expected"), [
    ('Ruling "R" adjust-score refers CartaGiocata 3 "x"\n', 32, "'CartaGiocata'",
     "an event type such as CardPlayed, SmazzataEnded or SeedRevealed"),
    ('Ruling "R" adjust-score refers 14 "x"\n', 32, "'14'", "an event type such as CardPlayed"),
    ('Ruling "R" adjust-score refers CardPlayed "x"\n', 43, "'\"x\"'", "a number"),
    ('Ruling "R" adjust-score refers CardPlayed 0 "x"\n', 43, "'0'",
     "the event's ordinal among those of its type, from 1"),
])
def test_a_reference_that_names_no_event_is_an_error(text: str, column: int, found: str,
                                                     expected: str) -> None:
    raised = error(HEAD + text)
    assert (raised.line, raised.column, raised.found, raised.expected) == (
        5, column, found, expected)


def test_the_event_types_are_the_domains() -> None:
    from typing import get_args

    from domain.record.match import MatchEvent
    from importers.notation.model import EVENT_TYPES

    assert sorted(EVENT_TYPES) == sorted(kind.__name__ for kind in get_args(MatchEvent))


def test_a_match_of_tags_only_ends_at_the_next_game_tag() -> None:
    text = ('[Game "cirulla"]\n[Players "Anna, Bruno"]\n[Result "7--1"]\n'
            '[Game "briscola"]\n[Players "Carla, Dario"]\nSmazzata 1\nBriscola 7d\n')
    first, second = read(text, "t.vbl").matches
    assert first == WrittenMatch((Tag("Game", "cirulla"), Tag("Players", "Anna, Bruno"),
                                  Tag("Result", "7--1")))
    assert (second.tag("Players"), second.pos, len(second.smazzate)) == (
        "Carla, Dario", Pos(4, 1), 1)
    lenient = read(text, "t.vbl", lenient=True)
    assert lenient.errors == () and lenient.matches == (first, second)

"""The writer's strict export form: exact text for small hand-built records."""

from __future__ import annotations

from typing import Any

import pytest

from domain.cards import UNKNOWN, Card, parse_card
from importers.notation.model import (
    Tag,
    WrittenAccuso,
    WrittenClaim,
    WrittenIncident,
    WrittenLayout,
    WrittenMatch,
    WrittenPlay,
    WrittenSmazzata,
)
from importers.notation.writer import ordered_tags, quoted, seconds, write, write_matches


def c(text: str) -> tuple[Card, ...]:
    return tuple(UNKNOWN if t == "??" else parse_card(t) for t in text.split())


def card(text: str) -> Card:
    return c(text)[0]


def play(text: str, **fields: Any) -> WrittenPlay:
    return WrittenPlay(card(text), **fields)


CIRULLA = WrittenMatch(
    tags=(Tag("Game", "cirulla"), Tag("Players", "Anna,Bruno"), Tag("Format", "1smazzata"),
          Tag("FirstDealer", "1"), Tag("Event", 'Torneo "del" bar \\ sera'),
          Tag("Result", "3-9"), Tag("Annotator", "Rossi")),
    smazzate=(WrittenSmazzata(
        number=0, dealer=0, seed="00ff",
        attempts=(WrittenLayout(table=c("Ad As Ac Fb")),   # a monte: three assi
                  WrittenLayout(table=c("3d 2d 3s Rs"),
                                hands=(c("Cd Cc 7b"), c("?? ?? ??")),
                                stock=c("?? Fb ?? 2b"))),
        moves=(play("As", capture=c("2d 3d 3s Rs"), scopa=True),
               WrittenAccuso(1, "cirulla", c("7c 2c Ab"), matta_value=1),
               play("7c", matta_value=1), play("Cc", capture=c("7c"), matta_value=1, scopa=True),
               play("3b", seat=0, irregular="fuori-turno"),
               play("Ac", irregular="presa-mancata"),
               WrittenIncident("timeout", seat=1, elapsed_ms=61250),
               WrittenIncident("abandon", seat=0, elapsed_ms=305000, reason="assenza"),
               WrittenIncident("ruling", arbiter='Rossi "arbitro"', ruling="adjust-score",
                               smazzata=0, adjustment=(-1, 2), refers=("CardPlayed", 4),
                               reason="carta vista")),
        claim=WrittenClaim((("scope", 2, 0), ("settebello", 0, 1), ("accusi", 0, 3)))),),
    after=(WrittenIncident("ruling", arbiter="Rossi", ruling="annul-smazzata", smazzata=0,
                           reason="mazzo incompleto"),),
)

CIRULLA_TEXT = """\
[Game "cirulla"]
[Event "Torneo \\"del\\" bar \\\\ sera"]
[Players "Anna,Bruno"]
[Format "1smazzata"]
[FirstDealer "1"]
[Annotator "Rossi"]
[Result "3-9"]

Smazzata 1
Dealer 1
Seed 00ff
Table Ad As Ac Fb
Table 3d 2d 3s Rs
Hand 1 Cd Cc 7b
Hand 2 ?? ?? ??
Stock ?? Fb ?? 2b
1. As x 2d+3d+3s+Rs#
Accuso 2 cirulla 7c 2c Ab matta 1
7c=1
2. Cc x 7c=1# 1:3b!fuori-turno
3. Ac!presa-mancata
Timeout 2 61.25s
Abandon 1 "assenza" 305s
Ruling "Rossi \\"arbitro\\"" adjust-score smazzata 1 adjust -1-2 refers CardPlayed 4 "carta vista"
Claimed scope 2-0 settebello 0-1 accusi 0-3

End
Ruling "Rossi" annul-smazzata smazzata 1 "mazzo incompleto"
"""

BRISCOLA = WrittenMatch(
    tags=(Tag("Game", "briscola"), Tag("Players", "Anna,Bruno,Carla,Dario")),
    smazzate=(WrittenSmazzata(
        number=0, dealer=3, seed=None,
        attempts=(WrittenLayout(briscola=card("7d"), hands=(c("Ad 2d 3d"), None, None, None)),),
        moves=(play("Ad"), play("Rc"), play("Fb"), play("Cs"), play("2d")),
        claim=WrittenClaim((("punti", 61, 59), ("vinco_subito", 1, 0)))),),
)

BRISCOLA_TEXT = """\
[Game "briscola"]
[Players "Anna,Bruno,Carla,Dario"]

Smazzata 1
Dealer 4
Briscola 7d
Hand 1 Ad 2d 3d
1. Ad Rc Fb Cs
2. 2d
Claimed punti 61-59 vinco_subito 1-0
"""


def test_a_cirulla_record_in_the_strict_form() -> None:
    assert write(CIRULLA) == CIRULLA_TEXT


def test_a_briscola_record_a_trick_a_line() -> None:
    assert write(BRISCOLA) == BRISCOLA_TEXT


def test_matches_are_separated_by_a_blank_line() -> None:
    assert write_matches([BRISCOLA, CIRULLA]) == BRISCOLA_TEXT + "\n" + CIRULLA_TEXT
    assert write_matches([]) == ""


def test_the_tag_order_is_fixed_and_each_tag_written_once() -> None:
    tags = (Tag("Result", "1-0"), Tag("Zeta", "z"), Tag("Players", "a,b"), Tag("Game", "x"),
            Tag("Alfa", "a"), Tag("Zeta", "again"), Tag("Date", "2026.11.25"))
    assert [(t.name, t.value) for t in ordered_tags(tags)] == [
        ("Game", "x"), ("Date", "2026.11.25"), ("Players", "a,b"), ("Zeta", "z"),
        ("Alfa", "a"), ("Result", "1-0")]


@pytest.mark.parametrize(("text", "written"), [
    ("plain", '"plain"'),
    ('say "ciao"', '"say \\"ciao\\""'),
    ("a\\b", '"a\\\\b"'),
    ('\\"', '"\\\\\\""'),
    ("; {no comment}", '"; {no comment}"'),
    ("", '""'),
])
def test_quoted_strings_escape_quotes_and_backslashes(text: str, written: str) -> None:
    assert quoted(text) == written


@pytest.mark.parametrize("text", ["due\nrighe", "a\rb", "a\x0bb", "a\x00b", "a\x85b"])
def test_a_line_break_or_a_control_character_cannot_be_quoted(text: str) -> None:
    with pytest.raises(ValueError, match="line break or a control character"):
        quoted(text)


def test_a_tab_can_be_quoted() -> None:
    assert quoted("a\tb") == '"a\tb"'


@pytest.mark.parametrize(("ms", "text"), [(61250, "61.25s"), (60000, "60s"), (1, "0.001s"),
                                          (0, "0s"), (300999, "300.999s"), (1500, "1.5s")])
def test_elapsed_time_in_seconds_with_up_to_three_decimals(ms: int, text: str) -> None:
    assert seconds(ms) == text


def test_unknown_cards_are_written_as_question_marks() -> None:
    text = write(CIRULLA)
    assert "Hand 2 ?? ?? ??\n" in text
    assert "Stock ?? Fb ?? 2b\n" in text


def test_an_incident_of_an_unknown_kind_is_refused() -> None:
    odd = WrittenMatch(tags=BRISCOLA.tags, after=(WrittenIncident("miracolo", seat=0),))
    with pytest.raises(ValueError, match="miracolo"):
        write(odd)


def test_a_match_with_no_smazzata_is_closed_by_end() -> None:
    bare = WrittenMatch(tags=(Tag("Game", "briscola"), Tag("Players", "Anna,Bruno")))
    assert write(bare) == '[Game "briscola"]\n[Players "Anna,Bruno"]\n\nEnd\n'


def test_a_ruling_refers_to_an_event_by_its_type_and_ordinal() -> None:
    ruling = WrittenIncident("ruling", arbiter="Rossi", ruling="adjust-score",
                             adjustment=(1, 0), refers=("SeedRevealed", 2), reason="mazzo")
    match = WrittenMatch(tags=BRISCOLA.tags, after=(ruling,))
    assert write(match).endswith(
        'End\nRuling "Rossi" adjust-score adjust 1-0 refers SeedRevealed 2 "mazzo"\n')


@pytest.mark.parametrize("kind", ["Card Played", "CardPlayed\n", "", "Card2"])
def test_an_event_type_the_notation_cannot_read_is_refused(kind: str) -> None:
    ruling = WrittenIncident("ruling", arbiter="Rossi", ruling="adjust-score",
                             refers=(kind, 1), reason="mazzo")
    with pytest.raises(ValueError, match="event type"):
        write(WrittenMatch(tags=BRISCOLA.tags, after=(ruling,)))

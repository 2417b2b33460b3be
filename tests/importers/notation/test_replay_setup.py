"""The pieces of a validation: tags to CreateMatch and clock, written deals to layouts, and the
report's two forms."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from domain.cards import UNKNOWN, Card, parse_card
from domain.record.events import TableVisibility
from importers.notation.layouts import filled, seed_problems
from importers.notation.model import Pos, Tag, WrittenIncident, WrittenLayout, WrittenMatch
from importers.notation.replay import validate
from importers.notation.report import Report, ReportFinding, ScoreRow, SmazzataScore
from importers.notation.setup import TagError, create_match, result_of, start_of, time_control
from tests.importers.notation.test_replay import simulated, written_from


def _match(*pairs: tuple[str, str]) -> WrittenMatch:
    tags = tuple(Tag(n, v, Pos(k, 1)) for k, (n, v) in enumerate(pairs, start=1))
    return WrittenMatch(tags, source="t.txt", pos=Pos(1, 1))


def cards(text: str) -> tuple[Card, ...]:
    return tuple(UNKNOWN if c == "??" else parse_card(c) for c in text.split())


def test_tags_make_the_match() -> None:
    match = _match(("Game", "briscola"), ("Players", "Anna, Bruno, Carla, Dario"),
                   ("Format", "punti vinco_subito"), ("Visibility", "carte_scoperte"),
                   ("FirstDealer", "3"))
    created = create_match(match, "imp 1", time_control(match))
    assert created.players == ("Anna", "Bruno", "Carla", "Dario")
    assert created.ruleset == {"vinco_subito": "true"}
    assert created.match_format["vinco_subito"] == "true"
    assert created.match_format["kind"] == "points"
    assert created.visibility == TableVisibility(carte_scoperte=True)
    assert created.first_dealer == 2
    assert created.provenance.transcribed and created.provenance.importer == "imp 1"
    assert created.time_control.per_move is None


@pytest.mark.parametrize(("pairs", "check", "line"), [
    ((("Game", "scopa"), ("Players", "A,B")), "Game", 1),
    ((("Game", "cirulla"), ("Players", "A,B,C")), "Players", 2),
    ((("Game", "cirulla"), ("Players", "A,B"), ("Ruleset", "redeal=mai accuso=forse")),
     "Ruleset", 3),
    ((("Game", "cirulla"), ("Players", "A,B"), ("Format", "21pt turbo")), "Format", 3),
    ((("Game", "cirulla"), ("Players", "A,B"), ("FirstDealer", "3")), "FirstDealer", 3),
    ((("Game", "cirulla"), ("Players", "A,B"), ("Visibility", "carte_coperte")),
     "Visibility", 3)])
def test_a_bad_tag_names_itself(pairs: tuple[tuple[str, str], ...], check: str,
                                line: int) -> None:
    match = _match(*pairs)
    with pytest.raises(TagError) as raised:
        create_match(match, "imp", time_control(match))
    assert raised.value.check == check and raised.value.pos.line == line


@pytest.mark.parametrize(("date", "start"), [
    ("2026.11.23", datetime(2026, 11, 23, tzinfo=UTC)), ("2026.??.??", datetime(2000, 1, 1,
                                                                                  tzinfo=UTC)),
    ("2026.02.30", datetime(2000, 1, 1, tzinfo=UTC))])
def test_the_clock_starts_at_the_date(date: str, start: datetime) -> None:
    assert start_of(_match(("Date", date))) == start


@pytest.mark.parametrize(("written", "result"), [
    ("7--1", (7, -1)), ("-2-5", (-2, 5)), ("-3--4", (-3, -4)), (" 13 - 3 ", (13, 3)),
    ("12–14", (12, 14)), ("*", None), ("7-", None), ("1" * 5000 + "-2", None)])
def test_the_result_tag_reads_sides_below_zero_as_a_score_does(
        written: str, result: tuple[int, int] | None) -> None:
    assert result_of(_match(("Result", written)))[0] == result


def test_the_clock_justifies_the_written_incidents() -> None:
    written = written_from(simulated("cirulla", "1smazzata", 2))
    after = (WrittenIncident("timeout", seat=0, elapsed_ms=90_250),
             WrittenIncident("abandon", seat=1, elapsed_ms=400_000, reason="assenza"))
    clock = time_control(WrittenMatch(written.tags, written.smazzate, after))
    assert (clock.per_move, clock.bank, clock.abandon_after) == (90, None, 400)


def test_a_cirulla_deal_is_filled_with_unknown_cards() -> None:
    written = WrittenLayout(table=cards("7d Rc Fb Cs"), hands=(cards("1d 2d 3d"), None),
                            pos=Pos(5, 1))
    layout, problems = filled(written, 2)
    assert problems == ()
    assert layout.hands[1] == (UNKNOWN,) * 3 and len(layout.stock) == 30
    assert set(layout.stock) == {UNKNOWN}


def test_a_briscola_deal_is_filled_around_its_card() -> None:
    written = WrittenLayout(briscola=parse_card("Ad"), pos=Pos(5, 1))
    layout, problems = filled(written, 4)
    assert problems == () and layout.briscola == parse_card("Ad")
    assert len(layout.stock) == 40 - 12 - 1 and len(layout.hands) == 4


def test_a_card_twice_is_reported_and_made_unknown() -> None:
    written = WrittenLayout(table=cards("7d Rc Fb Cs"), hands=(cards("7d 2d 3d"), None),
                            stock=cards("2d" + " ??" * 29), pos=Pos(5, 1))
    layout, problems = filled(written, 2)
    assert [p.message for p in problems] == [
        "7d is written twice: in the table and in seat 1's hand",
        "2d is written twice: in seat 1's hand and in the stock"]
    assert layout.hands[0] == (UNKNOWN, parse_card("2d"), parse_card("3d"))
    assert layout.stock[0] is UNKNOWN


def test_a_short_hand_is_reported_and_filled() -> None:
    written = WrittenLayout(table=cards("7d Rc Fb Cs"), hands=(cards("1d 2d"), None),
                            pos=Pos(5, 1))
    layout, problems = filled(written, 2)
    assert [p.check for p in problems] == ["distribuzione"]
    assert layout.hands[0] == (*cards("1d 2d"), UNKNOWN)


def test_the_seed_check_names_each_card() -> None:
    from domain.events import SmazzataDealt

    dealt = SmazzataDealt(0, 0, 0, None, (cards("1d 2d 3d"), cards("4d 5d 6d")),
                          cards("7d Rc Fb Cs"), cards("1c 2c"))
    written = WrittenLayout(table=cards("7d Rc Fb 1s"), hands=(cards("1d ?? 4d"), None),
                            stock=cards("1c 3c"), pos=Pos(7, 1))
    messages = [p.message for p in seed_problems((written,), (dealt,), Pos(6, 1))]
    assert messages == [
        "attempt 1, table: As written, the seed deals 7d Rc Fb Cs",
        "attempt 1, seat 1's hand: 4d written, the seed deals Ad 2d 3d",
        "attempt 1, stock card 2: 3c written, the seed deals 2c"]


def test_the_report_text_and_json_are_stable() -> None:
    report = Report("f.txt", 2, "Anna, Bruno (Coppa)", False, (
        ReportFinding("error", "C16 presa obbligata", "Ac discarded", 12, 4, 1,
                      ("Ac x Cd+3b", "7d")),
        ReportFinding("note", "unverifiable", "shuffle unverifiable", 10, 1, 1)),
        (SmazzataScore(1, (ScoreRow("scope", (1, 0), (1, 0)),
                           ScoreRow("primiera", (1, 0), (0, 1)),
                           ScoreRow("denari", None, (1, 0))), True, True),),
        (5, 3), (4, 3))
    assert report.as_text_lines() == (
        "f.txt, match 2: Anna, Bruno (Coppa): rejected (1 errors, 0 findings, 1 notes)",
        "  12:4 (smazzata 1) error [C16 presa obbligata]: Ac discarded",
        "      legal: Ac x Cd+3b; 7d",
        "  10:1 (smazzata 1) note [unverifiable]: shuffle unverifiable",
        "  smazzata 1: claimed / computed",
        "    scope 1-0 / 1-0",
        "    primiera 1-0 / 0-1 (differs)",
        "result: claimed 5-3, computed 4-3")
    data = report.as_json()
    assert list(data) == ["source", "match_index", "title", "accepted", "counts", "findings",
                          "smazzate", "result_claimed", "result_computed"]
    assert data["counts"] == {"error": 1, "finding": 0, "note": 1}
    assert json.loads(json.dumps(data)) == data
    rows = data["smazzate"][0]["rows"]  # type: ignore[index]
    assert rows[1] == {"category": "primiera", "claimed": [1, 0], "computed": [0, 1],
                       "differs": True}


def test_a_validation_reports_in_text_order() -> None:
    written = written_from(simulated("cirulla", "1smazzata", 2),
                           extra=[("Event", "Coppa"), ("Result", "0-0")])
    report = validate(written, "t").report
    lines = [(f.line, f.column) for f in report.findings]
    assert lines == sorted(lines)
    assert report.title == "Anna, Bruno (Coppa)"
    assert report.as_text_lines()[0].startswith("sim.txt, match 1: Anna, Bruno (Coppa): ")

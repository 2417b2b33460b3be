"""Validation by replay: written matches built by hand from the transcribed demo (true deal and
plays known) and from simulated matches, judged by `importers.notation.replay.validate`."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from domain.cards import UNKNOWN
from domain.cirulla.accusi import PLAYER_KINDS
from domain.cirulla.ruleset import STANDARD, ruleset_from_options
from domain.demo.matches import play_demo, seeded_match
from domain.demo.transcribed import Transcript, transcribe
from domain.events import AccusoDeclared, CardPlayed, SmazzataDealt, SmazzataEnded
from domain.game import PlayCard
from domain.match_format import MatchFormat
from domain.record.catalog import parse_format
from domain.record.commands import RecordIrregularPlay, TranscribeDeal, TranscribeTags
from domain.record.events import MatchCreated, MatchEnded, SeedRevealed
from domain.record.match import MatchEvent
from domain.shuffle import Seed
from importers.notation.model import (
    Move,
    Pos,
    Tag,
    WrittenAccuso,
    WrittenClaim,
    WrittenLayout,
    WrittenMatch,
    WrittenPlay,
    WrittenSmazzata,
)
from importers.notation.replay import Validation, content_hash, validate
from importers.notation.writer import write
from tests.replacing import replace

START = datetime(2026, 1, 1, tzinfo=UTC)
FLAGS = ("ko", "cappotto_ends", "vinco_subito", "target_strict",
         "vinco_subito_ends_smazzata_only", "smazzate_pari", "vp", "cappotto_waits_end")
MARKERS = {"turn order": "fuori-turno", "C16 presa obbligata": "presa-mancata"}


# -- written matches from events, by hand -----------------------------------------------------

def tags_of(created: MatchCreated, extra: Sequence[tuple[str, str]] = ()) -> tuple[Tag, ...]:
    fmt = parse_format(created.game, created.match_format)
    flags = [flag for flag in FLAGS if getattr(fmt, flag)]
    ruleset = " ".join(f"{k}={v}" for k, v in sorted(created.ruleset.items()))
    pairs = [("Game", created.game), ("Date", "2026.11.23"),
             ("Players", ",".join(created.players)), ("Format", " ".join([fmt.text, *flags])),
             ("Ruleset", ruleset), ("FirstDealer", str(created.first_dealer + 1)), *extra]
    return tuple(Tag(name, value, Pos(line, 1)) for line, (name, value) in
                 enumerate(pairs, start=1))


def written_from(events: Sequence[MatchEvent], seeds: bool = True,
                 extra: Sequence[tuple[str, str]] = ()) -> WrittenMatch:
    """A fully known record of a match without incidents: every deal, play, declared accuso."""
    created = events[0]
    assert isinstance(created, MatchCreated)
    automatic = created.game == "cirulla" and created.ruleset["accuso"] == "automatico"
    smazzate: list[WrittenSmazzata] = []
    line = 100
    for event in events:
        line += 1
        pos = Pos(line, 1)
        if isinstance(event, SmazzataDealt):
            written = WrittenLayout(event.table, event.briscola, event.hands, event.stock, pos)
            if smazzate and smazzate[-1].number == event.number:
                last = smazzate[-1]
                smazzate[-1] = replace(last, attempts=(*last.attempts, written))
            else:
                smazzate.append(WrittenSmazzata(event.number, event.dealer, None, (written,),
                                                pos=pos))
        elif isinstance(event, CardPlayed | AccusoDeclared):
            move = _move(event, pos, automatic)
            if move is not None:
                smazzate[-1] = replace(smazzate[-1], moves=(*smazzate[-1].moves, move))
        elif isinstance(event, SeedRevealed) and seeds:
            smazzate[event.smazzata] = replace(smazzate[event.smazzata], seed=event.seed)
    return WrittenMatch(tags_of(created, extra), tuple(smazzate), source="sim.txt",
                        pos=Pos(1, 1))


def _move(event: CardPlayed | AccusoDeclared, pos: Pos, automatic: bool) -> Move | None:
    if isinstance(event, CardPlayed):
        return WrittenPlay(event.card, None, event.capture, event.matta_value, event.scopa,
                           pos=pos)
    if event.kind in PLAYER_KINDS and not automatic:
        return WrittenAccuso(event.seat, event.kind, event.cards, event.matta_value, pos)
    return None


def simulated(game: str, fmt: str, players: int = 2,
              options: Sequence[str] = ()) -> list[MatchEvent]:
    ruleset = ruleset_from_options(options) if game == "cirulla" else None
    names = ("Anna", "Bruno", "Carla", "Dario")[:players]
    seed = Seed(hashlib.sha256(f"{game}{fmt}{players}{options}".encode()).digest())
    demo = seeded_match(game, MatchFormat.parse(fmt, game), ruleset, names, seed)
    recorded, _ = play_demo(demo, START)
    return [event for event, _ in recorded]


def demo_written(transcript: Transcript, *, marked: bool = True) -> WrittenMatch:
    """The transcribed demo as its scorer wrote it: the table and seat 1's hand, the plays with
    their seats, the two irregular plays marked (or not)."""
    deal = transcript.commands[1][0]
    assert isinstance(deal, TranscribeDeal)
    layout = deal.layout
    hands = (layout.hands[0], None)
    stock = layout.stock
    written = WrittenLayout(layout.table, None, hands, stock, Pos(10, 1))
    played = [e for e, _ in transcript.partial if isinstance(e, CardPlayed)]
    moves: list[Move] = []
    for index, (command, _) in enumerate(transcript.commands[2:]):
        play = command.play if isinstance(command, RecordIrregularPlay) else command
        assert isinstance(play, PlayCard)
        marker = None
        if isinstance(command, RecordIrregularPlay) and marked:
            marker = "fuori-turno" if index == 6 else "presa-mancata"
        moves.append(WrittenPlay(play.card, play.seat, play.capture, None,
                                 played[index].scopa, marker, Pos(20 + index, 3)))
    tags = (Tag("Game", "cirulla", Pos(1, 1)), Tag("Players", "Anna,Bruno", Pos(2, 1)),
            Tag("Format", "1smazzata", Pos(3, 1)),
            Tag("Ruleset", "accuso=facoltativo presa_obbligata=mano", Pos(4, 1)),
            Tag("Arbiter", "Rossi (arbitro)", Pos(5, 1)))
    smazzata = WrittenSmazzata(0, 0, None, (written,), tuple(moves), pos=Pos(9, 1))
    return WrittenMatch(tags, (smazzata,), source="demo.txt", pos=Pos(1, 1))


@pytest.fixture(scope="module")
def transcript() -> Transcript:
    return transcribe()


def errors(validation: Validation) -> list[str]:
    return [f"{f.check}: {f.message}" for f in validation.report.of("error")]


def ended_of(events: Sequence[MatchEvent]) -> list[SmazzataEnded]:
    return [e for e in events if isinstance(e, SmazzataEnded)]


# -- fully known matches ----------------------------------------------------------------------

@pytest.mark.parametrize(("game", "fmt", "players", "options"), [
    ("cirulla", "21pt", 2, ()), ("cirulla", "2smazzate", 4, ("accuso=facoltativo",)),
    ("cirulla", "11pt", 2, ("taverna",)), ("briscola", "3smazzate", 2, ()),
    ("briscola", "punti", 4, ())])
def test_a_simulated_match_validates_and_scores_as_played(game: str, fmt: str, players: int,
                                                          options: tuple[str, ...]) -> None:
    events = simulated(game, fmt, players, options)
    validation = validate(written_from(events), "test 1.0")
    assert errors(validation) == []
    assert validation.report.accepted and validation.actions is not None
    computed = [s.rows for s in validation.report.smazzate]
    assert [tuple((r.category, *r.computed) for r in rows if r.computed) for rows in computed] \
        == [e.breakdown for e in ended_of(events)]
    result = [e for e in events if isinstance(e, MatchEnded)][-1]
    assert validation.report.result_computed == result.scores


def test_a_seeded_record_is_dealt_from_its_seed_and_reveals_it() -> None:
    events = simulated("cirulla", "2smazzate", 2)
    validation = validate(written_from(events), "test 1.0")
    assert validation.actions is not None
    commands = [type(command).__name__ for command, _, _ in validation.actions]
    assert commands[:2] == ["CreateMatch", "TranscribeTags"]
    assert commands.count("CommitSeed") == commands.count("RevealSeed") == 2
    assert "TranscribeDeal" not in commands
    assert not any("shuffle unverifiable" in f.message for f in validation.report.findings)


def test_without_seeds_the_deals_are_transcribed_and_unverifiable() -> None:
    events = simulated("briscola", "1smazzata", 2)
    validation = validate(written_from(events, seeds=False), "test 1.0")
    assert errors(validation) == []
    assert validation.actions is not None
    assert [type(c).__name__ for c, _, _ in validation.actions].count("TranscribeDeal") == 1
    assert any("shuffle unverifiable" in f.message for f in validation.report.of("note"))


def test_actions_carry_the_importer_envelope_and_a_clock_from_the_date() -> None:
    written = written_from(simulated("cirulla", "1smazzata", 2))
    validation = validate(written, "verbale-import 9.9")
    assert validation.actions is not None
    first, second = validation.actions[:2]
    assert first[1] == datetime(2026, 11, 23, 0, 0, 1, tzinfo=UTC)
    assert second[1] == datetime(2026, 11, 23, 0, 0, 2, tzinfo=UTC)
    assert first[2].kind == "importer" and first[2].name == "verbale-import 9.9"
    assert first[2].where == "sim.txt:1"
    tags = second[0]
    assert isinstance(tags, TranscribeTags)
    assert tags.content_hash == hashlib.sha256(write(written).encode()).hexdigest()
    assert tags.content_hash == content_hash(written)
    assert ("Date", "2026.11.23") in tags.tags


# -- partial records and irregularities -------------------------------------------------------

def test_a_partial_record_gives_notes_and_findings_not_errors(transcript: Transcript) -> None:
    validation = validate(demo_written(transcript), "test 1.0")
    report = validation.report
    assert errors(validation) == []
    notes = [f.message for f in report.of("note")]
    assert any("shuffle unverifiable" in n for n in notes)
    assert any("C16 presa obbligata (mano)" in n for n in notes)
    rules = sorted(f.check for f in report.of("finding"))
    assert rules == ["irregularity: C16 presa obbligata", "irregularity: turn order"]
    assert validation.actions is not None
    irregular = [c for c, _, _ in validation.actions if isinstance(c, RecordIrregularPlay)]
    assert len(irregular) == 2
    assert {c.noted_by for c in irregular} == {"Rossi (arbitro)"}
    assert report.result_computed == transcript.partial_state.result.scores  # type: ignore


def test_an_unmarked_illegal_play_is_an_error_with_the_legal_plays(
        transcript: Transcript) -> None:
    validation = validate(demo_written(transcript, marked=False), "test 1.0")
    assert validation.actions is None and not validation.report.accepted
    found = validation.report.of("error")
    assert [f.check for f in found] == ["turn order", "C16 presa obbligata"]
    out_of_turn, missed = found
    assert (out_of_turn.line, out_of_turn.column, out_of_turn.smazzata) == (26, 3, 1)
    assert out_of_turn.legal is None   # the seat to move had shown no card yet
    assert "mark the play !fuori-turno" in out_of_turn.message
    assert (missed.line, missed.column) == (27, 3)
    assert missed.legal == ("Ac x Cd+3b",)
    assert "Ac discarded although it had to capture" in missed.message
    assert "mark the play !presa-mancata" in missed.message
    # The replay went on: the match still ended, with the same result as the marked record.
    assert validation.report.result_computed == transcript.partial_state.result.scores  # type: ignore


def test_a_marker_on_a_legal_play_is_an_error(transcript: Transcript) -> None:
    written = demo_written(transcript)
    smazzata = written.smazzate[0]
    first = smazzata.moves[0]
    assert isinstance(first, WrittenPlay)
    moves = (replace(first, irregular="presa-sbagliata"), *smazzata.moves[1:])
    written = replace(written, smazzate=(replace(smazzata, moves=moves),))
    validation = validate(written, "test 1.0")
    assert [f.check for f in validation.report.of("error")] == ["irregularity"]
    assert validation.report.result_computed is not None


def test_a_wrong_scopa_mark_is_a_finding() -> None:
    events = simulated("cirulla", "1smazzata", 2)
    written = written_from(events)
    smazzata = written.smazzate[0]
    index = next(i for i, m in enumerate(smazzata.moves)
                 if isinstance(m, WrittenPlay) and not m.scopa)
    play = smazzata.moves[index]
    assert isinstance(play, WrittenPlay)
    moves = list(smazzata.moves)
    moves[index] = replace(play, scopa=True)
    written = replace(written, smazzate=(replace(smazzata, moves=tuple(moves)),))
    validation = validate(written, "test 1.0")
    assert validation.report.accepted
    assert [f.check for f in validation.report.of("finding")] == ["scopa"]
    assert "marked # but makes no scopa" in validation.report.of("finding")[0].message


# -- cards ------------------------------------------------------------------------------------

def test_a_card_written_twice_is_an_error(transcript: Transcript) -> None:
    written = demo_written(transcript)
    smazzata = written.smazzate[0]
    layout = smazzata.attempts[0]
    assert layout.stock is not None
    stock = list(layout.stock)
    known = next(i for i, c in enumerate(stock) if c is not UNKNOWN)
    twin = layout.table[0]
    stock[known] = twin
    bad = replace(layout, stock=tuple(stock))
    validation = validate(replace(written, smazzate=(replace(smazzata, attempts=(bad,)),)),
                          "test 1.0")
    found = validation.report.of("error")
    assert found and found[0].check == "40 carte" and found[0].line == 10
    assert f"{twin.code} is written twice" in found[0].message
    assert validation.actions is None


def test_a_deal_that_is_not_40_cards_is_an_error(transcript: Transcript) -> None:
    written = demo_written(transcript)
    smazzata = written.smazzate[0]
    layout = smazzata.attempts[0]
    assert layout.stock is not None
    short = replace(layout, stock=layout.stock[:-2])
    validation = validate(replace(written, smazzate=(replace(smazzata, attempts=(short,)),)),
                          "test 1.0")
    assert any(f.check == "40 carte" and "make 40" in f.message
               for f in validation.report.of("error"))


# -- claims, result, seeds, tags --------------------------------------------------------------

def test_a_wrong_claim_gives_a_finding_per_category() -> None:
    events = simulated("cirulla", "1smazzata", 2)
    ended = ended_of(events)[0]
    rows = {c: (a, b) for c, a, b in ended.breakdown}
    claimed = (("scope", rows["scope"][0] + 1, rows["scope"][1]),
               ("primiera", *rows["primiera"]),
               ("carte", rows["carte"][1], rows["carte"][0] + 5))
    written = written_from(events)
    smazzata = replace(written.smazzate[0], claim=WrittenClaim(claimed, Pos(99, 1)))
    validation = validate(replace(written, smazzate=(smazzata,)), "test 1.0")
    assert validation.report.accepted
    found = validation.report.of("finding")
    assert [f.message.split(":")[0] for f in found] == ["scope", "carte"]
    assert all(f.line == 99 and f.check == "claim" for f in found)
    score = validation.report.smazzate[0]
    assert score.claimed and [r.category for r in score.rows if r.differs] == ["scope", "carte"]
    assert validation.actions is not None
    assert "ClaimScore" in [type(c).__name__ for c, _, _ in validation.actions]


def test_the_result_tag_is_checked() -> None:
    events = simulated("cirulla", "1smazzata", 2)
    scores = [e for e in events if isinstance(e, MatchEnded)][-1].scores
    right = validate(written_from(events, extra=[("Result", f"{scores[0]}-{scores[1]}")]), "t")
    assert right.report.of("finding") == () and right.report.result_claimed == scores
    wrong = validate(written_from(events, extra=[("Result", f"{scores[0] + 1}-{scores[1]}")]),
                     "t")
    assert [f.check for f in wrong.report.of("finding")] == ["Result"]
    assert wrong.report.accepted


def test_a_seed_that_disagrees_with_the_written_table_is_an_error() -> None:
    events = simulated("cirulla", "1smazzata", 2)
    written = written_from(events)
    smazzata = written.smazzate[0]
    layout = smazzata.attempts[-1]
    outside = next(c for c in layout.stock or () if c not in layout.table)
    table = (outside, *layout.table[1:])
    stock = tuple(layout.table[0] if c == outside else c for c in layout.stock or ())
    swapped = replace(layout, table=table, stock=stock)
    attempts = (*smazzata.attempts[:-1], swapped)
    validation = validate(replace(written, smazzate=(replace(smazzata, attempts=attempts),)),
                          "test 1.0")
    seed_errors = [f for f in validation.report.of("error") if f.check == "seed"]
    assert seed_errors and outside.code in seed_errors[0].message
    assert validation.actions is None


def test_a_bad_tag_stops_the_validation_at_its_line() -> None:
    written = written_from(simulated("cirulla", "1smazzata", 2))
    tags = tuple(Tag(t.name, "99pt" if t.name == "Format" else t.value, t.pos)
                 for t in written.tags)
    validation = validate(replace(written, tags=tags), "test 1.0")
    found = validation.report.of("error")
    assert [(f.check, f.line) for f in found] == [("Format", 4)]
    assert validation.actions is None and validation.report.smazzate == ()


def test_an_unknown_accuso_is_an_error_and_the_replay_goes_on(transcript: Transcript) -> None:
    written = demo_written(transcript)
    smazzata = written.smazzate[0]
    hand = smazzata.attempts[0].hands[0]  # type: ignore[index]
    assert hand is not None
    accuso = WrittenAccuso(0, "cirulla", hand, None, Pos(21, 1))   # seat 1 opens its hand
    moves = (smazzata.moves[0], accuso, *smazzata.moves[1:])
    written = replace(written, smazzate=(replace(smazzata, moves=moves),))
    validation = validate(written, "test 1.0")
    assert [f.check for f in validation.report.of("error")] == ["accusi"]
    assert validation.report.result_computed is not None


def test_rulesets_reach_the_created_match() -> None:
    events = simulated("cirulla", "1smazzata", 2, ("accuso=facoltativo",))
    validation = validate(written_from(events), "test 1.0")
    assert validation.actions is not None
    created = validation.actions[0][0]
    assert created.ruleset == ruleset_from_options(["accuso=facoltativo"]).options()  # type: ignore[union-attr]
    assert created.ruleset != STANDARD.options()  # type: ignore[union-attr]


"""Transcribed matches: unknown cards, irregular plays the table accepted, checks left open.

Issue 7's case: a Cirulla match written up with 20 cards nobody saw, a missed forced capture and a
play out of turn, both noted. The source sentences: "Se il giocatore può fare almeno un tipo di
presa è costretto a prendere e non può quindi scartare la carta" and "Dopo che ogni giocatore ha
effettuato la giocata, la mano passa al giocatore successivo in senso antiorario" (000).
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from domain.cards import UNKNOWN, parse_card
from domain.cirulla.scoring import score
from domain.cirulla.state import CirullaState
from domain.demo.matches import BOTS, demo_set
from domain.demo.transcribed import (
    ARBITER,
    Transcript,
    layouts,
    setup,
    standing_seed,
    transcribe,
    with_card,
)
from domain.events import CardPlayed, SmazzataDealt
from domain.game import PlayCard, RuleViolation
from domain.record.audit import Severity, audit
from domain.record.catalog import CATALOG
from domain.record.commands import RecordIrregularPlay, TranscribeDeal
from domain.record.decide import decide
from domain.record.events import IrregularityNoted
from domain.record.match import MatchState, Phase, evolve, initial
from domain.record.simulate import Table, next_command
from domain.shuffle import Seed
from tests.replacing import replace

TRANSCRIPT = transcribe()


def test_the_transcript_has_20_unknown_cards_and_a_deal_with_no_seed() -> None:
    assert TRANSCRIPT.unknown == 20
    deal = TRANSCRIPT.partial[1][0]
    assert isinstance(deal, SmazzataDealt) and deal.seed_commitment is None
    unseen = [c for hand in deal.hands for c in hand] + list(deal.stock)
    assert unseen.count(UNKNOWN) == 20


def test_the_two_irregularities_are_recorded_after_their_plays_naming_rule_and_source() -> None:
    noted = [(v, e) for v, (e, _) in enumerate(TRANSCRIPT.partial, start=1)
             if isinstance(e, IrregularityNoted)]
    assert [(e.refers_to, e.rule) for _, e in noted] == [
        (TRANSCRIPT.out_of_turn, "turn order"),
        (TRANSCRIPT.missed_capture, "C16 presa obbligata")]
    for version, fact in noted:
        assert version == fact.refers_to + 1
        assert isinstance(TRANSCRIPT.partial[fact.refers_to - 1][0], CardPlayed)
        assert fact.noted_by == ARBITER and fact.verified
    assert "costretto a prendere" in noted[1][1].source
    assert "senso antiorario" in noted[0][1].source


def test_the_audit_reports_the_irregularities_and_the_unverifiable_checks_by_version() -> None:
    report = audit(CATALOG, TRANSCRIPT.partial)
    assert report.ok and report.verdict is Severity.FINDING and report.pending is None
    findings = report.of(Severity.FINDING)
    assert [f.version for f in findings] == [TRANSCRIPT.out_of_turn, TRANSCRIPT.missed_capture]
    notes = report.of(Severity.NOTE)
    assert notes[0].version == 2 and "shuffle unverifiable" in notes[0].message
    assert any("presa obbligata (mano)" in n.message for n in notes[1:])
    assert report.of(Severity.FAILURE) == ()
    assert report.state == TRANSCRIPT.partial_state


def test_the_replay_ends_with_the_score_the_known_cards_give() -> None:
    partial, known = TRANSCRIPT.partial_state, TRANSCRIPT.known_state
    assert partial.result is not None and partial.result == known.result
    assert partial.ended == known.ended
    # Every card was played or laid face up, so the piles are fully known at the end.
    final = replay_game(TRANSCRIPT)
    assert UNKNOWN not in (*final.captured[0], *final.captured[1])
    accusi = (0, 0)
    assert score(final.captured, final.scope, accusi, final.ruleset).totals == \
        partial.ended[-1].scores


def replay_game(transcript: Transcript) -> CirullaState:
    state = initial(CATALOG)
    last = None
    for event, at in transcript.partial:
        state = evolve(state, event, at)
        if isinstance(state.game, CirullaState):
            last = state.game
    assert last is not None
    return last


def test_an_illegal_play_not_marked_as_noted_is_refused() -> None:
    state, at = _dealt()
    game = state.game
    assert isinstance(game, CirullaState)
    other = 1 - game.to_move
    with pytest.raises(RuleViolation, match=r"\[turn order\]"):
        decide(state, PlayCard(other, game.hands[other][0] if UNKNOWN not in game.hands[other]
                               else parse_card("Rs"), ()), at)


def test_a_legal_play_cannot_be_noted_as_irregular() -> None:
    state, at = _dealt(known=True)
    game = state.game
    assert isinstance(game, CirullaState)
    from domain.cirulla.captures import legal_plays
    card, capture = legal_plays(game)[0]
    with pytest.raises(RuleViolation, match=r"\[irregularity\]"):
        decide(state, RecordIrregularPlay(PlayCard(game.to_move, card, tuple(sorted(capture))),
                                          noted_by=ARBITER), at)


def test_known_cards_never_repeat_and_unknown_ones_fill_the_rest() -> None:
    _, partial = layouts(standing_seed())
    created = _created()
    assert created.last_at is not None
    at = created.last_at + timedelta(seconds=1)
    twice = with_card(partial, partial.hands[0][0])
    with pytest.raises(RuleViolation, match=r"written twice.*\[40 carte\]"):
        decide(created, TranscribeDeal(twice), at)
    short = replace(partial, stock=partial.stock[1:])
    with pytest.raises(RuleViolation, match=r"\[40 carte\]"):
        decide(created, TranscribeDeal(short), at)
    hidden_table = replace(partial, table=(UNKNOWN, *partial.table[1:]))
    with pytest.raises(RuleViolation, match="face up"):
        decide(created, TranscribeDeal(hidden_table), at)


def test_a_card_known_elsewhere_cannot_be_played_from_an_unseen_hand() -> None:
    state, at = _dealt()
    game = state.game
    assert isinstance(game, CirullaState)
    seat = 1   # its hand is unseen; seat 0's cards are known
    known = game.hands[0][0]
    with pytest.raises(RuleViolation, match=r"\[40 carte\]"):
        decide(state, RecordIrregularPlay(PlayCard(seat, known, ()), noted_by=ARBITER), at)


def test_a_live_match_refuses_transcriptions_and_irregular_plays_outright() -> None:
    demo = demo_set(Seed(b"\x07" * 16), 1)[0]
    state = initial(CATALOG)
    at = TRANSCRIPT.commands[0][1]
    table = Table(demo.match_seed, BOTS[demo.setup.game], demo.incidents)
    for event in decide(state, demo.setup, at):
        state = evolve(state, event, at)
    _, partial = layouts(standing_seed())
    with pytest.raises(RuleViolation, match=r"\[provenance\]"):
        decide(state, TranscribeDeal(partial), at)
    while state.phase is not Phase.PLAY:
        step = next_command(state, table, at)
        assert step is not None
        command, at, table = step
        for event in decide(state, command, at):
            state = evolve(state, event, at)
    game = state.game
    assert isinstance(game, CirullaState)
    with pytest.raises(RuleViolation, match=r"\[provenance\]"):
        decide(state, RecordIrregularPlay(PlayCard(game.to_move, game.hands[game.to_move][0],
                                                   ()), noted_by=ARBITER), at)


def _created() -> MatchState:
    state = initial(CATALOG)
    at = TRANSCRIPT.commands[0][1]
    for event in decide(state, setup(), at):
        state = evolve(state, event, at)
    return state


def _dealt(known: bool = False) -> tuple[MatchState, datetime]:
    state = _created()
    assert state.last_at is not None
    at = state.last_at + timedelta(seconds=1)
    full, partial = layouts(standing_seed())
    for event in decide(state, TranscribeDeal(full if known else partial, dealer=0), at):
        state = evolve(state, event, at)
    return state, at + timedelta(seconds=1)


def test_the_timeline_of_a_transcribed_match_offers_the_known_cards_and_hides_the_unseen() -> None:
    from domain.record.timeline import timeline
    from domain.viewing import ARBITER, PUBLIC
    line = timeline(CATALOG, TRANSCRIPT.partial)
    for version in range(1, len(line)):
        state = line.state(version)
        if not isinstance(state.game, CirullaState) or state.phase is not Phase.PLAY:
            continue
        game = state.game
        commands = line.legal_commands(version)
        assert all(c.card is not UNKNOWN for c in commands if isinstance(c, PlayCard))
        assert {c.card for c in commands if isinstance(c, PlayCard)} <= \
            set(game.hands[game.to_move])
        arbiter = line.observe(version, ARBITER)
        assert arbiter.hands == tuple(game.hands)
        public = line.observe(version, PUBLIC)
        assert public.hands == (None, None) and public.stock is None


def test_a_wrong_capture_the_table_accepted_is_noted_with_the_legal_alternatives() -> None:
    """'b) può prendere le carte in tavola la cui somma è uguale al valore della carta'."""
    state, at = _dealt(known=True)
    game = state.game
    assert isinstance(game, CirullaState)
    from domain.cirulla.captures import plays_for_hand
    seat = game.to_move
    for card in game.hands[seat]:
        allowed = {tuple(sorted(p[1])) for p in plays_for_hand((card,), game)}
        wrong = next(((c,) for c in game.table if (c,) not in allowed), None)
        if wrong is not None:
            break
    assert wrong is not None
    events = decide(state, RecordIrregularPlay(PlayCard(seat, card, wrong), noted_by=ARBITER), at)
    noted = [e for e in events if isinstance(e, IrregularityNoted)]
    assert [n.rule for n in noted] in (["prese (regole a-c)"], ["asso (regola d)"])
    assert "its legal plays were" in noted[0].message and noted[0].verified
    assert isinstance(events[0], CardPlayed) and events[0].capture == wrong


def test_a_card_the_hand_was_written_without_is_noted_and_becomes_known() -> None:
    full, partial = layouts(standing_seed())
    state, at = _dealt()
    game = state.game
    assert isinstance(game, CirullaState)
    unseen = next(c for c, shown in zip(full.stock, partial.stock, strict=True)
                  if shown is UNKNOWN)
    seat = 1 - game.to_move   # seat 0, whose hand is known: out of turn too
    command = RecordIrregularPlay(PlayCard(seat, unseen, ()), noted_by=ARBITER)
    events = decide(state, command, at)
    assert {e.rule for e in events if isinstance(e, IrregularityNoted)} >= {"turn order", "hand"}
    for event in events:
        state = evolve(state, event, at)
    after = state.game
    assert isinstance(after, CirullaState)
    assert unseen in after.table and len(after.hands[seat]) == 2

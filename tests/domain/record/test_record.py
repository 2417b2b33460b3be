"""The match record: bot matches of both games re-audit clean, replay rebuilds the live state,
and what the rules refuse is refused before anything is recorded."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.demo.matches import BOTS, DemoMatch, demo_set, play_demo, reseeded
from domain.events import CardPlayed
from domain.game import PlayCard, RuleViolation
from domain.record.audit import audit
from domain.record.catalog import CATALOG
from domain.record.commands import CommitSeed, RecordAbandon, RecordRuling, RevealSeed
from domain.record.decide import decide
from domain.record.events import TimeoutRecorded
from domain.record.match import MatchState, Phase, evolve, initial
from domain.record.simulate import Incidents, Table, play_locally
from domain.record.tournament import (
    ScheduleMatch,
    TournamentState,
    decide_creation,
    decide_schedule,
    evolve_tournament,
)
from domain.shuffle import Seed
from domain.text import Said, said_of
from tests.replacing import replace

START = datetime(2026, 11, 22, 18, 0, tzinfo=UTC)
DEMOS = demo_set(Seed(b"\x5e" * 16))
Recorded = list[tuple[object, datetime]]


def play(demo: DemoMatch, incidents: Incidents | None = None) -> tuple[Recorded, MatchState]:
    recorded, last = play_demo(demo, START, incidents or demo.incidents)
    return list(recorded), last


demos = st.builds(lambda i, b: reseeded(DEMOS[i], Seed(bytes([b]) * 16)),
                  st.integers(0, len(DEMOS) - 1), st.integers(0, 255))
incidents = st.one_of(st.just(Incidents()), st.builds(Incidents, timeout_at=st.integers(0, 60)),
                      st.builds(Incidents, abandon_at=st.integers(0, 60)),
                      st.builds(Incidents, ruling_after=st.integers(1, 40)))


@given(demos, incidents)
@settings(max_examples=max(10, settings.default.max_examples // 2))
def test_a_bot_match_audits_clean_and_replay_rebuilds_its_live_state(
        demo: DemoMatch, trouble: Incidents) -> None:
    stream, live = play(demo, trouble)
    report = audit(CATALOG, stream)
    assert report.findings == () and report.pending is None
    assert report.state == live
    replayed = initial(CATALOG)
    for event, at in stream:
        replayed = evolve(replayed, event, at)  # type: ignore[arg-type]
    assert replayed == live
    assert live.phase is Phase.ENDED and live.result is not None


@given(demos, st.data())
@settings(max_examples=max(10, settings.default.max_examples // 2))
def test_a_play_changed_in_the_record_is_found_from_that_event_on(demo: DemoMatch,
                                                              data: st.DataObject) -> None:
    stream, _ = play(demo, Incidents())
    plays = [i for i, (e, _) in enumerate(stream) if isinstance(e, CardPlayed)]
    index = data.draw(st.sampled_from(plays))
    event, at = stream[index]
    assert isinstance(event, CardPlayed)
    other = data.draw(st.sampled_from([e.card for e, _ in stream if isinstance(e, CardPlayed)
                                       and e.card is not event.card]))
    stream[index] = (replace(event, card=other), at)
    report = audit(CATALOG, stream)
    # Nothing before the change is wrong; a change the rules allow on its own shows where its
    # consequences disagree with the record (a card played twice, a hand never emptied).
    assert report.findings and report.findings[0].version >= index + 1


def test_a_match_cut_short_is_in_progress_not_wrong() -> None:
    stream, _ = play(DEMOS[4])
    report = audit(CATALOG, stream[:40])
    assert report.findings == ()
    assert report.pending is not None and "in progress" in report.pending
    assert f"smazzata {report.state.smazzata + 1}" in report.pending   # counted from 1


def _at_phase(phase: Phase) -> tuple[MatchState, Table]:
    demo = DEMOS[0]
    table = Table(demo.match_seed, BOTS[demo.setup.game], Incidents())
    for _, _, state in play_locally(CATALOG, demo.setup, table, START):
        if state.phase is phase:
            return state, table
    raise AssertionError(f"never at {phase}")


def test_the_seed_is_not_revealed_before_its_smazzata_ends() -> None:
    """'seed revealed (at the end of the smazzata: never earlier)'."""
    state, table = _at_phase(Phase.PLAY)
    from domain.match_seed import smazzata_seed
    seed = smazzata_seed(table.match_seed, state.smazzata)
    with pytest.raises(RuleViolation, match=r"\[seed-reveal\]"):
        decide(state, RevealSeed(seed), state.last_at + timedelta(seconds=1))  # type: ignore[operator]


def test_a_second_commitment_for_the_same_deal_is_refused() -> None:
    state, _ = _at_phase(Phase.DEAL)
    with pytest.raises(RuleViolation, match=r"\[phase\]"):
        decide(state, CommitSeed("ab" * 32), state.last_at + timedelta(seconds=1))  # type: ignore[operator]


def test_a_refusal_keeps_its_template_for_translation() -> None:
    """Issue 9: the record's messages are English `say` templates the command line translates;
    a phase refusal quotes what was asked as a message of its own, not glued into a string."""
    state, _ = _at_phase(Phase.DEAL)
    assert state.last_at is not None
    with pytest.raises(RuleViolation) as refused:
        decide(state, CommitSeed("ab" * 32), state.last_at + timedelta(seconds=1))
    whole = said_of(refused.value)
    assert whole is not None and whole.template == "{message} [{rule}]"
    message = refused.value.message
    assert isinstance(message, Said) and message == str(whole.params["message"])
    assert message.template.startswith("{what}: not now")
    what = message.params["what"]
    assert isinstance(what, Said) and what.template == "commit the seed of smazzata {smazzata}"
    assert what.params["smazzata"] == state.smazzata + 1   # counted from 1 for people
    assert str(refused.value) == (f"commit the seed of smazzata {state.smazzata + 1}: not now, "
                                  f"the match is at phase 'deal' (smazzata {state.smazzata + 1}) "
                                  "[phase]")



def test_messages_count_seats_and_smazzate_from_1() -> None:
    """Issue 9: a message counts seats and smazzate as people do, from 1; the data and the
    commands keep their 0-based numbers."""
    state, _ = _at_phase(Phase.PLAY)
    assert state.last_at is not None and state.smazzata == 0
    later = state.last_at + timedelta(seconds=1)
    to_move = state.to_move()
    assert to_move is not None
    other = 1 - to_move
    card = state.game.hands[other][0]
    with pytest.raises(RuleViolation, match=r"\[turn\]") as refused:
        decide(state, PlayCard(other, card), later)
    assert refused.value.message == f"seat {other + 1} cannot play: seat {to_move + 1} is to move"
    with pytest.raises(RuleViolation, match=r"\[abandon\]") as refused:
        decide(state, RecordAbandon(2, "ritiro"), later)
    assert refused.value.message == "seat 3 does not exist"   # seat 2 of seats 0 and 1
    with pytest.raises(RuleViolation, match=r"\[phase\]") as refused:
        decide(state, CommitSeed("ab" * 32), later)
    assert refused.value.message.endswith("(smazzata 1)")
    with pytest.raises(RuleViolation, match=r"\[ruling\]") as refused:
        decide(state, RecordRuling("Rossi", "errore", "annul-smazzata", smazzata=0), later)
    assert refused.value.message == "smazzata 1 is not a finished, counted smazzata"
    with pytest.raises(RuleViolation, match=r"\[ruling\]") as refused:
        decide(state, RecordRuling("Rossi", "errore", "annul-smazzata"), later)
    assert refused.value.message == "an annulment names the smazzata it annuls"


def test_the_record_never_goes_back_in_time() -> None:
    state, _ = _at_phase(Phase.DEAL)
    with pytest.raises(RuleViolation, match=r"\[clock\]"):
        decide(state, CommitSeed("ab" * 32), state.last_at - timedelta(microseconds=1))  # type: ignore[operator]


def test_an_abandon_for_absence_needs_the_absence_the_clock_requires() -> None:
    state, _ = _at_phase(Phase.PLAY)
    seat = state.to_move()
    assert seat is not None and state.last_at is not None
    with pytest.raises(RuleViolation, match=r"\[abandon\]"):
        decide(state, RecordAbandon(seat, "assenza", last_seen=state.last_at),
               state.last_at + timedelta(seconds=299))


def test_a_ruling_cannot_annul_a_smazzata_that_has_not_ended() -> None:
    state, _ = _at_phase(Phase.PLAY)
    with pytest.raises(RuleViolation, match=r"\[ruling\]"):
        decide(state, RecordRuling("Rossi", "errore", "annul-smazzata", smazzata=state.smazzata),
               state.last_at + timedelta(seconds=1))  # type: ignore[operator]


def test_an_annulled_smazzata_no_longer_counts_in_the_result() -> None:
    stream, final = play(DEMOS[4], Incidents())
    assert final.result is not None and len(final.ended) >= 2
    at = stream[-1][1] + timedelta(minutes=1)
    events = decide(final, RecordRuling("Rossi", "mazzo difettoso", "annul-smazzata",
                                        smazzata=0), at)
    restated = events[-1]
    assert final.setup is not None
    without = final.setup.standing(final.results[1:], (0, 0))
    assert restated.scores == without.scores  # type: ignore[union-attr]


def test_a_timeout_the_clock_does_not_justify_is_flagged_by_the_audit() -> None:
    """'a timeout must be justified by the match's time control and the timestamps'."""
    stream, _ = play(DEMOS[0], Incidents(timeout_at=6))
    at_timeout = next(i for i, (e, _) in enumerate(stream) if isinstance(e, TimeoutRecorded))
    early = stream[at_timeout - 1][1] + timedelta(seconds=20)
    fact = stream[at_timeout][0]
    assert isinstance(fact, TimeoutRecorded)
    # A forger moves the action 20 s after the previous event and fixes the reading to match.
    stream = [(e, early if i >= at_timeout else at) for i, (e, at) in enumerate(stream)]
    stream[at_timeout] = (replace(fact, elapsed_ms=20_000), early)
    report = audit(CATALOG, stream)
    assert [(f.version, f.check) for f in report.findings] == [(at_timeout + 1, "timeout")]


def test_a_tournament_table_holds_one_match_per_round() -> None:
    state = TournamentState()
    for event in decide_creation(state, "Coppa", "cirulla"):
        state = evolve_tournament(state, event)
    for event in decide_schedule(state, ScheduleMatch(1, 1, "m-1")):
        state = evolve_tournament(state, event)
    with pytest.raises(RuleViolation, match="already holds match m-1"):
        decide_schedule(state, ScheduleMatch(1, 1, "m-2"))
    with pytest.raises(RuleViolation, match="already scheduled"):
        decide_schedule(state, ScheduleMatch(2, 1, "m-1"))
    assert state.matches_of_round(1) == {1: "m-1"}

"""An annulment after the end that leaves the match short of it resumes the match (MatchResumed,
decide.py `_resumed`): the table plays on, as it would have had the ruling come before the end.
Rules: 000 ("l'arbitro può annullare la smazzata") with the format's end (C11, C13); the reading
is docs/rules-interpretations.md, "An annulment after the end"."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.demo.matches import BOTS, DemoMatch, demo_set, play_demo, reseeded
from domain.match_seed import smazzata_seed
from domain.record.audit import Severity, audit
from domain.record.catalog import CATALOG
from domain.record.commands import CommitSeed, RecordRuling
from domain.record.decide import decide, restated
from domain.record.events import MatchEnded, MatchResumed, RulingRecorded, result_of
from domain.record.match import MatchEvent, MatchState, Phase, evolve
from domain.record.refusal import RecordRefused
from domain.record.simulate import Incidents, Table, next_command
from domain.shuffle import Seed
from tests.replacing import replace

START = datetime(2026, 3, 1, 15, 0, tzinfo=UTC)
DEMOS = demo_set(Seed(b"\x5e" * 16))
Recorded = list[tuple[MatchEvent, datetime]]


def _annul_last(stream: Recorded, state: MatchState) -> tuple[Recorded, MatchState]:
    """The arbiter annuls the last counted smazzata of the finished match, a minute later."""
    at = stream[-1][1] + timedelta(minutes=1)
    last = max(e.number for e in state.ended if e.number not in state.annulled)
    events = decide(state, RecordRuling("Rossi", "carte viste", "annul-smazzata",
                                        smazzata=last), at)
    for event in events:
        state = evolve(state, event, at)
    return [*stream, *((event, at) for event in events)], state


def _play_on(demo: DemoMatch, stream: Recorded, state: MatchState) -> tuple[Recorded, MatchState]:
    """The bots go on from `state` until the table has nothing more to do."""
    table = Table(demo.match_seed, BOTS[demo.setup.game], Incidents())
    at = stream[-1][1]
    while (step := next_command(state, table, at)) is not None:
        command, at, table = step
        for event in decide(state, command, at):
            state = evolve(state, event, at)
            stream.append((event, at))
    return stream, state


demos = st.builds(lambda i, b: reseeded(DEMOS[i], Seed(bytes([b]) * 16)),
                  st.integers(0, len(DEMOS) - 1), st.integers(0, 255))


@given(demos)
@settings(max_examples=max(10, settings.default.max_examples // 4))
def test_annulling_the_deciding_smazzata_resumes_the_match_and_it_plays_to_a_new_end(
        demo: DemoMatch) -> None:
    stream, ended = play_demo(demo, START, Incidents())
    assert ended.phase is Phase.ENDED and ended.forfeit is None
    stream, resumed = _annul_last(stream, ended)
    ruling, consequence = (event for event, _ in stream[-2:])
    assert isinstance(ruling, RulingRecorded)
    if isinstance(consequence, MatchEnded):
        # Still over without it (a KO spareggio, a cappotto or target reached before): restated.
        assert resumed.phase is Phase.ENDED and result_of(e for e, _ in stream) == consequence
        return
    assert isinstance(consequence, MatchResumed)
    assert resumed.phase in (Phase.COMMIT, Phase.REVEAL) and resumed.result is None
    assert result_of(event for event, _ in stream) is None
    assert consequence.smazzate == len(ended.ended)
    stream, final = _play_on(demo, stream, resumed)
    assert final.phase is Phase.ENDED and final.result is not None
    assert len(final.ended) > len(ended.ended)
    assert result_of(event for event, _ in stream) == final.result
    report = audit(CATALOG, stream)   # every event re-decided from the record: the same
    assert report.findings == () and report.pending is None
    assert report.state == final


def test_after_the_match_seed_is_public_its_seeds_are_refused() -> None:
    """The match seed, revealed at the end, gives every smazzata seed (docs/shuffle.md §2): a
    resumed match deals the rest from fresh seeds, or the deals would be known in advance."""
    demo = DEMOS[0]
    stream, ended = play_demo(demo, START, Incidents())
    assert ended.match_seed is not None
    stream, resumed = _annul_last(stream, ended)
    assert resumed.phase is Phase.COMMIT
    given_seed = smazzata_seed(demo.match_seed, resumed.smazzata)
    with pytest.raises(RecordRefused, match="the match seed is public"):
        decide(resumed, CommitSeed(given_seed.commitment()), stream[-1][1])
    fresh = Seed(bytes(range(16)))
    (committed,) = decide(resumed, CommitSeed(fresh.commitment()), stream[-1][1])
    assert committed.commitment == fresh.commitment()  # type: ignore[union-attr]


def test_after_a_forfeit_an_annulment_restates_the_result() -> None:
    """A timeout or abandon ends the match whatever the score: nothing to resume."""
    stream, ended = play_demo(DEMOS[10], START, Incidents(timeout_at=40))
    assert ended.forfeit is not None and ended.ended
    stream, after = _annul_last(stream, ended)
    assert isinstance(stream[-1][0], MatchEnded) and after.phase is Phase.ENDED


def test_a_record_made_before_resumption_reads_as_it_was_made() -> None:
    """Before MatchResumed such an annulment restated the result and the match stayed ended: a
    stream stored then keeps its events, and `audit` reads them as made, with a note. Anything
    else recorded there is still a disagreement."""
    stream, ended = play_demo(DEMOS[10], START, Incidents())
    at = stream[-1][1] + timedelta(minutes=1)
    ruling = RecordRuling("Rossi", "carte viste", "annul-smazzata",
                          smazzata=ended.ended[-1].number)
    fact, resumed = decide(ended, ruling, at)
    assert isinstance(resumed, MatchResumed)
    then = restated(ended, ruling)
    report = audit(CATALOG, [*stream, (fact, at), (then, at)])
    assert [(f.check, f.severity) for f in report.findings] == [("ruling", Severity.NOTE)]
    assert report.state is not None and report.state.phase is Phase.ENDED
    assert report.state.result == then
    other = replace(then, scores=(then.scores[0] + 1, then.scores[1]))
    report = audit(CATALOG, [*stream, (fact, at), (other, at)])
    assert [(f.check, f.severity) for f in report.findings] == [("replay", Severity.FAILURE)]

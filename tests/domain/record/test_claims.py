"""What people wrote beside the play (domain/record/decide_claims.py): a transcribed record's header
(TranscribeTags -> TagsTranscribed) and claimed scores (ClaimScore -> ScoreClaimed).

Neither changes the game, its phase or its result; each is refused where docs/events.md says it
cannot stand; the audit re-decides both and reports, as FINDINGs for the arbiter, each claimed
category that differs from the computed breakdown and a header's Result that differs from the
match's final scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from domain.cirulla.ruleset import STANDARD
from domain.demo.matches import NAMES, play_demo, seeded_match
from domain.demo.transcribed import Transcript, transcribe
from domain.events import SmazzataDealt, SmazzataEnded
from domain.game import RuleViolation
from domain.match_format import MatchFormat
from domain.record.audit import Finding, Severity, audit
from domain.record.catalog import CATALOG
from domain.record.commands import ClaimScore, MatchCommand, TranscribeTags
from domain.record.decide import decide
from domain.record.events import (
    IrregularityNoted,
    MatchEnded,
    ScoreClaimed,
    SeedRevealed,
    TagsTranscribed,
)
from domain.record.match import MatchEvent, MatchState, Phase, evolve, initial
from domain.record.refusal import RecordRefused
from domain.shuffle import Seed
from tests.replacing import replace

Recorded = list[tuple[MatchEvent, datetime]]
TRANSCRIPT: Transcript = transcribe()
HASH = "5e" * 32
TAGS = (("Event", "Coppa del Circolo"), ("Date", "2026.11.23"), ("Result", "3-9"))
SCORER = "Rossi (segnapunti)"


def _computed() -> tuple[tuple[str, int, int], ...]:
    ended = TRANSCRIPT.partial_state.ended[0]
    return ended.breakdown


def _run(commands: Sequence[tuple[MatchCommand, datetime]]) -> tuple[Recorded, MatchState]:
    state = initial(CATALOG)
    recorded: Recorded = []
    for command, at in commands:
        for event in decide(state, command, at):
            state = evolve(state, event, at)
            recorded.append((event, at))
    return recorded, state


def _transcribed(tags: tuple[tuple[str, str], ...] = TAGS,
                 claims: Sequence[ClaimScore] = ()) -> tuple[Recorded, MatchState]:
    """The transcribed demo with its header right after CreateMatch and `claims` at the end."""
    commands = list(TRANSCRIPT.commands)
    created_at = commands[0][1]
    commands.insert(1, (TranscribeTags(tags=tags, content_hash=HASH), created_at))
    last = commands[-1][1]
    commands += [(c, last + timedelta(minutes=5 + n)) for n, c in enumerate(claims)]
    return _run(commands)


def _refusal(state: MatchState, command: MatchCommand, at: datetime) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        decide(state, command, at)
    assert isinstance(refused.value, RecordRefused)
    return refused.value


def _claimed(findings: Sequence[Finding]) -> list[Finding]:
    return [f for f in findings if f.check in ("claimed score", "claimed result")]


# -- decide and evolve ---------------------------------------------------------------------------

def test_the_header_and_a_claim_are_recorded_and_change_nothing_of_the_game() -> None:
    agreed = ClaimScore(smazzata=0, rows=_computed(), claimed_by=SCORER)
    recorded, state = _transcribed(claims=[agreed])
    plain = TRANSCRIPT.partial_state
    assert recorded[1][0] == TagsTranscribed(tags=TAGS, content_hash=HASH)
    assert recorded[-1][0] == ScoreClaimed(smazzata=0, rows=_computed(), claimed_by=SCORER)
    assert state.tags == TAGS and state.content_hash == HASH
    assert state.claims == ((len(recorded), recorded[-1][0]),)
    assert (state.phase, state.result, state.ended, state.results, state.game) == (
        plain.phase, plain.result, plain.ended, plain.results, plain.game)
    assert state.version == plain.version + 2
    # everything between is what the plain transcript recorded, one version later
    assert [e for e, _ in recorded[2:-1]] == [
        replace(e, refers_to=e.refers_to + 1) if isinstance(e, IrregularityNoted) else e
        for e, _ in TRANSCRIPT.partial[1:]]


def test_a_claim_may_name_some_categories_and_there_may_be_several() -> None:
    first = ClaimScore(smazzata=0, rows=(("scope", 3, 5),), claimed_by=SCORER)
    second = ClaimScore(smazzata=0, rows=(("carte", 0, 1), ("denari", 0, 1)),
                        claimed_by="the club's sheet")
    recorded, state = _transcribed(claims=[first, second])
    assert [fact.claimed_by for _, fact in state.claims] == [SCORER, "the club's sheet"]
    assert [v for v, _ in state.claims] == [len(recorded) - 1, len(recorded)]


def _simulated() -> Recorded:
    demo = seeded_match("cirulla", MatchFormat.parse("2smazzate", "cirulla"), STANDARD,
                        NAMES[:2], Seed(b"\x51" * 16))
    recorded: Recorded = play_demo(demo, datetime(2026, 11, 24, 20, 0, tzinfo=UTC))[0]
    return recorded


SIMULATED = _simulated()


def _spliced(recorded: Recorded, after: int, command: MatchCommand) -> Recorded:
    """`command` decided after the first `after` events, the rest of the record following."""
    state = initial(CATALOG)
    for event, at in recorded[:after]:
        state = evolve(state, event, at)
    at = recorded[after - 1][1]
    return [*recorded[:after], *((e, at) for e in decide(state, command, at)),
            *recorded[after:]]


def test_a_score_is_claimed_in_a_simulated_match_between_smazzate_and_after_its_end() -> None:
    reveal = next(i for i, (e, _) in enumerate(SIMULATED)
                  if isinstance(e, SeedRevealed) and e.smazzata == 0)
    ended = next(e for e, _ in SIMULATED if isinstance(e, SmazzataEnded) and e.number == 0)
    middle = ClaimScore(smazzata=0, rows=ended.breakdown, claimed_by=SCORER)
    spliced = _spliced(SIMULATED, reveal + 1, middle)
    last = next(e for e, _ in reversed(SIMULATED) if isinstance(e, SmazzataEnded))
    after = ClaimScore(smazzata=last.number, rows=last.breakdown[:2], claimed_by=SCORER)
    spliced = _spliced(spliced, len(spliced), after)
    checked = audit(CATALOG, spliced)
    assert checked.findings == () and checked.pending is None
    assert [v for v, _ in checked.state.claims] == [reveal + 2, len(spliced)]
    assert checked.state.result == next(e for e, _ in reversed(SIMULATED)
                                        if isinstance(e, MatchEnded))


# -- refusals ------------------------------------------------------------------------------------

def _after_creation() -> tuple[MatchState, datetime]:
    (command, at), *_ = TRANSCRIPT.commands
    state = initial(CATALOG)
    for event in decide(state, command, at):
        state = evolve(state, event, at)
    return state, at


@pytest.mark.parametrize(("tags", "content_hash"), [
    (TAGS, "5E" * 32),             # uppercase
    (TAGS, "5e" * 31),             # short
    ((("", "x"),), HASH),          # no name
    (((" Event", "x"),), HASH),    # spaces around the name
    ((("Event", "a"), ("Event", "b")), HASH),   # twice
])
def test_a_header_with_a_bad_hash_or_bad_names_is_refused(
        tags: tuple[tuple[str, str], ...], content_hash: str) -> None:
    state, at = _after_creation()
    refused = _refusal(state, TranscribeTags(tags=tags, content_hash=content_hash), at)
    assert refused.rule == "tags"


def test_a_header_with_no_tags_beyond_the_match_is_recorded() -> None:
    state, at = _after_creation()
    assert decide(state, TranscribeTags(tags=(), content_hash=HASH), at) == (
        TagsTranscribed(tags=(), content_hash=HASH),)


def test_the_header_comes_right_after_creation_and_once() -> None:
    recorded, _ = _transcribed()
    state = initial(CATALOG)
    for event, at in recorded[:2]:
        state = evolve(state, event, at)
    again = _refusal(state, TranscribeTags(tags=TAGS, content_hash=HASH), recorded[1][1])
    assert again.rule == "tags"
    state = initial(CATALOG)
    for event, at in TRANSCRIPT.partial[:2]:   # created and dealt
        state = evolve(state, event, at)
    assert isinstance(TRANSCRIPT.partial[1][0], SmazzataDealt)
    late = _refusal(state, TranscribeTags(tags=TAGS, content_hash=HASH),
                    TRANSCRIPT.partial[1][1])
    assert late.rule == "tags"


def test_only_a_transcribed_match_has_a_header() -> None:
    state = initial(CATALOG)
    event, at = SIMULATED[0]
    state = evolve(state, event, at)
    refused = _refusal(state, TranscribeTags(tags=TAGS, content_hash=HASH), at)
    assert refused.rule == "provenance"


def test_nothing_is_claimed_before_the_match_exists() -> None:
    refused = _refusal(initial(CATALOG), ClaimScore(0, (("scope", 1, 0),), SCORER),
                       TRANSCRIPT.commands[0][1])
    assert refused.rule == "phase"


@pytest.mark.parametrize("claim", [
    ClaimScore(smazzata=1, rows=(("scope", 1, 0),), claimed_by=SCORER),   # never played
    ClaimScore(smazzata=0, rows=(("punti", 1, 0),), claimed_by=SCORER),   # a Briscola row
    ClaimScore(smazzata=0, rows=(("scope", 1, 0), ("scope", 1, 0)), claimed_by=SCORER),
    ClaimScore(smazzata=0, rows=(("scope", -1, 0),), claimed_by=SCORER),
    ClaimScore(smazzata=0, rows=(), claimed_by=SCORER),
    ClaimScore(smazzata=0, rows=(("scope", 1, 0),), claimed_by="  "),
])
def test_a_claim_the_record_cannot_hold_is_refused(claim: ClaimScore) -> None:
    _, state = _transcribed()
    refused = _refusal(state, claim, TRANSCRIPT.commands[-1][1] + timedelta(minutes=1))
    assert refused.rule == "claim"


def test_a_score_is_not_claimed_for_the_smazzata_in_play() -> None:
    state = initial(CATALOG)
    for event, at in TRANSCRIPT.partial[:5]:
        state = evolve(state, event, at)
    assert state.phase is Phase.PLAY and not state.ended
    refused = _refusal(state, ClaimScore(0, (("scope", 0, 0),), SCORER),
                       TRANSCRIPT.partial[4][1])
    assert refused.rule == "claim"


# -- the audit -----------------------------------------------------------------------------------

def test_a_claim_that_agrees_and_the_right_result_add_no_finding() -> None:
    recorded, _ = _transcribed(claims=[ClaimScore(0, _computed(), SCORER)])
    checked = audit(CATALOG, recorded)
    assert checked.ok and _claimed(checked.findings) == []
    plain = audit(CATALOG, TRANSCRIPT.partial)
    # the same irregularities and notes as the plain record, one version later (the header)
    assert [(f.version - 1, f.check, f.severity) for f in checked.findings] == [
        (f.version, f.check, f.severity) for f in plain.findings]


def test_each_claimed_category_that_differs_is_a_finding_for_the_arbiter() -> None:
    wrong = tuple((name, a + 1, b) if name in ("scope", "grande") else (name, a, b)
                  for name, a, b in _computed())
    recorded, _ = _transcribed(claims=[ClaimScore(0, wrong, SCORER)])
    checked = audit(CATALOG, recorded)
    found = _claimed(checked.findings)
    computed = dict((name, (a, b)) for name, a, b in _computed())
    scope, grande = computed["scope"], computed["grande"]
    assert [(f.version, f.check, f.severity) for f in found] == [
        (len(recorded), "claimed score", Severity.FINDING)] * 2
    assert [f.message for f in found] == [
        f"smazzata 1: claimed scope {scope[0] + 1}–{scope[1]}, computed {scope[0]}–{scope[1]} "
        f"(claimed by {SCORER})",
        f"smazzata 1: claimed grande {grande[0] + 1}–{grande[1]}, computed "
        f"{grande[0]}–{grande[1]} (claimed by {SCORER})"]
    assert checked.ok and checked.verdict is Severity.FINDING


@pytest.mark.parametrize(("result", "finding"), [
    ("3-9", None), (" 3 - 9 ", None), ("3–9", None), ("*", None),
    ("9-3", "the Result tag says 9–3, the match ended 3–9 (the final scores, side 1 - side 2)"),
    ("vinto Bruno", "the Result tag 'vinto Bruno' is not a result A-B; the match ended 3–9"),
])
def test_the_header_result_is_checked_against_the_final_scores(result: str,
                                                               finding: str | None) -> None:
    recorded, state = _transcribed(tags=(("Result", result),))
    assert state.result is not None and state.result.scores == (3, 9)
    found = _claimed(audit(CATALOG, recorded).findings)
    if finding is None:
        assert found == []
    else:
        assert found == [Finding(2, "claimed result", finding, Severity.FINDING)]


def test_a_result_is_not_checked_before_the_match_ends() -> None:
    recorded, _ = _transcribed(tags=(("Result", "9-3"),))
    checked = audit(CATALOG, recorded[:-3])
    assert checked.pending is not None and _claimed(checked.findings) == []


def test_a_forged_claim_or_a_misplaced_header_fails_the_audit() -> None:
    recorded, _ = _transcribed(claims=[ClaimScore(0, _computed(), SCORER)])
    claim = recorded[-1]
    early = [*recorded[:2], (claim[0], recorded[1][1]), *recorded[2:-1]]
    stopped = audit(CATALOG, early)
    assert [(f.version, f.check) for f in stopped.of(Severity.FAILURE)] == [(3, "claim")]
    header = recorded[1]
    late = [recorded[0], recorded[2], (header[0], recorded[2][1]), *recorded[3:]]
    moved = audit(CATALOG, late)
    assert [(f.version, f.check) for f in moved.of(Severity.FAILURE)][:1] == [(3, "tags")]


def test_a_changed_claim_is_recorded_as_it_is_and_compared() -> None:
    """The audit re-decides a claim from the claim itself: what it finds is the difference
    from the breakdown, not a disagreement with the rules."""
    recorded, _ = _transcribed(claims=[ClaimScore(0, _computed(), SCORER)])
    event, at = recorded[-1]
    assert isinstance(event, ScoreClaimed)
    changed = replace(event, rows=(("carte", 9, 9),))
    checked = audit(CATALOG, [*recorded[:-1], (changed, at)])
    assert not checked.of(Severity.FAILURE)
    assert [f.check for f in checked.of(Severity.FINDING)][-1:] == ["claimed score"]

"""The match seed (docs/shuffle.md section 2, docs/events.md MatchSeedRevealed).

A simulated match commits to its match seed in MatchCreated and reveals it once the match is
over; every smazzata seed and the first dealer must derive from it. A wrong seed, an early or a
second reveal are refused; a record whose smazzate were not dealt from the committed match seed
is a failure of the audit; a match that ended without revealing it is pending.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.cirulla.ruleset import STANDARD
from domain.demo.matches import BOTS, NAMES, DemoMatch, demo_set, reseeded, seeded_match
from domain.events import SmazzataEnded
from domain.game import RuleViolation
from domain.match_format import MatchFormat
from domain.match_seed import first_dealer, smazzata_seed
from domain.record.audit import Severity, audit
from domain.record.catalog import CATALOG
from domain.record.commands import MatchCommand, RevealMatchSeed
from domain.record.decide import decide
from domain.record.events import (
    SIMULATED,
    MatchCreated,
    MatchEnded,
    MatchSeedRevealed,
    SeedRevealed,
)
from domain.record.match import MatchEvent, MatchState, Phase, evolve, initial
from domain.record.simulate import Incidents, Table, next_command, play_locally
from domain.shuffle import Seed
from tests.replacing import replace

START = datetime(2026, 11, 24, 21, 0, tzinfo=UTC)
LATER = timedelta(minutes=1)
DEMOS = demo_set(Seed(b"\x3a" * 16))
Recorded = list[tuple[MatchEvent, datetime]]
GAMES = ("cirulla", "briscola")

demos = st.builds(lambda i, b: reseeded(DEMOS[i], Seed(bytes([b, 0x11]) * 8)),
                  st.integers(0, len(DEMOS) - 1), st.integers(0, 255))
incidents = st.one_of(st.just(Incidents()), st.builds(Incidents, timeout_at=st.integers(0, 60)),
                      st.builds(Incidents, abandon_at=st.integers(0, 60)),
                      st.builds(Incidents, ruling_after=st.integers(1, 40)))


def play(demo: DemoMatch, trouble: Incidents | None = None, table_seed: Seed | None = None,
         reveal: bool = True) -> tuple[Recorded, list[MatchState]]:
    """The match as the table plays it, with the state after every action. `table_seed`: the
    table deals from that match seed's derivation instead of the committed one; `reveal`: the
    table reveals its match seed after the end."""
    table = Table(table_seed or demo.match_seed, BOTS[demo.setup.game],
                  demo.incidents if trouble is None else trouble)
    state, at = initial(CATALOG), START
    command: MatchCommand = demo.setup
    recorded: Recorded = []
    states: list[MatchState] = []
    while True:
        for event in decide(state, command, at):
            state = evolve(state, event, at)
            recorded.append((event, at))
        states.append(state)
        step = next_command(state, table, at)
        if step is None or (not reveal and state.phase is Phase.ENDED):
            return recorded, states
        command, at, table = step


def _until_revealed(recorded: Recorded) -> Recorded:
    """The record without its MatchSeedRevealed (the last action)."""
    assert isinstance(recorded[-1][0], MatchSeedRevealed)
    return recorded[:-1]


@given(demos, incidents)
@settings(max_examples=max(10, settings().max_examples // 3))
def test_a_simulated_match_commits_to_its_match_seed_and_reveals_it_after_the_end(
        demo: DemoMatch, trouble: Incidents) -> None:
    recorded: Recorded = []
    states: list[MatchState] = []
    table = Table(demo.match_seed, BOTS[demo.setup.game], trouble)
    for made, at, state in play_locally(CATALOG, demo.setup, table, START):
        recorded.extend((event, at) for event in made)
        states.append(state)
    events = [e for e, _ in recorded]
    created = events[0]
    assert isinstance(created, MatchCreated)
    assert created.provenance == SIMULATED
    assert created.match_seed_commitment == demo.match_seed.commitment()
    assert created.first_dealer == first_dealer(demo.match_seed, len(created.players))
    revealed = [i for i, e in enumerate(events) if isinstance(e, MatchSeedRevealed)]
    assert revealed == [len(events) - 1]
    assert events[-1] == MatchSeedRevealed(seed=demo.match_seed.hex)
    ended = [i for i, e in enumerate(events) if isinstance(e, MatchEnded)]
    assert ended and ended[0] < revealed[0]
    # In an action of its own, after the one that ended the match: a match ended by a cappotto
    # at a play (C11) reveals that smazzata's seed in between, in an action of its own too.
    assert recorded[-1][1] > recorded[-2][1]
    assert isinstance(events[-2], MatchEnded) or (
        isinstance(events[-2], SeedRevealed) and isinstance(events[-3], MatchEnded)
        and recorded[-2][1] > recorded[-3][1])
    assert states[-2].phase is Phase.ENDED and states[-2].match_seed is None
    assert states[-1].match_seed == demo.match_seed.hex
    for event in events:
        if isinstance(event, SeedRevealed):
            assert event.seed == smazzata_seed(demo.match_seed, event.smazzata).hex
    report = audit(CATALOG, recorded)
    assert report.findings == () and report.pending is None


def _ended(game: str) -> tuple[DemoMatch, Recorded, MatchState, MatchState]:
    fmt = MatchFormat.parse("2smazzate" if game == "cirulla" else "3smazzate", game)
    demo = seeded_match(game, fmt, STANDARD if game == "cirulla" else None, NAMES[:2],
                        Seed(b"\x3b" * 16))
    recorded, states = play(demo, Incidents())
    return demo, recorded, states[-2], states[-1]


@pytest.mark.parametrize("game", GAMES)
def test_a_wrong_match_seed_is_refused(game: str) -> None:
    demo, recorded, ended, _ = _ended(game)
    other = Seed(b"\x01" * 16)
    with pytest.raises(RuleViolation, match=r"\[seed-commitment\]") as refused:
        decide(ended, RevealMatchSeed(other), recorded[-1][1] + LATER)
    assert refused.value.rule == "seed-commitment"
    assert decide(ended, RevealMatchSeed(demo.match_seed), recorded[-1][1] + LATER) == (
        MatchSeedRevealed(seed=demo.match_seed.hex),)


@pytest.mark.parametrize("game", GAMES)
def test_the_match_seed_is_not_revealed_before_the_end(game: str) -> None:
    demo, _, _, _ = _ended(game)
    _, states = play(demo, Incidents())
    for state in states[1:]:
        if state.phase is Phase.ENDED:
            break
        assert state.last_at is not None
        with pytest.raises(RuleViolation, match=r"\[seed-reveal\]"):
            decide(state, RevealMatchSeed(demo.match_seed), state.last_at + LATER)


@pytest.mark.parametrize("game", GAMES)
def test_a_second_reveal_is_refused(game: str) -> None:
    demo, recorded, _, revealed = _ended(game)
    assert revealed.match_seed == demo.match_seed.hex
    with pytest.raises(RuleViolation, match=r"\[seed-reveal\]") as refused:
        decide(revealed, RevealMatchSeed(demo.match_seed), recorded[-1][1] + LATER)
    assert "already revealed" in refused.value.message


def test_a_match_that_committed_to_no_match_seed_has_none_to_reveal() -> None:
    demo = DEMOS[0]
    bare = replace(demo, setup=replace(demo.setup, match_seed_commitment=None))
    recorded, states = play(bare, Incidents())
    assert not any(isinstance(e, MatchSeedRevealed) for e, _ in recorded)
    assert states[-1].phase is Phase.ENDED
    with pytest.raises(RuleViolation, match=r"\[seed-reveal\]"):
        decide(states[-1], RevealMatchSeed(demo.match_seed), recorded[-1][1] + LATER)
    assert audit(CATALOG, recorded).pending is None


@pytest.mark.parametrize("game", GAMES)
def test_an_ended_match_with_its_match_seed_unrevealed_is_pending(game: str) -> None:
    _, recorded, ended, _ = _ended(game)
    report = audit(CATALOG, _until_revealed(recorded))
    assert report.findings == () and report.ok
    assert report.pending is not None and "match seed is not revealed yet" in report.pending
    assert report.state == ended


def _dealt_from_another_seed() -> tuple[DemoMatch, Seed, Recorded, MatchState]:
    """MatchCreated commits to seed A; the table deals every smazzata from seed B's
    derivation (each smazzata seed committed and revealed on its own, correctly)."""
    committed = DEMOS[0]
    dealt_from = Seed(b"\xb0" * 16)
    recorded, states = play(committed, Incidents(), table_seed=dealt_from, reveal=False)
    assert not any(isinstance(e, MatchSeedRevealed) for e, _ in recorded)
    return committed, dealt_from, recorded, states[-1]


def test_revealing_either_seed_of_a_match_not_dealt_from_its_match_seed_is_refused() -> None:
    committed, dealt_from, recorded, ended = _dealt_from_another_seed()
    at = recorded[-1][1] + LATER
    assert ended.phase is Phase.ENDED
    with pytest.raises(RuleViolation, match=r"\[seed-commitment\]"):
        decide(ended, RevealMatchSeed(dealt_from), at)
    with pytest.raises(RuleViolation, match=r"\[match-seed\]"):
        decide(ended, RevealMatchSeed(committed.match_seed), at)


def test_a_match_seed_that_does_not_derive_the_smazzata_seeds_is_an_audit_failure() -> None:
    committed, _, recorded, _ = _dealt_from_another_seed()
    # Recorded anyway (behind decide's back): the committed seed, revealed after the end.
    forged = [*recorded, (MatchSeedRevealed(seed=committed.match_seed.hex),
                          recorded[-1][1] + LATER)]
    before = audit(CATALOG, recorded)
    assert before.findings == () and before.pending is not None
    report = audit(CATALOG, forged)
    assert not report.ok and report.verdict is Severity.FAILURE
    assert [(f.version, f.check) for f in report.findings] == [(len(forged), "match-seed")]


@pytest.mark.parametrize("game", GAMES)
def test_a_forged_match_seed_with_a_forged_commitment_is_an_audit_failure(game: str) -> None:
    """A forger replaces the revealed match seed with C and MatchCreated's commitment with C's:
    the commitment holds, but C gives neither the smazzata seeds nor, here, the first dealer."""
    demo, recorded, _, _ = _ended(game)
    forged_seed = next(Seed(bytes([n]) * 16) for n in range(256)
                       if first_dealer(Seed(bytes([n]) * 16), len(demo.setup.players))
                       == demo.setup.first_dealer and Seed(bytes([n]) * 16) != demo.match_seed)
    created, at = recorded[0]
    assert isinstance(created, MatchCreated)
    forged = list(recorded)
    forged[0] = (replace(created, match_seed_commitment=forged_seed.commitment()), at)
    forged[-1] = (MatchSeedRevealed(seed=forged_seed.hex), recorded[-1][1])
    report = audit(CATALOG, forged)
    assert not report.ok
    failure = report.of(Severity.FAILURE)
    assert [(f.version, f.check) for f in failure] == [(len(forged), "match-seed")]
    assert "smazzata 1" in failure[0].message   # the first: smazzata 0 in the data


def test_a_forged_first_dealer_is_found_by_the_match_seed() -> None:
    """MatchCreated names another first dealer than the match seed draws; the match seed and
    every smazzata seed are the true ones, so the first dealer is what the reveal finds wrong."""
    demo, _, _, _ = _ended("briscola")
    players = len(demo.setup.players)
    setup = replace(demo.setup, first_dealer=(demo.setup.first_dealer + 1) % players)
    recorded_moved, states = play(replace(demo, setup=setup), Incidents(), reveal=False)
    assert not any(isinstance(e, MatchSeedRevealed) for e, _ in recorded_moved)
    with pytest.raises(RuleViolation, match=r"\[match-seed\]") as refused:
        decide(states[-1], RevealMatchSeed(demo.match_seed), recorded_moved[-1][1] + LATER)
    assert "first dealer" in refused.value.message
    forged = [*recorded_moved, (MatchSeedRevealed(seed=demo.match_seed.hex),
                                recorded_moved[-1][1] + LATER)]
    report = audit(CATALOG, forged)
    assert [(f.version, f.check, f.severity) for f in report.findings] == [
        (len(forged), "match-seed", Severity.FAILURE)]


@pytest.mark.parametrize("game", GAMES)
def test_every_smazzata_of_the_match_is_in_the_record_before_the_reveal(game: str) -> None:
    demo, recorded, ended, _ = _ended(game)
    numbers = [e.number for e, _ in recorded if isinstance(e, SmazzataEnded)]
    assert numbers == list(range(len(ended.ended))) and numbers
    assert [n for n, _ in ended.revealed] == numbers
    assert ended.revealed == tuple((n, smazzata_seed(demo.match_seed, n).hex) for n in numbers)

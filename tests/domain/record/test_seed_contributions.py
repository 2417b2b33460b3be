"""Seed contributions (docs/shuffle.md section 4, docs/events.md SeedContributed).

Between the house's `SeedCommitted` and the deal (phase DEAL) the seats may each add bytes to the
seed, once each, in seat order. The deal then comes from `mix_seeds(house, contributions)` while
naming the house's commitment; anything else is refused before it is recorded, and a
contribution changed in the record afterwards no longer gives the recorded deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import projections.auditor.shuffle as outside
from domain.cirulla.ruleset import STANDARD
from domain.demo.matches import BOTS, NAMES, DemoMatch, seeded_match
from domain.events import SmazzataDealt
from domain.game import RuleViolation
from domain.match_format import MatchFormat
from domain.match_seed import smazzata_seed
from domain.record.audit import Severity, audit
from domain.record.catalog import CATALOG
from domain.record.commands import ContributeSeed, DealSmazzata, MatchCommand
from domain.record.decide import decide
from domain.record.events import SeedContributed
from domain.record.match import MatchEvent, MatchState, Phase, evolve, initial
from domain.record.simulate import Table, next_command
from domain.shuffle import Seed, mix_seeds
from tests.replacing import replace

START = datetime(2026, 11, 24, 20, 0, tzinfo=UTC)
SECOND = timedelta(seconds=1)
Recorded = list[tuple[MatchEvent, datetime]]


def _demo(game: str, players: int, length: int = 1, seed_byte: int = 0x5C) -> DemoMatch:
    fmt = MatchFormat.parse(f"{length}smazzate", game)
    return seeded_match(game, fmt, STANDARD if game == "cirulla" else None, NAMES[:players],
                        Seed(bytes([seed_byte]) * 16))


class _Match:
    """A bot match decided and folded action by action, keeping every action's events."""

    def __init__(self, demo: DemoMatch) -> None:
        self.demo = demo
        self.table = Table(demo.match_seed, BOTS[demo.setup.game], demo.incidents)
        self.state = initial(CATALOG)
        self.at = START
        self.recorded: Recorded = []
        self.act(demo.setup)

    def act(self, command: MatchCommand, at: datetime | None = None) -> tuple[MatchEvent, ...]:
        self.at = at or self.at + SECOND
        events = decide(self.state, command, self.at)
        for event in events:
            self.state = evolve(self.state, event, self.at)
            self.recorded.append((event, self.at))
        return events

    def until(self, phase: Phase) -> None:
        """The table's own commands until the match is at `phase`."""
        while self.state.phase is not phase:
            self.step()

    def step(self) -> bool:
        made = next_command(self.state, self.table, self.at)
        if made is None:
            return False
        command, at, self.table = made
        self.act(command, at)
        return True

    def to_the_end(self, contributions: Mapping[int, bytes] | None = None) -> None:
        """Play on; at every deal the seats in `contributions` contribute first."""
        while True:
            if (contributions and self.state.phase is Phase.DEAL
                    and not self.state.contributions):
                for seat in sorted(contributions):
                    self.act(ContributeSeed(seat, contributions[seat]))
            if not self.step():
                return

    @property
    def house(self) -> Seed:
        return smazzata_seed(self.demo.match_seed, self.state.smazzata)


def _engine_deal(state: MatchState, seed: Seed, commitment: str) -> tuple[object, ...]:
    """The engine's own deal of the smazzata about to be dealt, from `seed`, naming
    `commitment` (the house's) as docs/events.md says a deal with contributions does."""
    assert state.seating is not None
    events = state.engine.deal(state.ruleset, state.seating, state.dealer, state.smazzata, seed)
    return tuple(replace(e, seed_commitment=commitment) if isinstance(e, SmazzataDealt) else e
                 for e in events)


@st.composite
def contributions(draw: st.DrawFn) -> tuple[str, int, dict[int, bytes]]:
    game = draw(st.sampled_from(("cirulla", "briscola")))
    players = draw(st.sampled_from((2, 4)))
    given_by = draw(st.dictionaries(st.integers(0, players - 1), st.binary(max_size=48),
                                    min_size=1))
    return game, players, given_by


@given(contributions(), st.integers(0, 255))
@settings(max_examples=max(10, settings().max_examples // 2))
def test_the_deal_is_the_engines_deal_from_the_mix_of_house_and_contributions_in_seat_order(
        drawn: tuple[str, int, dict[int, bytes]], seed_byte: int) -> None:
    game, players, given_by = drawn
    match = _Match(_demo(game, players, seed_byte=seed_byte))
    match.until(Phase.DEAL)
    house = match.house
    for seat in sorted(given_by):
        (fact,) = match.act(ContributeSeed(seat, given_by[seat]))
        assert fact == SeedContributed(smazzata=0, seat=seat, contribution=given_by[seat].hex())
        assert match.state.phase is Phase.DEAL
    in_order = [given_by[seat] for seat in sorted(given_by)]
    mixed = mix_seeds(house, in_order)
    # docs/shuffle.md section 4 as the outside auditor writes it, without verbale's code.
    assert mixed.value == outside.mix(house.value, in_order) != house.value
    before = match.state
    dealt = match.act(DealSmazzata(house))
    assert dealt == _engine_deal(before, mixed, house.commitment())
    assert {e.seed_commitment for e in dealt if isinstance(e, SmazzataDealt)} == {
        house.commitment()}
    first = next(e for e in dealt if isinstance(e, SmazzataDealt))
    alone = next(e for e in _engine_deal(before, house, house.commitment())
                 if isinstance(e, SmazzataDealt))
    assert first.hands != alone.hands
    assert match.state.phase is Phase.PLAY


def test_without_contributions_the_deal_is_the_house_seeds_own() -> None:
    match = _Match(_demo("cirulla", 2))
    match.until(Phase.DEAL)
    house = match.house
    before = match.state
    assert before.seating is not None
    dealt = match.act(DealSmazzata(house))
    assert dealt == before.engine.deal(before.ruleset, before.seating, before.dealer, 0, house)


@pytest.mark.parametrize("game, players", [("cirulla", 2), ("briscola", 4)])
def test_a_match_with_contributions_audits_clean_to_the_end(game: str, players: int) -> None:
    match = _Match(_demo(game, players, length=3 if game == "briscola" else 2))
    given_by = {0: b"anna", players - 1: bytes(range(32))}
    match.to_the_end(given_by)
    facts = [e for e, _ in match.recorded if isinstance(e, SeedContributed)]
    smazzate = len(match.state.ended)
    assert smazzate >= 2 and match.state.phase is Phase.ENDED
    assert [(f.smazzata, f.seat) for f in facts] == [
        (n, s) for n in range(smazzate) for s in sorted(given_by)]
    report = audit(CATALOG, match.recorded)
    assert report.findings == () and report.pending is None and report.ok
    assert report.state == match.state


def test_contributions_are_reset_by_the_next_commitment() -> None:
    """Seat 0 contributed to smazzata 0; it may contribute again to smazzata 1, and a deal of
    smazzata 1 without contributions is the house seed's own."""
    match = _Match(_demo("cirulla", 2, length=2))
    match.until(Phase.DEAL)
    match.act(ContributeSeed(0, b"x"))
    match.step()
    match.until(Phase.DEAL)
    assert match.state.smazzata == 1 and match.state.contributions == ()
    before = match.state
    assert before.seating is not None
    house = match.house
    dealt = match.act(DealSmazzata(house))
    assert dealt == before.engine.deal(before.ruleset, before.seating, before.dealer, 1, house)


def _at_deal(players: int = 2) -> _Match:
    match = _Match(_demo("cirulla", players))
    match.until(Phase.DEAL)
    return match


@pytest.mark.parametrize("first, second", [((1, b"b"), (0, b"a")), ((0, b"a"), (0, b"c")),
                                           ((1, b"b"), (1, b"b"))])
def test_a_contribution_out_of_seat_order_or_twice_is_refused(
        first: tuple[int, bytes], second: tuple[int, bytes]) -> None:
    match = _at_deal()
    match.act(ContributeSeed(*first))
    with pytest.raises(RuleViolation, match=r"\[seed-contribution\]") as refused:
        decide(match.state, ContributeSeed(*second), match.at + SECOND)
    assert refused.value.rule == "seed-contribution"
    assert "seat order" in refused.value.message


@pytest.mark.parametrize("players, seat", [(2, 2), (2, -1), (4, 4), (4, 17)])
def test_a_contribution_from_a_seat_that_does_not_exist_is_refused(players: int,
                                                                    seat: int) -> None:
    match = _at_deal(players)
    with pytest.raises(RuleViolation, match=r"\[seed-contribution\]") as refused:
        decide(match.state, ContributeSeed(seat, b"x"), match.at + SECOND)
    assert f"seat {seat + 1} does not exist" in refused.value.message   # counted from 1


@pytest.mark.parametrize("phase", [Phase.NEW, Phase.COMMIT, Phase.PLAY, Phase.REVEAL,
                                   Phase.ENDED])
def test_a_contribution_outside_the_deal_phase_is_refused(phase: Phase) -> None:
    match = _Match(_demo("cirulla", 2))
    if phase is Phase.NEW:
        state, at = initial(CATALOG), START
    else:
        match.until(phase)
        state, at = match.state, match.at + SECOND
    assert state.phase is phase
    with pytest.raises(RuleViolation, match=r"\[phase\]") as refused:
        decide(state, ContributeSeed(0, b"x"), at)
    assert refused.value.rule == "phase"


def test_a_contribution_changed_in_the_record_is_a_failure_found_at_the_deal() -> None:
    match = _Match(_demo("cirulla", 2))
    match.to_the_end({0: b"anna", 1: b"bruno"})
    recorded = list(match.recorded)
    assert audit(CATALOG, recorded).findings == ()
    index = next(i for i, (e, _) in enumerate(recorded) if isinstance(e, SeedContributed)
                 and e.seat == 1)
    fact, at = recorded[index]
    assert isinstance(fact, SeedContributed)
    recorded[index] = (replace(fact, contribution=b"brunO".hex()), at)
    deal = next(i for i, (e, _) in enumerate(recorded) if isinstance(e, SmazzataDealt)) + 1
    report = audit(CATALOG, recorded)
    failures = report.of(Severity.FAILURE)
    assert failures and not report.ok and report.verdict is Severity.FAILURE
    assert failures[0].version == deal and failures[0].check == "replay"
    assert all(f.version >= deal for f in report.findings)


def test_a_contribution_removed_from_the_record_is_a_failure_found_at_the_deal() -> None:
    match = _Match(_demo("briscola", 2))
    match.to_the_end({1: b"\x00" * 8})
    recorded = [(e, at) for e, at in match.recorded if not isinstance(e, SeedContributed)]
    deal = next(i for i, (e, _) in enumerate(recorded) if isinstance(e, SmazzataDealt)) + 1
    report = audit(CATALOG, recorded)
    assert not report.ok
    assert report.of(Severity.FAILURE)[0].version == deal

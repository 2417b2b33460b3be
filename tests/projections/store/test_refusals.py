"""Illegal commands are refused with a message naming the rule, and the store is unchanged."""

from __future__ import annotations

from datetime import timedelta

import msgspec
import pytest

from domain.cards import DECK, Card
from domain.cirulla.captures import legal_plays
from domain.cirulla.state import CirullaState
from domain.demo.matches import reseeded
from domain.game import PlayCard, RuleViolation
from domain.record.catalog import CATALOG
from domain.record.commands import DealSmazzata, RecordTimeout, RevealSeed
from domain.record.match import Phase
from domain.shuffle import Seed
from projections.store.app import MatchStore
from tests.projections.conftest import Backend
from tests.projections.store.recording import BY, record_toy_match
from tests.projections.store.test_replay import DEMOS, record


def _unchanged(store: MatchStore, stream: object, before: list[bytes]) -> bool:
    return [r.state for r in store.stored(stream)] == before  # type: ignore[arg-type]


def _in_play(store: MatchStore) -> object:
    loaded = record_toy_match(store, 31, stop_after=3)
    assert loaded.state.phase is Phase.PLAY
    return loaded


@pytest.mark.parametrize("make, rule", [
    (lambda s: PlayCard(seat=1 - s.to_move(), card=DECK[0]), "turn"),
    (lambda s: PlayCard(seat=s.to_move(), card=next(c for c in DECK if all(
        c not in h for h in s.game.hands))), "toy: card in hand"),
    (lambda s: RevealSeed(Seed(b"\x01" * 16)), "seed-reveal"),
    (lambda s: DealSmazzata(Seed(b"\x01" * 16)), "phase"),
    (lambda s: RecordTimeout(seat=s.to_move()), "timeout"),
])
def test_an_illegal_command_is_refused_naming_its_rule_and_nothing_is_stored(
        store: MatchStore, make: object, rule: str) -> None:
    loaded = _in_play(store)
    stream = loaded.stream  # type: ignore[attr-defined]
    before = [r.state for r in store.stored(stream)]
    state = loaded.state  # type: ignore[attr-defined]
    at = state.last_at + timedelta(seconds=5)
    with pytest.raises(RuleViolation) as refused:
        store.execute(stream, make(state), at, BY)  # type: ignore[operator]
    assert refused.value.rule == rule
    assert f"[{rule}]" in str(refused.value)
    assert _unchanged(store, stream, before)


def test_a_deal_from_a_seed_that_does_not_match_its_commitment_is_refused(
        store: MatchStore) -> None:
    loaded = record_toy_match(store, 32, stop_after=1)
    assert loaded.state.phase is Phase.DEAL
    before = [r.state for r in store.stored(loaded.stream)]
    with pytest.raises(RuleViolation, match=r"\[seed-commitment\]"):
        store.execute(loaded.stream, DealSmazzata(Seed(b"\x02" * 16)),
                      loaded.state.last_at + timedelta(seconds=1), BY)
    assert _unchanged(store, loaded.stream, before)


def test_a_claimed_deal_that_does_not_follow_from_its_seed_is_refused(store: MatchStore) -> None:
    from domain.match_seed import smazzata_seed
    loaded = record_toy_match(store, 33, stop_after=1)
    seed = smazzata_seed(Seed(bytes([33, 0]) * 8), 0)
    honest = store.catalog["toy"].engine.deal(None, loaded.state.seating, 0, 0, seed)
    first = honest[0]
    swapped = msgspec.structs.replace(first, hands=tuple(reversed(first.hands)))
    before = [r.state for r in store.stored(loaded.stream)]
    with pytest.raises(RuleViolation, match=r"\[deal-from-seed\]"):
        store.execute(loaded.stream, DealSmazzata(seed, claimed=(swapped, *honest[1:])),
                      loaded.state.last_at + timedelta(seconds=1), BY)
    assert _unchanged(store, loaded.stream, before)


def _cirulla_position_with_a_capture(
        store: MatchStore) -> tuple[object, CirullaState, Card, tuple[Card, ...]]:
    """A real Cirulla match recorded up to a turn whose player holds a card that can capture,
    with a table card that this card may not take alone."""
    demo = next(d for d in DEMOS if d.setup.game == "cirulla")
    for stop_after in range(3, 80):
        # Each attempt from its own seed: the store refuses a seed used twice.
        loaded = record(store, reseeded(demo, Seed(bytes([stop_after]) * 16)), stop_after)
        game = loaded.state.game
        if loaded.state.phase is not Phase.PLAY or not isinstance(game, CirullaState):
            continue
        for card in {p[0] for p in legal_plays(game) if p[1]}:
            legal = {frozenset(p[1]) for p in legal_plays(game) if p[0] is card}
            wrong = [(c,) for c in game.table if frozenset((c,)) not in legal]
            if wrong:
                return loaded, game, card, wrong[0]
    raise AssertionError("no such position in the demo match")


def test_an_illegal_cirulla_play_is_refused_naming_its_rule_and_nothing_is_stored(
        backend: Backend) -> None:
    """The rules engine decides before the store writes: a discard of a card that can capture
    (000: "Se il giocatore può fare almeno un tipo di presa è costretto a prendere") and a
    capture the rules do not allow are refused, and the stored events stay as they were."""
    store = MatchStore(url=backend.url, catalog=CATALOG)
    try:
        _refuse_illegal_cirulla_plays(store)
    finally:
        store.close()


def _refuse_illegal_cirulla_plays(store: MatchStore) -> None:
    loaded, game, card, wrong = _cirulla_position_with_a_capture(store)
    stream = loaded.stream  # type: ignore[attr-defined]
    at = loaded.state.last_at + timedelta(seconds=5)  # type: ignore[attr-defined]
    before = [r.state for r in store.stored(stream)]
    seat = game.to_move
    with pytest.raises(RuleViolation, match=r"\[C16 presa obbligata\]"):
        store.execute(stream, PlayCard(seat, card, ()), at, BY)
    with pytest.raises(RuleViolation, match=r"cannot capture .*\[(prese|asso)"):
        store.execute(stream, PlayCard(seat, card, wrong), at, BY)
    assert _unchanged(store, stream, before)

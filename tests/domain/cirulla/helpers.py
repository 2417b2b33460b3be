"""Shared helpers of the Cirulla tests: written positions, a ruleset strategy, random play."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

from domain.cards import DECK, Card, parse_cards
from domain.cirulla.accusi import player_accusi
from domain.cirulla.captures import legal_plays
from domain.cirulla.decide import decide
from domain.cirulla.engine import deal_events, evolve
from domain.cirulla.ruleset import (
    STANDARD,
    Accuso,
    AssoSuAsso,
    DealOrder,
    MattaDurata,
    PresaObbligata,
    Primiera,
    Redeal,
    Ruleset,
)
from domain.cirulla.state import CirullaState, empty_state
from domain.events import PlayEvent, SmazzataDealt
from domain.game import Command, DeclareAccuso, PlayCard
from domain.seating import Direction, Seating
from domain.shuffle import Seed

seeds = st.binary(min_size=16, max_size=32).map(Seed)
players = st.sampled_from((2, 4))
rulesets = st.builds(
    Ruleset,
    redeal=st.sampled_from(Redeal),
    deal_order=st.sampled_from(DealOrder),
    direction=st.sampled_from(Direction),
    asso_su_asso=st.sampled_from(AssoSuAsso),
    piccola_fino_al=st.sampled_from((6, 7)),
    primiera=st.sampled_from(Primiera),
    matta_durata=st.sampled_from(MattaDurata),
    decino_tre_assi=st.sampled_from((10, 11)),
    accuso=st.sampled_from(Accuso),
    presa_obbligata=st.sampled_from(PresaObbligata),
)
"""Every option of the ruleset, each value drawn independently."""


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def position(hands: Sequence[str], table: str, ruleset: Ruleset = STANDARD, *,
             first: int = 0) -> CirullaState:
    """A dealt state from written cards, seat `first` to play; the stock is the rest of the deck.

    Built by folding a SmazzataDealt, as a record would be; no dealer accuso is applied.
    """
    seating = Seating(len(hands), ruleset.direction)
    # The dealer is the seat just before `first` in the direction of play.
    step = 1 if ruleset.direction is Direction.COUNTERCLOCKWISE else -1
    dealer = (first - step) % seating.players
    parsed = tuple(parse_cards(h) for h in hands)
    laid = parse_cards(table)
    used = {c for h in parsed for c in h} | set(laid)
    stock = tuple(c for c in DECK if c not in used)
    event = SmazzataDealt(number=0, dealer=dealer, attempt=0, seed_commitment="",
                          hands=parsed, table=laid, stock=stock)
    return evolve(empty_state(ruleset, seating, dealer), event)


def run(state: CirullaState, *commands: Command) -> tuple[CirullaState, list[PlayEvent]]:
    """Decide and fold each command in turn; the final state and every event."""
    events: list[PlayEvent] = []
    for command in commands:
        for event in decide(state, command):
            events.append(event)
            state = evolve(state, event)
    return state, events


def play(state: CirullaState, card: str, capture: str = "") -> tuple[CirullaState,
                                                                     list[PlayEvent]]:
    """The seat to move plays `card` taking `capture`."""
    (played,) = parse_cards(card)
    return run(state, PlayCard(state.to_move, played, parse_cards(capture)))


@dataclass(frozen=True, slots=True)
class Played:
    """A smazzata played at random through decide/evolve.

    `events` are all the events; `states[i]` is the state after `events[i]`; `deciding` are the
    states in which a command was chosen (before it).
    """

    initial: CirullaState
    events: tuple[PlayEvent, ...]
    states: tuple[CirullaState, ...]
    deciding: tuple[CirullaState, ...]

    @property
    def final(self) -> CirullaState:
        return self.states[-1]


def _maybe_declare(state: CirullaState, rng: random.Random) -> DeclareAccuso | None:
    """A random player's accuso choice: must under OBBLIGATORIO, may otherwise."""
    seat = state.to_move
    if state.declared[seat]:
        return None
    options = player_accusi(state.hands[seat], state.ruleset)
    if not options:
        return None
    mode = state.ruleset.accuso
    wants = {Accuso.OBBLIGATORIO: 1.0, Accuso.FACOLTATIVO: 0.5, Accuso.AUTOMATICO: 0.2}[mode]
    if rng.random() >= wants:
        return None
    return DeclareAccuso(seat, rng.choice(options).kind)


def random_smazzata(ruleset: Ruleset, seating_players: int, seed: Seed, rng: random.Random,
                    *, dealer: int = 0) -> Played:
    """Deal from `seed`, then random accusi and random legal plays until the end."""
    seating = Seating(seating_players, ruleset.direction)
    initial = empty_state(ruleset, seating, dealer)
    state = initial
    events: list[PlayEvent] = []
    states: list[CirullaState] = []
    deciding: list[CirullaState] = []

    def fold(current: CirullaState, new: Sequence[PlayEvent]) -> CirullaState:
        for event in new:
            current = evolve(current, event)
            events.append(event)
            states.append(current)
        return current

    state = fold(state, deal_events(ruleset, seating, dealer, 0, seed))
    while not state.finished:
        declare = _maybe_declare(state, rng)
        if declare is not None:
            state = fold(state, decide(state, declare))
        deciding.append(state)
        chosen = rng.choice(legal_plays(state))
        state = fold(state, decide(state, PlayCard(state.to_move, chosen[0], chosen[1])))
    return Played(initial, tuple(events), tuple(states), tuple(deciding))

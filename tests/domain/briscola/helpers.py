"""Shared helpers of the Briscola tests: random legal play through the engine's own API."""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import strategies as st

from domain.briscola.engine import ENGINE
from domain.briscola.state import BriscolaRules, BriscolaState, dealt_state, legal_plays
from domain.briscola.values import TRICK_ORDER
from domain.cards import Card, Suit, parse_cards
from domain.events import PlayEvent
from domain.game import PlayCard
from domain.seating import Seating
from domain.shuffle import Seed

seeds = st.binary(min_size=16, max_size=32).map(Seed)
table_sizes = st.sampled_from((2, 4))


@dataclass(frozen=True, slots=True)
class Played:
    """A smazzata played at random: every state after every event, and the events."""

    events: tuple[PlayEvent, ...]
    states: tuple[BriscolaState, ...]

    @property
    def final(self) -> BriscolaState:
        return self.states[-1]


def random_smazzata(seed: Seed, players: int, rng: random.Random, *, dealer: int = 0,
                    vinco_subito: bool = False) -> Played:
    """Deal from `seed`, then play a random legal card for the seat to move until the end."""
    rules = BriscolaRules(vinco_subito=vinco_subito)
    seating = Seating(players)
    events = list(ENGINE.deal(rules, seating, dealer, 0, seed))
    state = ENGINE.evolve(ENGINE.initial(rules, seating), events[0])
    states = [state]
    while not ENGINE.is_finished(state):
        seat = ENGINE.to_move(state)
        assert seat is not None
        card = rng.choice(legal_plays(state))
        for event in ENGINE.decide(state, PlayCard(seat, card)):
            state = ENGINE.evolve(state, event)
            events.append(event)
            states.append(state)
    return Played(tuple(events), tuple(states))


def brute_force_winner(cards: tuple[Card, ...], briscola: Suit) -> int:
    """004 read word for word: the highest briscola, else the highest card of the suit led."""
    def height(card: Card) -> int:
        return len(TRICK_ORDER) - TRICK_ORDER.index(card.rank)
    trumps = [c for c in cards if c.suit is briscola]
    candidates = trumps or [c for c in cards if c.suit is cards[0].suit]
    return cards.index(max(candidates, key=height))


def position(hands: str, briscola: str, stock: str = "", *, players: int = 2, dealer: int = 0,
             vinco_subito: bool = False) -> BriscolaState:
    """A dealt state from written cards: hands separated by '|', seat 0 first."""
    parsed = tuple(parse_cards(h) for h in hands.split("|"))
    (briscola_card,) = parse_cards(briscola)
    return dealt_state(BriscolaRules(vinco_subito), Seating(players), 0, dealer, parsed,
                       briscola_card, parse_cards(stock))


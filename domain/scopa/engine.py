"""Scopa as a fold (docs/rules-interpretations.md, "Scopa"): `deal` and `decide` return the
shared events of domain/events.py, `evolve` applies one.

A smazzata: 3 cards to each seat one at a time from the dealer's right, 4 face up on the table,
the rest the stock (S1: the deal always stands); play goes round from the dealer's right; once
every hand is empty the stock deals 3 more each (HandDealt); after the 36th play the cards left
on the table go to the side of the last capture, which is not a scopa (S4), and the smazzata is
scored (SmazzataEnded).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from domain.cards import Card
from domain.dealing import deal_round_robin
from domain.events import CardPlayed, HandDealt, PlayEvent, SmazzataDealt, SmazzataEnded
from domain.game import Command, PlayCard, RuleViolation
from domain.match_format import SmazzataResult
from domain.scopa.captures import legal_plays
from domain.scopa.observe import observe
from domain.scopa.scoring import breakdown, totals
from domain.scopa.state import (
    HAND_SIZE,
    PLAYS_PER_SMAZZATA,
    TABLE_SIZE,
    ScopaRules,
    ScopaState,
    empty_state,
    table_order,
)
from domain.seating import Seating
from domain.shuffle import Seed, commitment, shuffled_deck
from domain.text import say
from domain.viewing import Observation, Viewer, Visibility


def deal(ruleset: ScopaRules, seating: Seating, dealer: int, number: int,
         seed: Seed) -> tuple[PlayEvent, ...]:
    """The deal of smazzata `number` from the seeded shuffle's first attempt (S1)."""
    hands, rest = deal_round_robin(shuffled_deck(seed, 0), seating, dealer, HAND_SIZE)
    return (SmazzataDealt(number=number, dealer=dealer, attempt=0,
                          seed_commitment=commitment(seed), hands=hands,
                          table=rest[:TABLE_SIZE], stock=rest[TABLE_SIZE:]),)


def decide(state: ScopaState, command: Command) -> tuple[PlayEvent, ...]:
    """The events of a legal play; RuleViolation naming the rule it breaks."""
    return decide_folded(state, command)[0]


def decide_folded(state: ScopaState,
                  command: Command) -> tuple[tuple[PlayEvent, ...], ScopaState]:
    """`decide`, and the state after its events."""
    if not state.dealt:
        raise RuleViolation("deal", say("no smazzata has been dealt"))
    if state.finished:
        raise RuleViolation("end of smazzata", say("the smazzata is over"))
    if not isinstance(command, PlayCard):
        raise RuleViolation("accusi", say("Scopa has no accusi"))
    if command.seat != state.to_move:
        raise RuleViolation("turn order", say("seat {seat} played out of turn: seat {to_move} "
                                              "is to play", seat=command.seat,
                                              to_move=state.to_move))
    if command.card not in state.hands[command.seat]:
        raise RuleViolation("hand", say("{card} is not in the hand of seat {seat}",
                                        card=command.card.code, seat=command.seat))
    wanted = tuple(sorted(command.capture))
    if (command.card, wanted) not in legal_plays(state):
        raise RuleViolation("S2-S3 prese", say("{card} cannot take {capture} here",
                                               card=command.card.code,
                                               capture=" ".join(c.code for c in wanted) or "-"))
    scopa = bool(wanted) and len(wanted) == len(state.table) and not state.is_last_play
    played = CardPlayed(seat=command.seat, card=command.card, capture=wanted, scopa=scopa)
    after = evolve(state, played)
    following = _following(after)
    for event in following:
        after = evolve(after, event)
    return (played, *following), after


def _following(state: ScopaState) -> tuple[PlayEvent, ...]:
    """What follows a play by itself: a new hand from the stock, or the smazzata's end."""
    if state.plays == PLAYS_PER_SMAZZATA:
        return (end_event(state),)
    if not any(state.hands) and state.stock:
        hands, _ = deal_round_robin(state.stock, state.seating, state.dealer, HAND_SIZE)
        return (HandDealt(hands=hands),)
    return ()


def end_event(state: ScopaState) -> SmazzataEnded:
    """S4: the cards left on the table go to the side of the last capture (no scopa)."""
    leftover_to = state.last_capture_side if state.table else None
    rows = breakdown(_piles(state, leftover_to), state.scope)
    return SmazzataEnded(number=state.number, scores=totals(rows), breakdown=rows,
                         leftover_to=leftover_to)


def _piles(state: ScopaState,
           leftover_to: int | None) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    piles = state.captured
    if leftover_to is None:
        return piles
    return _add(piles, leftover_to, state.table)


def _add(piles: tuple[tuple[Card, ...], tuple[Card, ...]], side: int,
         cards: Sequence[Card]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    return ((*piles[0], *cards), piles[1]) if side == 0 else (piles[0], (*piles[1], *cards))


def evolve(state: ScopaState, event: PlayEvent) -> ScopaState:
    if isinstance(event, CardPlayed):
        return _played(state, event)
    if isinstance(event, SmazzataDealt):
        fresh = empty_state(state.ruleset, state.seating, event.dealer, event.number)
        return replace(fresh, hands=event.hands, table=table_order(event.table),
                       stock=event.stock, dealt=True)
    if isinstance(event, HandDealt):
        return replace(state, hands=event.hands,
                       stock=state.stock[sum(map(len, event.hands)):])
    if isinstance(event, SmazzataEnded):
        piles = _piles(state, event.leftover_to)
        return replace(state, captured=piles, table=() if event.leftover_to is not None
                       else state.table, finished=True)
    raise TypeError(f"Scopa does not fold {type(event).__name__}")


def _played(state: ScopaState, event: CardPlayed) -> ScopaState:
    seat = event.seat
    hand = tuple(c for c in state.hands[seat] if c != event.card)
    hands = (*state.hands[:seat], hand, *state.hands[seat + 1:])
    moved = replace(state, hands=hands, to_move=state.seating.next_seat(seat),
                    plays=state.plays + 1)
    if not event.capture:
        return replace(moved, table=table_order((*state.table, event.card)))
    side = state.seating.side_of(seat)
    scope = list(state.scope)
    scope[side] += int(event.scopa)
    return replace(moved, table=tuple(c for c in state.table if c not in event.capture),
                   captured=_add(state.captured, side, (*event.capture, event.card)),
                   scope=(scope[0], scope[1]), last_capture_side=side)


def legal_commands(state: ScopaState) -> tuple[Command, ...]:
    return tuple(PlayCard(state.to_move, card, capture)
                 for card, capture in legal_plays(state))


def smazzata_result(state: ScopaState) -> SmazzataResult:
    """The finished smazzata as match_format reads it."""
    rows = breakdown(state.captured, state.scope)
    return SmazzataResult(points=totals(rows), last_capture_side=state.last_capture_side)


class ScopaEngine:
    """The GameEngine of Scopa (domain/game.py)."""

    name = "scopa"

    def deal(self, ruleset: ScopaRules, seating: Seating, dealer: int, number: int,
             seed: Seed) -> tuple[PlayEvent, ...]:
        return deal(ruleset, seating, dealer, number, seed)

    def initial(self, ruleset: ScopaRules, seating: Seating) -> ScopaState:
        return empty_state(ruleset, seating)

    def decide(self, state: ScopaState, command: Command) -> tuple[PlayEvent, ...]:
        return decide(state, command)

    def decide_folded(self, state: ScopaState,
                      command: Command) -> tuple[tuple[PlayEvent, ...], ScopaState]:
        return decide_folded(state, command)

    def evolve(self, state: ScopaState, event: PlayEvent) -> ScopaState:
        return evolve(state, event)

    def is_finished(self, state: ScopaState) -> bool:
        return state.finished

    def to_move(self, state: ScopaState) -> int | None:
        return state.to_move if state.dealt and not state.finished else None

    def legal_commands(self, state: ScopaState) -> tuple[Command, ...]:
        return legal_commands(state)

    def observe(self, state: ScopaState, viewer: Viewer, visibility: Visibility,
                plays: Sequence[CardPlayed]) -> Observation:
        return observe(state, viewer, visibility, plays)


ENGINE = ScopaEngine()

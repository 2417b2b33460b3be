"""Cirulla as a fold: `deal` and `decide` return events, `evolve` applies one.

`apply_play` is the one place a play changes the state; `evolve` and the simulator both use it,
so the fast path of the benchmark is the path of the record.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from itertools import count

from msgspec.structs import replace

from domain.cards import DECK, MATTA, UNKNOWN, Card, Suit
from domain.cirulla.accusi import (
    DEALER_KINDS,
    AccusoOption,
    best_accuso,
    dealer_accuso,
    player_accusi,
)
from domain.cirulla.dealing import distribute, next_hands, redeal_reason
from domain.cirulla.ruleset import Accuso, MattaDurata, Ruleset
from domain.cirulla.scoring import Breakdown, score
from domain.cirulla.state import (
    PLAYS_PER_SMAZZATA,
    AccusoRecord,
    CirullaState,
    Play,
    taken,
)
from domain.events import (
    AccusoDeclared,
    CardPlayed,
    DealAnnulled,
    HandDealt,
    PlayEvent,
    SmazzataDealt,
    SmazzataEnded,
)
from domain.seating import Seating
from domain.shuffle import Seed, commitment, shuffled_deck

_FOREVER = 1 << 30
_LAST_PLAY = PLAYS_PER_SMAZZATA - 1
# Looked up once: an enum member read off its class goes through the enum's metaclass, and a
# card's value is an instance attribute; both cost several times a tuple lookup on every play.
_AUTOMATICO = Accuso.AUTOMATICO
_VALUE = tuple(c.value for c in DECK)


def deal_events(ruleset: Ruleset, seating: Seating, dealer: int, number: int,
                seed: Seed) -> tuple[PlayEvent, ...]:
    """The deal of smazzata `number`: every attempt until one stands, then the accusi it makes."""
    return deal_from(ruleset, seating, dealer, number, commitment(seed),
                     (shuffled_deck(seed, attempt) for attempt in count()))


def deal_from(ruleset: Ruleset, seating: Seating, dealer: int, number: int, promise: str,
              decks: Iterator[tuple[Card, ...]]) -> tuple[PlayEvent, ...]:
    """The deal from a source of shuffled decks (one per attempt): the seeded shuffle for a
    record; any other for a simulation that needs no audit trail."""
    events: list[PlayEvent] = []
    for attempt, deck in enumerate(decks):
        hands, table, stock = distribute(deck, ruleset, seating, dealer)
        events.append(SmazzataDealt(number=number, dealer=dealer, attempt=attempt,
                                    seed_commitment=promise, hands=hands, table=table,
                                    stock=stock))
        reason = redeal_reason(table, ruleset)
        if reason is None:
            break
        events.append(DealAnnulled(number=number, attempt=attempt, reason=reason))
    option = dealer_accuso(table)
    if option is not None:
        events.append(_accuso_event(dealer, option, table))
    if ruleset.accuso is _AUTOMATICO:
        first = seating.first_after_dealer(dealer)
        accuso = best_accuso(player_accusi(hands[first], ruleset))
        if accuso is not None:
            events.append(_accuso_event(first, accuso, hands[first]))
    return tuple(events)


def _accuso_event(seat: int, option: AccusoOption, cards: tuple[Card, ...]) -> AccusoDeclared:
    return AccusoDeclared(seat=seat, kind=option.kind, cards=cards, points=option.points,
                          matta_value=option.matta_value)


def auto_accuso(state: CirullaState, seat: int) -> AccusoDeclared | None:
    """The accuso `seat`'s hand allows now, if it has one and none was made with it."""
    if state.declared[seat]:
        return None
    hand = state.hands[seat]
    option = best_accuso(player_accusi(hand, state.ruleset))
    return None if option is None else _accuso_event(seat, option, hand)


# ---- evolve -----------------------------------------------------------------------------------

def evolve(state: CirullaState, event: PlayEvent) -> CirullaState:
    if isinstance(event, CardPlayed):
        return apply_play(state, event.card, event.capture)
    if isinstance(event, SmazzataDealt):
        return _dealt(state, event)
    if isinstance(event, AccusoDeclared):
        return _accuso(state, event)
    if isinstance(event, HandDealt):
        return _hand_dealt(state, event)
    if isinstance(event, DealAnnulled):
        return state._replace(dealt=False)
    if isinstance(event, SmazzataEnded):
        return _ended(state, event)
    raise TypeError(f"Cirulla does not fold {type(event).__name__}")


def _dealt(state: CirullaState, event: SmazzataDealt) -> CirullaState:
    seating = state.seating
    # The matta is dealt as a plain 7, so every table value is the card's own.
    table = tuple(sorted(event.table, key=_PLAIN_TABLE_KEY.__getitem__))
    return _smazzata_dealt(state, number=event.number, dealer=event.dealer, hands=event.hands,
                           table=table, table_values=tuple([c.value for c in table]),
                           stock=event.stock, to_move=seating.first_after_dealer(event.dealer),
                           declared=(False,) * seating.players)


def _hand_dealt(state: CirullaState, event: HandDealt) -> CirullaState:
    return _hands_from_stock(state, hands=event.hands,
                             stock=state.stock[sum(map(len, event.hands)):],
                             declared=(False,) * len(event.hands))


def _accuso(state: CirullaState, event: AccusoDeclared) -> CirullaState:
    record = AccusoRecord(event.seat, event.kind, event.cards, event.points, event.matta_value)
    accusi = (*state.accusi, record)
    if event.kind in DEALER_KINDS:
        side = state.seating.side_of(event.seat)
        return _table_taken_by_dealer(state, accusi=accusi, last_capture_side=side,
                                      captured=_add_to_side(state.captured, side, state.table))
    declared = list(state.declared)
    declared[event.seat] = True
    matta_value = event.matta_value if MATTA in event.cards else state.matta_value
    return _hand_declared(state, accusi=accusi, declared=tuple(declared),
                          matta_value=matta_value)


def _ended(state: CirullaState, event: SmazzataEnded) -> CirullaState:
    if event.leftover_to is not None and state.table:
        return _over_with_leftover(state, captured=_add_to_side(state.captured,
                                                                 event.leftover_to, state.table))
    return _over(state)


# The state after each kind of event (msgspec's `replace`, in C): the fields listed change, the
# constants are set, every other field is carried over from `state`. One of _discarded, _took
# and _swept runs per play of every replay and simulation (_played instead while the matta
# counts other than 7); the others a few times per smazzata.

def _smazzata_dealt(state: CirullaState, *, number: int, dealer: int,
                    hands: tuple[tuple[Card, ...], ...], table: tuple[Card, ...],
                    table_values: tuple[int, ...], stock: tuple[Card, ...], to_move: int,
                    declared: tuple[bool, ...]) -> CirullaState:
    return replace(state, number=number, dealer=dealer, hands=hands, table=table,
                   table_values=table_values, stock=stock, to_move=to_move, declared=declared,
                   captured=((), ()), scope=(0, 0), accusi=(), plays=0, matta_value=None,
                   matta_until_mano=-1, last_capture_side=None, dealt=True, finished=False)


def _hands_from_stock(state: CirullaState, *, hands: tuple[tuple[Card, ...], ...],
                      stock: tuple[Card, ...], declared: tuple[bool, ...]) -> CirullaState:
    return replace(state, hands=hands, stock=stock, declared=declared)


def _table_taken_by_dealer(state: CirullaState, *, accusi: tuple[AccusoRecord, ...],
                           captured: tuple[tuple[Card, ...], tuple[Card, ...]],
                           last_capture_side: int) -> CirullaState:
    return replace(state, accusi=accusi, captured=captured, last_capture_side=last_capture_side,
                   table=(), table_values=())


def _hand_declared(state: CirullaState, *, accusi: tuple[AccusoRecord, ...],
                   declared: tuple[bool, ...], matta_value: int | None) -> CirullaState:
    return replace(state, accusi=accusi, declared=declared, matta_value=matta_value)


def _over(state: CirullaState) -> CirullaState:
    return replace(state, finished=True)


def _over_with_leftover(state: CirullaState, *,
                        captured: tuple[tuple[Card, ...], tuple[Card, ...]]) -> CirullaState:
    return replace(state, captured=captured, table=(), table_values=(), finished=True)


def _discarded(state: CirullaState, *, hands: tuple[tuple[Card, ...], ...],
               table: tuple[Card, ...], table_values: tuple[int, ...], to_move: int,
               plays: int) -> CirullaState:
    return replace(state, hands=hands, table=table, table_values=table_values, to_move=to_move,
                   plays=plays, dealt=True, finished=False)


def _took(state: CirullaState, *, captured: tuple[tuple[Card, ...], tuple[Card, ...]],
          last_capture_side: int, hands: tuple[tuple[Card, ...], ...], table: tuple[Card, ...],
          table_values: tuple[int, ...], to_move: int, plays: int) -> CirullaState:
    return replace(state, captured=captured, last_capture_side=last_capture_side, hands=hands,
                   table=table, table_values=table_values, to_move=to_move, plays=plays,
                   dealt=True, finished=False)


def _swept(state: CirullaState, *, scope: tuple[int, int],
           captured: tuple[tuple[Card, ...], tuple[Card, ...]], last_capture_side: int,
           hands: tuple[tuple[Card, ...], ...], to_move: int, plays: int) -> CirullaState:
    return replace(state, scope=scope, captured=captured, last_capture_side=last_capture_side,
                   hands=hands, to_move=to_move, plays=plays, table=(), table_values=(),
                   dealt=True, finished=False)


def _played(state: CirullaState, *, matta_until_mano: int, matta_value: int | None,
            scope: tuple[int, int], captured: tuple[tuple[Card, ...], tuple[Card, ...]],
            last_capture_side: int | None, hands: tuple[tuple[Card, ...], ...],
            table: tuple[Card, ...], table_values: tuple[int, ...], to_move: int,
            plays: int) -> CirullaState:
    return replace(state, matta_until_mano=matta_until_mano, matta_value=matta_value,
                   scope=scope, captured=captured, last_capture_side=last_capture_side,
                   hands=hands, table=table, table_values=table_values, to_move=to_move,
                   plays=plays, dealt=True, finished=False)


def _add_to_side(captured: tuple[tuple[Card, ...], tuple[Card, ...]], side: int,
                 cards: tuple[Card, ...]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    if side == 0:
        return (captured[0] + cards, captured[1])
    return (captured[0], captured[1] + cards)


def hand_without(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """`hand` less the `card` played from it. A hand holds at most three cards: the played one
    is cut without searching for it."""
    if hand[0] is card:
        return hand[1:]
    if hand[-1] is card:
        return hand[:-1]
    return (hand[0], hand[2]) if len(hand) == 3 else tuple(c for c in hand if c is not card)


def apply_play(state: CirullaState, card: Card, capture: tuple[Card, ...]) -> CirullaState:
    """The state after the seat to move plays `card` taking `capture` (already checked legal).

    Whether it is a scopa follows from the position (is_scopa); CardPlayed records it too.
    This runs once per play of every replay and simulation: it reads only the fields the play
    needs (each read of a field costs about as much as a line of the rules here), and the
    common plays, with the matta a plain 7, build their state with the builder that carries
    over the most fields unread (_discarded, _took, _swept).
    """
    seat = state.to_move
    hands = state.hands
    hand = hand_without(hands[seat], card)
    if len(hands) == 2:
        hands = (hand, hands[1]) if seat == 0 else (hands[0], hand)
        to_move = 1 - seat   # two seats alternate whichever the direction of play
    else:
        hands = hands[:seat] + (hand,) + hands[seat + 1:]
        to_move = state.seating.after[seat]
    table = state.table
    plays = state.plays
    matta_value = state.matta_value
    if not capture:
        value = matta_value if card is MATTA and matta_value else _VALUE[card]
        values = state.table_values
        at = bisect_left(values, value)
        while at < len(values) and values[at] == value and table[at] < card:
            at += 1
        values = values[:at] + (value,) + values[at:]
        table = table[:at] + (card,) + table[at:]
        if matta_value is None:
            return _discarded(state, hands=hands, table=table, table_values=values,
                              to_move=to_move, plays=plays + 1)
        return _matta_valued(state, card, capture, hands=hands, table=table, table_values=values,
                             scope=state.scope, captured=state.captured,
                             last_capture_side=state.last_capture_side)
    side = seat & 1
    captured = state.captured
    pile = captured[side] + capture + (card,)
    captured = (pile, captured[1]) if side == 0 else (captured[0], pile)
    if len(capture) == len(table):
        scope = state.scope
        if plays != _LAST_PLAY:
            scope = (scope[0] + 1, scope[1]) if side == 0 else (scope[0], scope[1] + 1)
        if matta_value is None:
            return _swept(state, scope=scope, captured=captured, last_capture_side=side,
                          hands=hands, to_move=to_move, plays=plays + 1)
        return _matta_valued(state, card, capture, hands=hands, table=(), table_values=(),
                             scope=scope, captured=captured, last_capture_side=side)
    # Cut the taken cards out by position: one `index` per taken card costs a third of testing
    # every table card against the capture (a call of capture.__contains__ per table card).
    if len(capture) == 1:
        at = table.index(capture[0])
        values = state.table_values
        values = values[:at] + values[at + 1:]
        table = table[:at] + table[at + 1:]
    else:
        kept, kept_values = list(table), list(state.table_values)
        for taken_card in capture:
            at = kept.index(taken_card)
            del kept[at], kept_values[at]
        table, values = tuple(kept), tuple(kept_values)
    if matta_value is None:
        return _took(state, captured=captured, last_capture_side=side, hands=hands, table=table,
                     table_values=values, to_move=to_move, plays=plays + 1)
    return _matta_valued(state, card, capture, hands=hands, table=table, table_values=values,
                         scope=state.scope, captured=captured, last_capture_side=side)


def _matta_valued(state: CirullaState, card: Card, capture: tuple[Card, ...], *,
                  hands: tuple[tuple[Card, ...], ...], table: tuple[Card, ...],
                  table_values: tuple[int, ...], scope: tuple[int, int],
                  captured: tuple[tuple[Card, ...], tuple[Card, ...]],
                  last_capture_side: int | None) -> CirullaState:
    """The end of a play made while the matta counts other than 7 (an accuso gave it a value).

    Taken, or taking, it is a plain 7 again; laid on the table it keeps its value to the end of
    the mano, or of the smazzata (C18); "alla mano successiva torna a valere 7".
    """
    matta_value = state.matta_value
    matta_until = state.matta_until_mano
    seating = state.seating
    plays = state.plays
    if capture:
        if card is MATTA or MATTA in capture:
            matta_value = None
    elif card is MATTA:
        keep_value = state.ruleset.matta_durata is MattaDurata.SMAZZATA
        matta_until = _FOREVER if keep_value else plays // seating.players
    plays += 1
    if matta_value is not None and plays // seating.players > matta_until and MATTA in table:
        # The next mano starts with this play.
        matta_value, matta_until = None, -1
        table = tuple(sorted(table, key=_PLAIN_TABLE_KEY.__getitem__))
        table_values = tuple([c.value for c in table])
    return _played(state, matta_until_mano=matta_until, matta_value=matta_value, scope=scope,
                   captured=captured, last_capture_side=last_capture_side, hands=hands,
                   table=table, table_values=table_values, to_move=seating.after[state.to_move],
                   plays=plays)


_PLAIN_TABLE_KEY = tuple(c.value * 64 + c for c in DECK)
"""table_order's key of each card at its own value (the matta a plain 7), by deck index."""


# ---- after a play -----------------------------------------------------------------------------

def follow_up(state: CirullaState) -> PlayEvent | None:
    """What happens by itself after a play: a new hand from the stock, or the end."""
    if any(state.hands):
        return None
    if state.stock:
        hands, _ = next_hands(state.stock, state.seating, state.dealer)
        return HandDealt(hands=hands)
    return end_event(state)


def turn_starts(state: CirullaState) -> AccusoDeclared | None:
    """C8 'automatico': 'il sistema effettua l'accuso automaticamente' for the seat whose turn
    begins with three cards, so the plays it is offered already count the matta's new value."""
    ruleset = state.ruleset
    if ruleset.accuso is not _AUTOMATICO or state.finished:
        return None
    seat = state.to_move
    hand = state.hands[seat]
    if len(hand) != 3 or state.declared[seat]:
        return None
    options = player_accusi(hand, ruleset)
    if not options:   # most hands: no call to choose among none
        return None
    option = best_accuso(options)
    return None if option is None else _accuso_event(seat, option, hand)


def after_play(state: CirullaState) -> tuple[tuple[PlayEvent, ...], CirullaState]:
    """Everything that follows a play by itself, and the state after it."""
    events: list[PlayEvent] = []
    follow = follow_up(state)
    if follow is not None:
        events.append(follow)
        state = evolve(state, follow)
    accuso = turn_starts(state)
    if accuso is not None:
        events.append(accuso)
        state = evolve(state, accuso)
    return tuple(events), state


def end_event(state: CirullaState) -> SmazzataEnded:
    """C9: the cards left on the table go to the side of the last capture; not a scopa."""
    leftover_to = state.last_capture_side if state.table else None
    piles = state.captured
    if leftover_to is not None:
        piles = _add_to_side(piles, leftover_to, state.table)
    breakdown = smazzata_score(state, piles)
    return SmazzataEnded(number=state.number, scores=breakdown.totals, breakdown=breakdown.rows,
                         leftover_to=leftover_to)


def cappotto_made(state: CirullaState) -> int | None:
    """The side whose pile holds all ten denari now, if one does (000: "prendere tutte le carte
    di denari"); UNKNOWN cards of a transcribed pile are no denari."""
    for side, pile in enumerate(state.captured):
        if len(pile) >= 10 and sum(1 for c in pile if c is not UNKNOWN
                                   and c.suit is Suit.DENARI) == 10:
            return side
    return None


def cut_short(state: CirullaState) -> SmazzataEnded:
    """C11 with `cappotto_ends` (000: "effettua un cappotto e la partita termina
    immediatamente"): the smazzata ends after the play that completed the cappotto.

    Nothing more is played: the cards still in hand and in the stock are not played
    (SmazzataOutcome.unplayed, `unplayed`), the cards on the table go to nobody (C9 is the rule
    of the smazzata's last play, which never comes: `leftover_to` None), and the score is the
    piles, scope and accusi as they are at that play.
    """
    breakdown = smazzata_score(state)
    return SmazzataEnded(number=state.number, scores=breakdown.totals, breakdown=breakdown.rows,
                         leftover_to=None)


def unplayed(state: CirullaState) -> tuple[Card, ...]:
    """The cards not played yet: each seat's hand (by seat), then the stock top first."""
    return (*(card for hand in state.hands for card in hand), *state.stock)


def smazzata_score(state: CirullaState,
                   piles: tuple[tuple[Card, ...], tuple[Card, ...]] | None = None) -> Breakdown:
    accusi = [0, 0]
    for record in state.accusi:
        accusi[state.seating.side_of(record.seat)] += record.points
    return score(piles if piles is not None else state.captured, state.scope,
                 (accusi[0], accusi[1]), state.ruleset)


def is_scopa(state: CirullaState, capture: tuple[Card, ...]) -> bool:
    """'Se un giocatore prende tutte le carte in tavola ... fa scopa ad eccezione che ciò avvenga
    nell'ultima giocata dell'ultima mano di una smazzata.'"""
    return bool(capture) and len(capture) == len(state.table) and not state.is_last_play


def play_events(state: CirullaState, play: Play) -> tuple[CardPlayed, CirullaState]:
    """The CardPlayed event of an already-checked play and the state after it."""
    card, capture = play
    scopa = is_scopa(state, capture)
    matta_value = state.matta_value if card is MATTA else None
    event = CardPlayed(seat=state.to_move, card=card, capture=taken(play),
                       matta_value=matta_value, scopa=scopa)
    return event, apply_play(state, card, capture)

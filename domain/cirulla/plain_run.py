"""Plain transcribed Cirulla plays taken one after the other on the position's own fields.

Between two hands dealt from the stock a hand record is mostly plain plays: the seat to move
plays a card of its hand as the rules allow, the matta a plain 7, `presa_obbligata=carta`, and
nothing follows the play by itself (no new hand, no end, no automatic accuso). `advance` takes
each such play on a new CirullaState, reading the position again every time; building those
states and the calls between them were about a third of validating a record
(docs/benchmarks.md, issue 12). Here the fields that plays change are kept as they are, each
play checked and applied on them, and the state is built once, after the last play taken.

`plain_plays` takes the plays from `start` on while each is such a play, and stops before the
first that is not (the caller takes that one the usual way, which says what it is). Every play
it takes is what `advance` would give: the one CardPlayed and the state after it
(tests/domain/cirulla/test_plain_run.py).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from domain.building import builder
from domain.cards import DECK, UNKNOWN, Card
from domain.cirulla.accusi import player_accusi
from domain.cirulla.captures import capture_getters
from domain.cirulla.engine import hand_without
from domain.cirulla.ruleset import Accuso, PresaObbligata
from domain.cirulla.state import PLAYS_PER_SMAZZATA, CirullaState
from domain.events import CardPlayed
from domain.replacing import replacer

PlainMove = tuple[int | None, Card, tuple[Card, ...], int | None]
"""A play as written: the seat (None: the seat to move), the card, its capture (one card, or
several in deck order), the matta's value."""

# Looked up once: an enum member read off its class goes through the enum's metaclass.
_PRESA_MANO = PresaObbligata.MANO
_AUTOMATICO = Accuso.AUTOMATICO
_OBBLIGATORIO = Accuso.OBBLIGATORIO
_VALUE = tuple(card.value for card in DECK)
_LAST_PLAY = PLAYS_PER_SMAZZATA - 1
_HAND_SIZE = 3
_card_played = builder(CardPlayed)   # CardPlayed(...), at half the cost (domain/building.py)


def plain_plays(state: CirullaState, moves: Sequence[PlainMove],
                start: int) -> tuple[list[CardPlayed], CirullaState]:
    """The plain plays of `moves` from `start` on, each the seat to move's, and the state after
    the last one taken (`state` itself when none is)."""
    ruleset = state.ruleset
    if state.matta_value is not None or ruleset.presa_obbligata is _PRESA_MANO \
            or not state.dealt or state.finished:
        return [], state
    automatic = ruleset.accuso is _AUTOMATICO
    knocking = ruleset.accuso is _OBBLIGATORIO
    asso, after, declared = ruleset.asso_su_asso, state.seating.after, state.declared
    hands, table, values = state.hands, state.table, state.table_values
    captured, scope, side_last = state.captured, state.scope, state.last_capture_side
    seat, plays = state.to_move, state.plays
    two = len(hands) == 2
    taken: list[CardPlayed] = []
    for index in range(start, len(moves)):
        written_seat, card, capture, matta_value = moves[index]
        hand = hands[seat]
        if (written_seat is not None and written_seat != seat) or matta_value is not None \
                or card is UNKNOWN or card not in hand \
                or (knocking and len(hand) == _HAND_SIZE and not declared[seat]
                    and (UNKNOWN in hand or player_accusi(hand, ruleset))):
            break   # C8 accuso obbligatorio: `check_play` says whether it was declared
        getters = capture_getters(values, asso)[_VALUE[card]]
        if capture:
            if len(capture) > 1:
                capture = tuple(sorted(capture))
            for get in getters:
                allowed = get(table)
                if (allowed if len(allowed) == 1 else tuple(sorted(allowed))) == capture:
                    break
            else:
                break
        elif getters:
            break
        # engine.apply_play, the matta a plain 7.
        hand = hand_without(hand, card)
        new_hands: tuple[tuple[Card, ...], ...]
        if two:
            new_hands = (hand, hands[1]) if seat == 0 else (hands[0], hand)
            mover = 1 - seat
        else:
            new_hands = hands[:seat] + (hand,) + hands[seat + 1:]
            mover = after[seat]
        if not any(new_hands):
            break   # a new hand from the stock, or the end: `advance`'s to take
        following = new_hands[mover]
        if automatic and len(following) == _HAND_SIZE and not declared[mover] \
                and (UNKNOWN in following or player_accusi(following, ruleset)):
            break   # the mover's turn opens with an automatic accuso, or cannot tell
        scopa = False
        if not capture:
            value = _VALUE[card]
            at = bisect_left(values, value)
            while at < len(values) and values[at] == value and table[at] < card:
                at += 1
            values = values[:at] + (value,) + values[at:]
            table = table[:at] + (card,) + table[at:]
        else:
            side = seat & 1
            pile = captured[side] + capture + (card,)
            captured = (pile, captured[1]) if side == 0 else (captured[0], pile)
            side_last = side
            if len(capture) == len(table):
                scopa = plays != _LAST_PLAY
                if scopa:
                    scope = (scope[0] + 1, scope[1]) if side == 0 else (scope[0], scope[1] + 1)
                table, values = (), ()
            elif len(capture) == 1:
                at = table.index(capture[0])
                values = values[:at] + values[at + 1:]
                table = table[:at] + table[at + 1:]
            else:
                kept, kept_values = list(table), list(values)
                for taken_card in capture:
                    at = kept.index(taken_card)
                    del kept[at], kept_values[at]
                table, values = tuple(kept), tuple(kept_values)
        taken.append(_card_played(seat, card, capture, None, scopa))
        hands, seat, plays = new_hands, mover, plays + 1
    if not taken:
        return taken, state
    return taken, _played(state, scope=scope, captured=captured, last_capture_side=side_last,
                          hands=hands, table=table, table_values=values, to_move=seat,
                          plays=plays)


@replacer(CirullaState)
def _played(state: CirullaState, *, scope: tuple[int, int],
            captured: tuple[tuple[Card, ...], tuple[Card, ...]], last_capture_side: int | None,
            hands: tuple[tuple[Card, ...], ...], table: tuple[Card, ...],
            table_values: tuple[int, ...], to_move: int, plays: int) -> CirullaState:
    raise NotImplementedError

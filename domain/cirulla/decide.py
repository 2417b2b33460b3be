"""Checking a command against the rules of Cirulla and turning it into events.

Every refusal is a RuleViolation naming the rule it breaks, so an arbiter reads why.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.cards import MATTA, Card
from domain.cirulla.accusi import player_accusi
from domain.cirulla.captures import card_captures, legal_plays
from domain.cirulla.engine import (
    after_play,
    apply_play,
    auto_accuso,
    deal_events,
    evolve,
    is_scopa,
)
from domain.cirulla.legal import legal_commands
from domain.cirulla.observe import observe
from domain.cirulla.ruleset import Accuso, PresaObbligata, Ruleset
from domain.cirulla.state import CirullaState, Play, empty_state, notation
from domain.events import AccusoDeclared, CardPlayed, PlayEvent
from domain.game import Command, DeclareAccuso, PlayCard, RuleViolation
from domain.seating import Seating
from domain.shuffle import Seed
from domain.text import Said, say
from domain.viewing import Observation, Viewer, Visibility


def decide(state: CirullaState, command: Command) -> tuple[PlayEvent, ...]:
    return decide_folded(state, command)[0]


def decide_folded(state: CirullaState,
                  command: Command) -> tuple[tuple[PlayEvent, ...], CirullaState]:
    """The events of `command` and the state after them, the one the play computed."""
    _check_turn(state, command.seat)
    if isinstance(command, DeclareAccuso):
        declared = _declare(state, command)
        return (declared,), evolve(state, declared)
    return _play(state, command)


def _check_turn(state: CirullaState, seat: int) -> None:
    if not state.dealt:
        raise RuleViolation("deal", say("no smazzata has been dealt"))
    if state.finished:
        raise RuleViolation("end of smazzata", say("the smazzata is over"))
    if seat != state.to_move:
        raise RuleViolation("turn order", say(
            "seat {seat} played out of turn: seat {to_move} is to play ('la mano passa al "
            "giocatore successivo in senso antiorario')", seat=seat, to_move=state.to_move))


def _declare(state: CirullaState, command: DeclareAccuso) -> AccusoDeclared:
    hand = state.hands[command.seat]
    if len(hand) != 3 or state.declared[command.seat]:
        raise RuleViolation("C17 accuso", say("an accuso is declared with three cards in "
                                              "hand, before the first play of that hand, once"))
    options = {o.kind: o for o in player_accusi(hand, state.ruleset)}
    option = options.get(command.kind)
    if option is None:
        cards = " ".join(c.code for c in hand)
        if not options:
            raise RuleViolation("accusi", say("hand {cards} does not make a {kind} (it makes: "
                                              "none)", cards=cards, kind=command.kind))
        raise RuleViolation("accusi", say("hand {cards} does not make a {kind} (it makes: "
                                          "{have})", cards=cards, kind=command.kind,
                                          have=", ".join(options)))
    if command.matta_value is not None and command.matta_value != option.matta_value:
        raise RuleViolation("C14 matta", say("the matta takes value {value} in a {kind}, not "
                                             "{given}", value=option.matta_value,
                                             kind=command.kind, given=command.matta_value))
    return AccusoDeclared(seat=command.seat, kind=option.kind, cards=hand,
                          points=option.points, matta_value=option.matta_value)


def _play(state: CirullaState,
          command: PlayCard) -> tuple[tuple[PlayEvent, ...], CirullaState]:
    if len(state.hands[command.seat]) == 3 and state.ruleset.accuso is Accuso.OBBLIGATORIO:
        pending = auto_accuso(state, command.seat)
        if pending is not None:
            raise RuleViolation("C8 accuso obbligatorio", say(
                "seat {seat} must declare the {kind} before playing", seat=command.seat,
                kind=pending.kind))
    play = _checked_play(state, command)
    card, capture = play
    scopa = is_scopa(state, capture)
    matta_value = state.matta_value if card is MATTA else None
    played = CardPlayed(seat=command.seat, card=card, capture=capture,
                        matta_value=matta_value, scopa=scopa)
    following, after = after_play(apply_play(state, card, capture))
    return (played, *following), after


def _checked_play(state: CirullaState, command: PlayCard) -> Play:
    if command.card not in state.hands[command.seat]:
        raise RuleViolation("hand", say("{card} is not in the hand of seat {seat}",
                                        card=command.card.code, seat=command.seat))
    if command.card is MATTA and command.matta_value is not None \
            and command.matta_value != state.value_of(MATTA):
        raise RuleViolation("C14 matta", say("the matta is worth {value} now, not {given}",
                                             value=state.value_of(MATTA),
                                             given=command.matta_value))
    capture = command.capture
    wanted = capture if len(capture) < 2 else tuple(sorted(capture))
    if _allowed(state, command.card, wanted):
        return (command.card, wanted)
    legal = [p for p in legal_plays(state) if p[0] is command.card]
    if not wanted:
        rule = "C16 presa obbligata"
    else:
        rule = "asso (regola d)" if state.value_of(command.card) == 1 else "prese (regole a-c)"
    raise RuleViolation(rule, _refusal(command, wanted, legal))


def _allowed(state: CirullaState, card: Card, wanted: tuple[Card, ...]) -> bool:
    """Whether (card, wanted) is among `legal_plays` (captures in deck order), asking the table
    only for the captures of the card played: a card that takes must take one of its captures;
    one that takes nothing is discarded, unless under presa obbligata di mano another card of
    the hand takes (C16)."""
    captures = card_captures(state, card)
    if captures:
        return any(c == wanted if len(c) < 2 else tuple(sorted(c)) == wanted for c in captures)
    if wanted:
        return False
    return state.ruleset.presa_obbligata is not _PRESA_MANO \
        or not any(card_captures(state, other) for other in state.hands[state.to_move])


_PRESA_MANO = PresaObbligata.MANO   # an enum member read off its class costs a lookup a play


def _refusal(command: PlayCard, wanted: tuple[object, ...], legal: list[Play]) -> Said:
    card = command.card.code
    options = "; ".join(notation(p) for p in legal)
    if not wanted and not legal:
        return say("{card} cannot discard: its legal plays are none (another card must "
                   "capture)", card=card)
    if not wanted:
        return say("{card} cannot discard: its legal plays are {options}", card=card,
                   options=options)
    capture = " ".join(str(c) for c in wanted)
    if not legal:
        return say("{card} cannot capture {capture}: its legal plays are none (another card "
                   "must capture)", card=card, capture=capture)
    return say("{card} cannot capture {capture}: its legal plays are {options}", card=card,
               capture=capture, options=options)


class CirullaEngine:
    """The GameEngine of Cirulla (domain/game.py)."""

    name = "cirulla"

    def deal(self, ruleset: Ruleset, seating: Seating, dealer: int, number: int,
             seed: Seed) -> tuple[PlayEvent, ...]:
        return deal_events(ruleset, seating, dealer, number, seed)

    def initial(self, ruleset: Ruleset, seating: Seating) -> CirullaState:
        return empty_state(ruleset, seating)

    def decide(self, state: CirullaState, command: Command) -> tuple[PlayEvent, ...]:
        return decide_folded(state, command)[0]

    def decide_folded(self, state: CirullaState,
                      command: Command) -> tuple[tuple[PlayEvent, ...], CirullaState]:
        return decide_folded(state, command)

    def evolve(self, state: CirullaState, event: PlayEvent) -> CirullaState:
        return evolve(state, event)

    def is_finished(self, state: CirullaState) -> bool:
        return state.finished

    def to_move(self, state: CirullaState) -> int | None:
        return None if state.finished or not state.dealt else state.to_move

    def legal_commands(self, state: CirullaState) -> tuple[Command, ...]:
        return legal_commands(state)

    def observe(self, state: CirullaState, viewer: Viewer, visibility: Visibility,
                plays: Sequence[CardPlayed]) -> Observation:
        return observe(state, viewer, visibility, plays)


ENGINE = CirullaEngine()

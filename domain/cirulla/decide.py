"""Checking a command against the rules of Cirulla and turning it into events.

Every refusal is a RuleViolation naming the rule it breaks, so an arbiter reads why.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.cards import MATTA
from domain.cirulla.accusi import player_accusi
from domain.cirulla.captures import legal_plays
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
from domain.cirulla.ruleset import Accuso, Ruleset
from domain.cirulla.state import CirullaState, Play, empty_state, notation, taken
from domain.events import AccusoDeclared, CardPlayed, PlayEvent
from domain.game import Command, DeclareAccuso, PlayCard, RuleViolation
from domain.seating import Seating
from domain.shuffle import Seed
from domain.viewing import Observation, Viewer, Visibility


def decide(state: CirullaState, command: Command) -> tuple[PlayEvent, ...]:
    _check_turn(state, command.seat)
    if isinstance(command, DeclareAccuso):
        return (_declare(state, command),)
    return _play(state, command)


def _check_turn(state: CirullaState, seat: int) -> None:
    if not state.dealt:
        raise RuleViolation("deal", "no smazzata has been dealt")
    if state.finished:
        raise RuleViolation("end of smazzata", "the smazzata is over")
    if seat != state.to_move:
        raise RuleViolation(
            "turn order", f"seat {seat} played out of turn: seat {state.to_move} is to play "
            "('la mano passa al giocatore successivo in senso antiorario')")


def _declare(state: CirullaState, command: DeclareAccuso) -> AccusoDeclared:
    hand = state.hands[command.seat]
    if len(hand) != 3 or state.declared[command.seat]:
        raise RuleViolation("C17 accuso", "an accuso is declared with three cards in hand, "
                            "before the first play of that hand, once")
    options = {o.kind: o for o in player_accusi(hand, state.ruleset)}
    option = options.get(command.kind)
    if option is None:
        have = ", ".join(options) or "none"
        raise RuleViolation("accusi", f"hand {' '.join(c.code for c in hand)} does not make a "
                            f"{command.kind} (it makes: {have})")
    if command.matta_value is not None and command.matta_value != option.matta_value:
        raise RuleViolation("C14 matta", f"the matta takes value {option.matta_value} in a "
                            f"{command.kind}, not {command.matta_value}")
    return AccusoDeclared(seat=command.seat, kind=option.kind, cards=hand,
                          points=option.points, matta_value=option.matta_value)


def _play(state: CirullaState, command: PlayCard) -> tuple[PlayEvent, ...]:
    if len(state.hands[command.seat]) == 3 and state.ruleset.accuso is Accuso.OBBLIGATORIO:
        pending = auto_accuso(state, command.seat)
        if pending is not None:
            raise RuleViolation("C8 accuso obbligatorio", f"seat {command.seat} must declare "
                                f"the {pending.kind} before playing")
    play = _checked_play(state, command)
    card, capture = play
    scopa = is_scopa(state, capture)
    matta_value = state.matta_value if card is MATTA else None
    played = CardPlayed(seat=command.seat, card=card, capture=capture,
                        matta_value=matta_value, scopa=scopa)
    following, _ = after_play(apply_play(state, card, capture))
    return (played, *following)


def _checked_play(state: CirullaState, command: PlayCard) -> Play:
    if command.card not in state.hands[command.seat]:
        raise RuleViolation("hand", f"{command.card.code} is not in the hand of seat "
                            f"{command.seat}")
    if command.card is MATTA and command.matta_value is not None \
            and command.matta_value != state.value_of(MATTA):
        raise RuleViolation("C14 matta", f"the matta is worth {state.value_of(MATTA)} now, "
                            f"not {command.matta_value}")
    wanted = tuple(sorted(command.capture))
    legal = [p for p in legal_plays(state) if p[0] is command.card]
    for play in legal:
        if taken(play) == wanted:
            return (play[0], wanted)
    if not wanted:
        rule = "C16 presa obbligata"
    else:
        rule = "asso (regola d)" if state.value_of(command.card) == 1 else "prese (regole a-c)"
    raise RuleViolation(rule, _refusal(command, wanted, legal))


def _refusal(command: PlayCard, wanted: tuple[object, ...], legal: list[Play]) -> str:
    options = "; ".join(notation(p) for p in legal) or "none (another card must capture)"
    what = "discard" if not wanted else f"capture {' '.join(str(c) for c in wanted)}"
    return f"{command.card.code} cannot {what}: its legal plays are {options}"


class CirullaEngine:
    """The GameEngine of Cirulla (domain/game.py)."""

    name = "cirulla"

    def deal(self, ruleset: Ruleset, seating: Seating, dealer: int, number: int,
             seed: Seed) -> tuple[PlayEvent, ...]:
        return deal_events(ruleset, seating, dealer, number, seed)

    def initial(self, ruleset: Ruleset, seating: Seating) -> CirullaState:
        return empty_state(ruleset, seating)

    def decide(self, state: CirullaState, command: Command) -> tuple[PlayEvent, ...]:
        return decide(state, command)

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

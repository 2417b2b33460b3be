"""Briscola as a GameEngine: the deal as an event, commands checked into events, events folded.

`decide` plays the card on the state (state.play) and reports what followed as events:
CardPlayed, then at the end of a mano TrickTaken and CardsDrawn, and SmazzataEnded at the end.
`evolve` folds a CardPlayed through the same `play`, so the trick, the draws and the end happen
there; the events that follow it are facts derived from it, and folding one checks it against
what `play` gave (a record whose TrickTaken names the wrong winner is refused, naming the rule).
The state after each event is that event's own, so a replay shows each step as it was: after
the CardPlayed that completes a mano the trick is on the table and nobody has drawn
(state.trick_complete), after the TrickTaken the trick is taken and still nobody has drawn
(state.trick_taken), after the CardsDrawn the hands are refilled and the winner leads.
"""

from __future__ import annotations

from msgspec import structs

from domain.briscola.legal import legal_commands
from domain.briscola.observe import observe
from domain.briscola.scoring import breakdown
from domain.briscola.state import (
    HAND_SIZE,
    BriscolaRules,
    BriscolaState,
    dealt_state,
    initial_state,
    is_over,
    play,
    trick_complete,
    trick_taken,
)
from domain.briscola.values import card_points
from domain.cards import DECK, Card
from domain.dealing import deal_round_robin
from domain.events import (
    CardPlayed,
    CardsDrawn,
    PlayEvent,
    SmazzataDealt,
    SmazzataEnded,
    TrickTaken,
)
from domain.game import Command, PlayCard, RuleViolation
from domain.seating import Seating
from domain.shuffle import Seed, commitment, shuffled_deck
from domain.text import say


def deal_event(seating: Seating, dealer: int, number: int, seed: Seed) -> SmazzataDealt:
    """004: 3 cards each from the dealer's right, the next card face up as the briscola."""
    seating.check_seat(dealer)
    hands, rest = deal_round_robin(shuffled_deck(seed, 0), seating, dealer, HAND_SIZE)
    return SmazzataDealt(number=number, dealer=dealer, attempt=0,
                         seed_commitment=commitment(seed), hands=hands, table=(),
                         stock=rest[1:], briscola=rest[0])


def decide(state: BriscolaState, command: Command) -> tuple[PlayEvent, ...]:
    return decide_folded(state, command)[0]


def decide_folded(state: BriscolaState,
                  command: Command) -> tuple[tuple[PlayEvent, ...], BriscolaState]:
    """The events of a play and the state after them: `play`'s, which the TrickTaken and
    CardsDrawn of a completed mano fold back to."""
    if not isinstance(command, PlayCard):
        raise RuleViolation("giocata", say("Briscola has no {command}: a command plays one "
                                           "card", command=type(command).__name__))
    if command.capture or command.matta_value is not None:
        raise RuleViolation("giocata", say("a Briscola play names only the card: no capture, "
                                           "no matta"))
    if state.turn is not None and command.seat != state.turn:
        raise RuleViolation("turno", say("seat {seat} played out of turn: seat {to_move} is "
                                         "to play ('proseguendo in senso antiorario')",
                                         seat=command.seat, to_move=state.turn))
    after = play(state, command.card)
    return events_of_play(state, command.card, after), after


def events_of_play(before: BriscolaState, card: Card,
                   after: BriscolaState) -> tuple[PlayEvent, ...]:
    """The events of `card` played on `before`, which gave `after`."""
    events: list[PlayEvent] = [CardPlayed(seat=before.turn if before.turn is not None else -1,
                                          card=card)]
    if after.table:
        return tuple(events)
    trick = (*before.table, card)
    events.append(TrickTaken(seat=after.leader, cards=trick, points=card_points(trick)))
    drawn = len(before.stock) - len(after.stock)
    if drawn:
        order = after.setup.rounds[after.leader]
        events.append(CardsDrawn(draws=tuple(zip(order, before.stock[:drawn], strict=True))))
    if is_over(after):
        events.append(smazzata_ended(after))
    return tuple(events)


def smazzata_ended(state: BriscolaState) -> SmazzataEnded:
    return SmazzataEnded(number=state.setup.number, scores=state.points,
                         breakdown=breakdown(state))


def evolve(state: BriscolaState, event: PlayEvent) -> BriscolaState:
    if isinstance(event, SmazzataDealt):
        return _fold_deal(state, event)
    if isinstance(event, CardPlayed):
        if event.capture or event.matta_value is not None or event.scopa:
            raise RuleViolation("giocata", say("a Briscola play captures nothing: {event}",
                                               event=event))
        if state.resolved is not None:
            raise RuleViolation("presa", say("{event} comes before the TrickTaken and "
                                             "CardsDrawn of the mano just completed",
                                             event=event))
        if state.turn is not None and event.seat != state.turn:
            raise RuleViolation("turno", say("seat {seat} played out of turn: seat {to_move} "
                                             "was to play", seat=event.seat,
                                             to_move=state.turn))
        after = play(state, event.card)
        return after if after.table else trick_complete(state, event.card, after)
    if isinstance(event, TrickTaken):
        return _trick_taken(state, event)
    if isinstance(event, CardsDrawn):
        return _drawn(state, event)
    if isinstance(event, SmazzataEnded):
        # The record adds the outcome (domain/record/outcomes.py); the play gives the rest.
        if not is_over(state) or structs.replace(event, outcome=None) != smazzata_ended(state):
            if is_over(state):
                raise RuleViolation("fine smazzata", say(
                    "{event} does not match the play: expected {expected}", event=event,
                    expected=smazzata_ended(state)))
            raise RuleViolation("fine smazzata", say(
                "{event} does not match the play: expected more play", event=event))
    else:
        raise RuleViolation("evento", say("{event} is not a Briscola event",
                                          event=type(event).__name__))
    return state


def _fold_deal(state: BriscolaState, event: SmazzataDealt) -> BriscolaState:
    setup = state.setup
    if setup.dealt:
        raise RuleViolation("distribuzione", say("smazzata {number} is already dealt",
                                                 number=setup.number))
    seating = setup.seating
    seating.check_seat(event.dealer)
    if event.briscola is None or event.table:
        raise RuleViolation("distribuzione", say("a Briscola deal has a briscola card and no "
                                                 "table"))
    if len(event.hands) != seating.players or any(len(h) != HAND_SIZE for h in event.hands):
        raise RuleViolation("distribuzione", say(
            "each of the {players} seats gets {size} cards: got {sizes}",
            players=seating.players, size=HAND_SIZE, sizes=[len(h) for h in event.hands]))
    cards = [c for hand in event.hands for c in hand] + [*event.stock, event.briscola]
    if len(cards) != len(DECK) or len(set(cards)) != len(DECK):
        raise RuleViolation("distribuzione", say(
            "a deal holds the 40 cards once each: got {count} cards, {different} different",
            count=len(cards), different=len(set(cards))))
    return dealt_state(setup.rules, seating, event.number, event.dealer, event.hands,
                       event.briscola, event.stock)


def _trick_taken(state: BriscolaState, event: TrickTaken) -> BriscolaState:
    """The trick on the table taken: checked against what `play` gave."""
    if state.resolved is None or not state.table:
        raise RuleViolation("presa", say("{event}: no mano is complete on the table",
                                         event=event))
    _check_trick(state.resolved, event)
    return trick_taken(state)


def _drawn(state: BriscolaState, event: CardsDrawn) -> BriscolaState:
    """The draws after the trick just taken: checked against what `play` gave."""
    if state.resolved is None or state.table:
        raise RuleViolation("pesca", say("{event}: no draw is due (the cards are drawn after "
                                         "a mano is taken, while the stock lasts)",
                                         event=event))
    _check_draws(state.resolved, event)
    return state.resolved


def _check_trick(state: BriscolaState, event: TrickTaken) -> None:
    side = state.setup.sides[event.seat] if 0 <= event.seat < state.setup.players else -1
    size = len(event.cards)
    if (state.table or event.seat != state.leader or side < 0
            or state.taken[side][-size:] != event.cards or size != state.setup.players
            or event.points != card_points(event.cards)):
        raise RuleViolation("presa", say(
            "{event} does not match the mano just played: seat {seat} took it ('si aggiudica "
            "la mano chi gioca la briscola più alta ...')", event=event, seat=state.leader))


def _check_draws(state: BriscolaState, event: CardsDrawn) -> None:
    order = state.setup.rounds[state.leader] if state.setup.dealt else ()
    seats = tuple(seat for seat, _ in event.draws)
    if seats != order or any(not state.hands[s] or state.hands[s][-1] is not c
                             for s, c in event.draws):
        raise RuleViolation("pesca", say("{event} does not match the draw: seat {seat} draws "
                                         "first, then the others counterclockwise",
                                         event=event, seat=state.leader))


def deal(ruleset: BriscolaRules, seating: Seating, dealer: int, number: int,
         seed: Seed) -> tuple[PlayEvent, ...]:
    """The opening events of a smazzata; the ruleset does not change the Briscola deal."""
    return (deal_event(seating, dealer, number, seed),)


def to_move(state: BriscolaState) -> int | None:
    return state.turn


class BriscolaEngine:
    """The GameEngine of Briscola (domain/game.py): the module's functions under its names."""

    name = "briscola"
    deal = staticmethod(deal)
    initial = staticmethod(initial_state)
    decide = staticmethod(decide)
    decide_folded = staticmethod(decide_folded)
    evolve = staticmethod(evolve)
    is_finished = staticmethod(is_over)
    to_move = staticmethod(to_move)
    legal_commands = staticmethod(legal_commands)
    observe = staticmethod(observe)


ENGINE = BriscolaEngine()

"""Cirulla as people wrote it down: deals with unknown cards, plays checked as far as they can be.

A transcribed deal has no seed. Hands and stock may hold cards nobody saw (UNKNOWN); the four
table cards are dealt face up ("4 carte scoperte in tavola", 000) and so are always named. A card
becomes known when it is played, shown in an accuso or captured: the state takes an unknown slot
of the hand to be that card (`reveal_play`), and the engine's fold goes on from there. A play is
checked by the same capture rules as a live one (captures.py) on the cards the record knows;
what depends on cards nobody saw (another card of the hand under `presa_obbligata=mano`, whether
an unseen hand made an accuso) is reported as unverifiable, never as legal or illegal. Plays the
rules refuse are folded as they happened: out of turn, the next seat after the player moves.
"""

from __future__ import annotations

from domain.cards import MATTA, UNKNOWN, Card
from domain.cirulla.accusi import DEALER_KINDS, best_accuso, dealer_accuso, player_accusi
from domain.cirulla.captures import card_captures, legal_plays
from domain.cirulla.dealing import next_hands, redeal_reason
from domain.cirulla.engine import apply_play, auto_accuso, end_event, evolve
from domain.cirulla.ruleset import Accuso, PresaObbligata, Ruleset
from domain.cirulla.state import PLAYS_PER_SMAZZATA, CirullaState, taken
from domain.events import (
    AccusoDeclared,
    CardPlayed,
    HandDealt,
    PlayEvent,
    SmazzataDealt,
)
from domain.game import RuleViolation
from domain.seating import Seating
from domain.text import say
from domain.transcript import Broken, PlayCheck, check_accounted, check_hands, not_elsewhere, reveal

HAND_SIZE = 3
TABLE_SIZE = 4
TURN = ("Dopo che ogni giocatore ha effettuato la giocata, la mano passa al giocatore successivo "
        "in senso antiorario.")
FORCED = ("Se il giocatore può fare almeno un tipo di presa è costretto a prendere e non può "
          "quindi scartare la carta.")
CAPTURES = ("Ogni giocatore di mano deve giocare una carta tenendo presente che: a) può "
            "prendere la carta in tavola che ha lo stesso valore della carta da lui giocata, "
            "b) può prendere le carte in tavola la cui somma è uguale al valore della carta da "
            "lui giocata, c) può prendere le carte in tavola la cui somma, inclusa la carta da "
            "lui giocata, è uguale a 15.")
ASSO = ("d) se gioca un asso: se in tavola c'è un asso prende l'asso, se in tavola non ci sono "
        "assi prende tutte le carte in tavola, se non ci sono carte in tavola scarta l'asso senza "
        "fare prese.")
KNOCK = ("if your cards total 9 or less than 9, you have to knock on the table at the start on the "
         "hand and say you're knocking.")
MATTA_VALUE = ("In caso di accuso, ai fini delle prese, il sistema assegna automaticamente al 7 "
               "di cuori i seguenti valori")


def deal_event(ruleset: Ruleset, seating: Seating, number: int, dealer: int, attempt: int,
               hands: tuple[tuple[Card, ...], ...], table: tuple[Card, ...],
               stock: tuple[Card, ...], briscola: Card | None) -> SmazzataDealt:
    """The SmazzataDealt of a transcribed layout, refused when it cannot be a Cirulla deal."""
    where = say("deal of smazzata {number}", number=number)
    players = seating.players
    check_hands(where, hands, players, HAND_SIZE)
    if len(table) != TABLE_SIZE or briscola is not None:
        raise RuleViolation("distribuzione", say("{where}: 4 table cards and no briscola card",
                                                 where=where))
    if UNKNOWN in table:
        raise RuleViolation("distribuzione", say("{where}: the 4 table cards are dealt face "
                                                 "up, so a transcribed deal names them",
                                                 where=where))
    check_accounted(where, (*hands, table, stock))
    return SmazzataDealt(number=number, dealer=dealer, attempt=attempt, seed_commitment=None,
                         hands=hands, table=table, stock=stock)


def redeal(ruleset: Ruleset, dealt: SmazzataDealt) -> str | None:
    """Why this deal goes 'a monte' under the ruleset (C1), or None: the table is known."""
    return redeal_reason(dealt.table, ruleset)


def after_deal(ruleset: Ruleset, seating: Seating,
               dealt: SmazzataDealt) -> tuple[tuple[PlayEvent, ...], PlayCheck]:
    """The dealer's accuso of the table and, under the automatic accuso, the first seat's, as
    the live deal gives them (engine.deal_from); an unseen first hand leaves that open."""
    events: list[PlayEvent] = []
    option = dealer_accuso(dealt.table)
    if option is not None:
        events.append(AccusoDeclared(seat=dealt.dealer, kind=option.kind, cards=dealt.table,
                                     points=option.points, matta_value=option.matta_value))
    first = seating.first_after_dealer(dealt.dealer)
    accuso, check = _automatic(ruleset, first, dealt.hands[first])
    return (*events, *accuso), check


def _automatic(ruleset: Ruleset, seat: int,
               hand: tuple[Card, ...]) -> tuple[tuple[AccusoDeclared, ...], PlayCheck]:
    if ruleset.accuso is not _AUTOMATICO:
        return (), _NOTHING_LEFT_OPEN
    if UNKNOWN in hand:
        return (), PlayCheck(unverifiable=(say(
            "C8 accuso automatico: seat {seat}'s hand holds unseen cards, so whether it made a "
            "cirulla or a decino cannot be checked", seat=seat + 1),))
    option = best_accuso(player_accusi(hand, ruleset))
    if option is None:
        return (), _NOTHING_LEFT_OPEN
    return (AccusoDeclared(seat=seat, kind=option.kind, cards=hand, points=option.points,
                           matta_value=option.matta_value),), PlayCheck()


def fold(state: CirullaState, event: PlayEvent) -> CirullaState:
    """The engine's fold of a transcribed event: unknown cards it shows become known first."""
    if isinstance(event, CardPlayed):
        state = reveal_play(state, event.seat, event.card)
    elif isinstance(event, AccusoDeclared) and event.kind not in DEALER_KINDS:
        state = _reveal_hand(state, event.seat, event.cards)
    return evolve(state, event)


def reveal_play(state: CirullaState, seat: int, card: Card) -> CirullaState:
    """`seat` plays `card` now, whoever was to move: its hand holds the card (an unknown slot
    taken to be it; a hand written without it loses its first card in its place)."""
    hand = state.hands[seat]
    if card in hand:
        if seat == state.to_move:
            return state   # nothing to reveal, nobody out of turn: most plays
        return state._replace(to_move=seat)
    hand = reveal(hand, (card,)) or (card, *hand[1:])
    hands = (*state.hands[:seat], hand, *state.hands[seat + 1:])
    return state._replace(hands=hands, to_move=seat)


def _reveal_hand(state: CirullaState, seat: int, cards: tuple[Card, ...]) -> CirullaState:
    hand = reveal(state.hands[seat], cards)
    if hand is None:
        raise RuleViolation("accusi", say("seat {seat} shows {cards}: its hand as transcribed "
                                          "does not hold them", seat=seat + 1,
                                          cards=" ".join(c.code for c in cards)))
    return state._replace(hands=(*state.hands[:seat], hand, *state.hands[seat + 1:]))


def _elsewhere(state: CirullaState, seat: int) -> list[tuple[Card, ...]]:
    others = [h for s, h in enumerate(state.hands) if s != seat]
    return [*others, state.table, state.stock, *state.captured]


def judge_play(state: CirullaState, seat: int, card: Card, capture: tuple[Card, ...],
               matta_value: int | None, irregular: bool) -> tuple[PlayCheck, Played | None]:
    """Every rule the play breaks, as far as the known cards show (RuleViolation when it cannot
    have happened at all: an unnamed card, a card known elsewhere, a capture off the table),
    and what the play leads to (`Played`) unless it breaks a rule and is not `irregular` (a
    play the table accepted, recorded as it happened). The hand holding the card and the
    capture in deck order are worked out once, for the check and for the play."""
    check, probe, wanted = _checked(state, seat, card, capture, matta_value)
    if check.broken and not irregular:
        return check, None
    return check, _played(probe, seat, card, wanted)


def _checked(state: CirullaState, seat: int, card: Card, capture: tuple[Card, ...],
             matta_value: int | None) -> tuple[PlayCheck, CirullaState, tuple[Card, ...]]:
    """The play's check, the state with the card revealed in the seat's hand, the capture
    sorted."""
    _check_possible(state, seat, card, capture)
    broken: list[Broken] = []
    if seat != state.to_move:
        broken.append(Broken("turn order", TURN, say(
            "seat {seat} played out of turn: seat {to_move} was to play", seat=seat + 1,
            to_move=state.to_move + 1)))
    hand = state.hands[seat]
    if card not in hand and UNKNOWN not in hand:
        broken.append(Broken("hand", TURN, say(
            "{card} is not in seat {seat}'s hand as transcribed ({hand})", card=card.code,
            seat=seat + 1, hand=" ".join(c.code for c in hand))))
    probe = reveal_play(state, seat, card)
    wanted = _sorted(capture)
    check = _capture_check(probe, card, wanted)
    if state.ruleset.accuso is _OBBLIGATORIO:
        check = check + _undeclared(state, seat)
    if card is MATTA and matta_value is not None and matta_value != probe.value_of(MATTA):
        worth = probe.value_of(MATTA)
        broken.append(Broken("C14 matta", MATTA_VALUE,
                             say("the matta is worth {value}, not {given}", value=worth,
                                 given=matta_value)))
    return (PlayCheck(tuple(broken)) + check if broken else check), probe, wanted


def _undeclared(state: CirullaState, seat: int) -> PlayCheck:
    """C8 "accuso obbligatorio" (002): the first card of a hand of three with a cirulla or a
    decino is played only after the accuso is declared; a hand with cards nobody saw cannot
    show whether it had one."""
    if state.ruleset.accuso is not _OBBLIGATORIO or not _may_knock(state, seat):
        return _NOTHING_LEFT_OPEN
    hand = state.hands[seat]
    if UNKNOWN in hand:
        return PlayCheck(unverifiable=(say(
            "C8 accuso obbligatorio: seat {seat}'s hand holds unseen cards, so whether it had "
            "an accuso to declare cannot be checked", seat=seat + 1),))
    pending = auto_accuso(state, seat)
    assert pending is not None   # _may_knock: the known hand has an accuso
    return PlayCheck((Broken("C8 accuso obbligatorio", KNOCK, say(
        "seat {seat} played without declaring the {kind} its hand made ({cards})",
        seat=seat + 1, kind=pending.kind, cards=" ".join(c.code for c in hand))),))


def _may_knock(state: CirullaState, seat: int) -> bool:
    """The seat's hand of three, nothing declared with it, has an accuso or cards nobody saw."""
    hand = state.hands[seat]
    return len(hand) == HAND_SIZE and not state.declared[seat] \
        and (UNKNOWN in hand or bool(player_accusi(hand, state.ruleset)))


def _check_possible(state: CirullaState, seat: int, card: Card,
                    capture: tuple[Card, ...]) -> None:
    if not state.dealt or state.finished:
        raise RuleViolation("deal", say("no smazzata in play"))
    seating = state.seating
    if not 0 <= seat < seating.players:
        seating.check_seat(seat)   # refused, naming the table's seats
    if card is UNKNOWN:
        raise RuleViolation("carta giocata", say("a played card is seen by everyone: name it"))
    if card not in state.hands[seat]:
        not_elsewhere(card, say("played by seat {seat}", seat=seat + 1), _elsewhere(state, seat))
    table = state.table
    for taken_card in capture:
        if taken_card not in table:
            off = " ".join(c.code for c in capture if c not in table)
            raise RuleViolation("prese", say("{card} captures {cards}, not on the table",
                                             card=card.code, cards=off))


def _sorted(capture: tuple[Card, ...]) -> tuple[Card, ...]:
    """A capture in deck order, as CardPlayed lists it (none or one card: as it is)."""
    return capture if len(capture) < 2 and type(capture) is tuple else tuple(sorted(capture))


def _capture_check(probe: CirullaState, card: Card, wanted: tuple[Card, ...]) -> PlayCheck:
    hand = probe.hands[probe.to_move]
    whole_hand = probe.ruleset.presa_obbligata is _PRESA_MANO
    unseen = whole_hand and UNKNOWN in hand
    if whole_hand and not unseen:
        mine = [taken(p) for p in legal_plays(probe) if p[0] is card]
    else:   # the card's own plays: its captures, else its discard
        mine = card_captures(probe, card) or [()]
        # In deck order, as `wanted` and the options listed: a capture of one card or none is
        # found as it is, most plays.
        if len(wanted) > 1 or wanted not in mine:
            mine = [c if len(c) < 2 else tuple(sorted(c)) for c in mine]
    if wanted in mine:
        if unseen and not wanted:
            return PlayCheck(unverifiable=(say(
                "C16 presa obbligata (mano): the seat's other cards were not seen, so whether "
                "one of them had to capture cannot be checked"),))
        return _NOTHING_LEFT_OPEN
    options = _options(card, mine)
    if not wanted:
        return PlayCheck((Broken("C16 presa obbligata", FORCED, say(
            "{card} discarded although it had to capture: its legal plays were {options}",
            card=card.code, options=options)),))
    rule, source = (("asso (regola d)", ASSO) if probe.value_of(card) == 1
                    else ("prese (regole a-c)", CAPTURES))
    return PlayCheck((Broken(rule, source, say(
        "{card} cannot capture {capture}: its legal plays were {options}", card=card.code,
        capture=" ".join(c.code for c in wanted), options=options)),))


def _options(card: Card, mine: list[tuple[Card, ...]]) -> str:
    """The legal plays of `card`, for people, as the notation writes them: `4d x 4c` for a
    capture, `4d (discard)`."""
    if not mine:
        return say("none")
    plays: list[str] = [say("{card} (discard)", card=card.code) if not m
                        else f"{card.code} x " + "+".join(c.code for c in m) for m in mine]
    return _joined(plays)


def _joined(plays: list[str]) -> str:
    """Plays one after the other, separated by semicolons (a capture is data, a discard a
    message: a Said)."""
    if len(plays) == 1:
        return plays[0]
    return say("{first}; {rest}", first=plays[0], rest=_joined(plays[1:]))


Played = tuple[tuple[PlayEvent, ...], PlayCheck, CirullaState, CirullaState]
"""A play's events, what the unseen cards leave open, the state right after its CardPlayed
(what a cappotto is judged on) and the state after all its events (each folded as `fold`
folds it)."""


def _played(probe: CirullaState, seat: int, card: Card, wanted: tuple[Card, ...]) -> Played:
    """The play as it happened (`probe`: the card in the seat's hand, the seat to move;
    `wanted`: the capture in deck order) and what follows from it by itself (a new hand, the
    end, the automatic accuso of a seen hand), what the unseen cards leave open, and the
    states it leads to: the play folded once, as it is decided."""
    table = probe.table
    played = CardPlayed(seat=seat, card=card, capture=wanted,
                        matta_value=probe.matta_value if card is MATTA else None,
                        scopa=bool(wanted) and len(wanted) == len(table)
                        and probe.plays != _LAST_PLAY)   # engine.is_scopa
    after = apply_play(probe, card, wanted)   # engine.evolve of a CardPlayed
    if any(after.hands):
        mover = after.to_move
        hand = after.hands[mover]
        if len(hand) != HAND_SIZE or after.declared[mover]:
            return (played,), _NOTHING_LEFT_OPEN, after, after   # most plays
        events: list[PlayEvent] = [played]
        folded = after
    elif not after.stock:
        return (played, end_event(after)), _NOTHING_LEFT_OPEN, after, after
    else:
        hands, _ = next_hands(after.stock, after.seating, after.dealer)
        events = [played, HandDealt(hands=hands)]
        folded = evolve(after, events[-1])
        mover = folded.to_move
        hand = folded.hands[mover]
        if len(hand) != HAND_SIZE or folded.declared[mover]:
            return tuple(events), _NOTHING_LEFT_OPEN, after, folded
    accusi, check = _automatic(folded.ruleset, mover, hand)
    for accuso in accusi:
        events.append(accuso)
        folded = fold(folded, accuso)
    return tuple(events), check, after, folded


def accuso_event(state: CirullaState, seat: int, kind: str, cards: tuple[Card, ...],
                 matta_value: int | None) -> AccusoDeclared:
    """A player's accuso as transcribed, with the cards shown: checked like a live one."""
    if not state.dealt or state.finished or seat != state.to_move:
        raise RuleViolation("C17 accuso", say("seat {seat} cannot declare now: an accuso "
                                              "opens the seat's turn", seat=seat + 1))
    hand = state.hands[seat]
    if len(hand) != HAND_SIZE or state.declared[seat] or len(cards) != HAND_SIZE:
        raise RuleViolation("C17 accuso", say("an accuso is declared with three cards in "
                                              "hand, showing them, once"))
    for card in cards:
        if card is UNKNOWN:
            raise RuleViolation("accusi", say("an accuso shows its cards: name them"))
        if card not in hand:
            not_elsewhere(card, say("shown by seat {seat}", seat=seat + 1),
                          _elsewhere(state, seat))
    shown = _reveal_hand(state, seat, cards).hands[seat]
    options = {o.kind: o for o in player_accusi(shown, state.ruleset)}
    option = options.get(kind)
    if option is None:
        cards_shown = " ".join(c.code for c in shown)
        if not options:
            raise RuleViolation("accusi", say("hand {cards} does not make a {kind} (it makes: "
                                              "none)", cards=cards_shown, kind=kind))
        raise RuleViolation("accusi", say("hand {cards} does not make a {kind} (it makes: "
                                          "{have})", cards=cards_shown, kind=kind,
                                          have=", ".join(options)))
    if matta_value is not None and matta_value != option.matta_value:
        raise RuleViolation("C14 matta", say("the matta takes value {value} in a {kind}, not "
                                             "{given}", value=option.matta_value, kind=kind,
                                             given=matta_value))
    return AccusoDeclared(seat=seat, kind=option.kind, cards=shown, points=option.points,
                          matta_value=option.matta_value)


_LAST_PLAY = PLAYS_PER_SMAZZATA - 1
# Looked up once: an enum member read off its class goes through the enum's metaclass.
_PRESA_MANO = PresaObbligata.MANO
_AUTOMATICO = Accuso.AUTOMATICO
_OBBLIGATORIO = Accuso.OBBLIGATORIO
_NOTHING_LEFT_OPEN = PlayCheck()

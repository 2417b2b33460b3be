"""A toy game behind the GameEngine protocol, so the record and the store are tested apart from
the real engines: 3 cards to each seat from the seeded deck (redeal when the first card dealt
is an ace), play any card in hand in turn, a smazzata ends when the hands are empty and each
side scores the values of the cards it played. A match goes to `target` points."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from domain.cards import Card
from domain.dealing import deal_round_robin
from domain.events import (
    CardPlayed,
    DealAnnulled,
    PlayEvent,
    SmazzataDealt,
    SmazzataEnded,
    SmazzataOutcome,
)
from domain.game import Command, DeclareAccuso, GameEngine, PlayCard, RuleViolation
from domain.record.games import GameRules, GameRulesOf, Standing
from domain.seating import Seating
from domain.shuffle import Seed, commitment, shuffled_deck
from domain.viewing import Observation, Viewer, Visibility, hands_seen, split_plays, visible_seats
from tests.replacing import replace


@dataclass(frozen=True, slots=True)
class ToyState:
    seating: Seating
    hands: tuple[tuple[Card, ...], ...] = ()
    to_move: int = 0
    points: tuple[int, int] = (0, 0)
    number: int = 0
    finished: bool = False


class ToyEngine:
    name = "toy"

    def deal(self, ruleset: str, seating: Seating, dealer: int, number: int,
             seed: Seed) -> tuple[PlayEvent, ...]:
        events: list[PlayEvent] = []
        attempt = 0
        while True:
            deck = shuffled_deck(seed, attempt)
            hands, rest = deal_round_robin(deck, seating, dealer, 3)
            events.append(SmazzataDealt(number=number, dealer=dealer, attempt=attempt,
                                        seed_commitment=commitment(seed), hands=hands,
                                        table=(), stock=rest))
            if deck[0].value != 1 or attempt >= 3:
                return tuple(events)
            events.append(DealAnnulled(number=number, attempt=attempt, reason="asso in testa"))
            attempt += 1

    def initial(self, ruleset: str, seating: Seating) -> ToyState:
        return ToyState(seating=seating)

    def decide(self, state: ToyState, command: Command) -> tuple[PlayEvent, ...]:
        if isinstance(command, DeclareAccuso):
            raise RuleViolation("toy: no accusi", "the toy game has no accusi")
        if command.seat != state.to_move:
            raise RuleViolation("toy: turn", f"seat {state.to_move} is to move")
        if command.card not in state.hands[command.seat]:
            raise RuleViolation("toy: card in hand", f"{command.card} is not in the hand of "
                                                     f"seat {command.seat}")
        played = CardPlayed(seat=command.seat, card=command.card)
        after = self.evolve(state, played)
        if any(after.hands):
            return (played,)
        return (played, SmazzataEnded(number=state.number, scores=after.points,
                                      breakdown=(("carte", *after.points),)))

    def decide_folded(self, state: ToyState,
                      command: Command) -> tuple[tuple[PlayEvent, ...], ToyState]:
        events = self.decide(state, command)
        for event in events:
            state = self.evolve(state, event)
        return events, state

    def evolve(self, state: ToyState, event: PlayEvent) -> ToyState:
        if isinstance(event, SmazzataDealt):
            return ToyState(seating=state.seating, hands=event.hands, number=event.number,
                            to_move=state.seating.first_after_dealer(event.dealer))
        if isinstance(event, CardPlayed):
            hands = tuple(tuple(c for c in h if c is not event.card) for h in state.hands)
            side = state.seating.side_of(event.seat)
            points = tuple(p + (event.card.value if s == side else 0)
                           for s, p in enumerate(state.points))
            return replace(state, hands=hands, to_move=state.seating.next_seat(event.seat),
                           points=(points[0], points[1]))
        if isinstance(event, SmazzataEnded):
            return replace(state, finished=True)
        return state

    def is_finished(self, state: ToyState) -> bool:
        return state.finished

    def to_move(self, state: ToyState) -> int | None:
        return None if state.finished or not state.hands else state.to_move

    def legal_commands(self, state: ToyState) -> tuple[Command, ...]:
        seat = self.to_move(state)
        return () if seat is None else tuple(PlayCard(seat, c) for c in state.hands[seat])

    def observe(self, state: ToyState, viewer: Viewer, visibility: Visibility,
                plays: Sequence[CardPlayed]) -> Observation:
        """Hands by the visibility rules; the toy has no table, stock or piles."""
        seats = visible_seats(state.seating, viewer, visibility, False)
        mano, seen = split_plays(plays, state.seating.players, visibility)
        empty = ((),) * state.seating.players
        return Observation(
            game=self.name, viewer=viewer, number=state.number, dealer=-1,
            hands=hands_seen(state.hands or empty, seats),
            hand_sizes=tuple(map(len, state.hands or empty)), shown=empty, table=(),
            briscola=None, stock_size=0, stock=None, captured_sizes=(0, 0), scope=(0, 0),
            points=state.points, accusi=(), mano=mano, seen=seen, last_hand_face_up=False,
            finished=state.finished, dealt=bool(state.hands))


ToyResult = tuple[int, int]
"""A toy smazzata's result: the points of each side."""


class ToyRules:
    """The toy's GameRulesOf[ToyState, str, int, ToyResult]: the ruleset is the variant's name,
    the match format the target (stored as {"target": "40"}), a result the points per side."""

    name = "toy"

    def __init__(self) -> None:
        self._engine = ToyEngine()

    @property
    def engine(self) -> GameEngine[ToyState, str]:
        return self._engine

    def ruleset(self, options: Mapping[str, str]) -> str:
        if set(options) - {"variante"}:
            raise ValueError(f"toy: unknown options {sorted(set(options) - {'variante'})}")
        return options.get("variante", "base")

    def options(self, ruleset: str) -> Mapping[str, str]:
        return {"variante": ruleset}

    def seating(self, ruleset: str, players: int) -> Seating:
        return Seating(players)

    def match_format(self, options: Mapping[str, str]) -> int:
        if not options.get("target", "").isdigit():
            raise ValueError(f"toy: match format needs a numeric target, got {dict(options)}")
        return int(options["target"])

    def result(self, state: ToyState, ended: SmazzataEnded) -> ToyResult:
        return ended.scores

    def outcome(self, match_format: int, result: ToyResult) -> SmazzataOutcome:
        return SmazzataOutcome(last_capture=None, cappotto=None, cappotto_ends_match=False,
                               vinco_subito=None)

    def cut_short(self, match_format: int, state: ToyState) -> SmazzataEnded | None:
        return None   # the toy's smazzata always ends at its last play

    def may_cut_short(self, match_format: int) -> bool:
        return False

    def standing(self, match_format: int, results: Sequence[ToyResult],
                 adjustment: tuple[int, int]) -> Standing:
        scores = (sum(p[0] for p in results) + adjustment[0],
                  sum(p[1] for p in results) + adjustment[1])
        over = max(scores) >= match_format and scores[0] != scores[1]
        winner = (0 if scores[0] > scores[1] else 1) if over else None
        return Standing(scores, over, winner, "target" if over else "")

    def made_so_far(self, match_format: int, results: Sequence[ToyResult],
                    state: ToyState | None) -> tuple[int, int]:
        return (0, 0)   # the toy keeps nothing of an interrupted smazzata

    def forfeit(self, match_format: int, results: Sequence[ToyResult], state: ToyState | None,
                guilty_side: int,
                adjustment: tuple[int, int]) -> tuple[tuple[int, int], Standing]:
        before = self.standing(match_format, results, adjustment).scores
        awarded = (0, 5) if guilty_side == 0 else (5, 0)
        scores = (before[0] + awarded[0], before[1] + awarded[1])
        return awarded, Standing(scores, True, 1 - guilty_side, "forfeit")


TOY: GameRulesOf[ToyState, str, int, ToyResult] = ToyRules()
TOY_CATALOG: dict[str, GameRules] = {"toy": TOY}

"""Golden playthroughs (issue 24, point 7, in the manner of OpenSpiel's): one seeded smazzata of
each game and player count, played by the simulator's bots through the engines' public API
(domain/game.py: `deal`, `evolve`, `legal_commands`, `observe`, `decide`), written step by step:
the whole state as the arbiter sees it, the seat to move and its legal moves, what each seat and
the public see, the move chosen and the events it caused.

The text is built field by field by `text_of`, never from a repr, so it shows the values and not
how they are stored (a dataclass or a msgspec Struct prints alike). tests/golden/README.md says
how the files are checked and how to change one on purpose.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from domain.briscola.bot import choose_command
from domain.briscola.engine import ENGINE as BRISCOLA
from domain.briscola.state import BriscolaRules
from domain.cards import Card
from domain.cirulla.bot import choose
from domain.cirulla.decide import ENGINE as CIRULLA
from domain.cirulla.match import as_command
from domain.cirulla.ruleset import STANDARD
from domain.events import CardPlayed, PlayEvent
from domain.game import Command, GameEngine
from domain.seating import Seating
from domain.shuffle import Seed
from domain.viewing import ARBITER, NO_OPTIONS, PUBLIC, Observation, Viewer

HERE = Path(__file__).resolve().parent
HEADER_FIELDS = ("game", "viewer", "number", "dealer")
"""The observation's fields the file's header gives once."""


@dataclass(frozen=True)
class Case:
    """One golden file: a game, a table size, the seed of its smazzata, the first dealer."""

    game: str
    players: int
    seed: str
    dealer: int

    @property
    def path(self) -> Path:
        return HERE / f"{self.game}-{self.players}p.txt"


CASES = (
    Case("cirulla", 2, "601de2000000000000000000000000c2", 0),
    Case("cirulla", 4, "601de4000000000000000000000000c4", 1),
    Case("briscola", 2, "601de2000000000000000000000000b2", 1),
    Case("briscola", 4, "601de4000000000000000000000000b4", 2),
)


def text_of(value: Any) -> str:
    """A value as stable text: cards by their code, enums by their value, records as
    `Type(field=value ...)` over their fields, sequences in brackets."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Enum):
        return str(value.value)
    if value is None or isinstance(value, bool | int | float | str):
        return repr(value) if isinstance(value, str) else str(value)
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, tuple | list):
        return "[" + " ".join(text_of(item) for item in value) + "]"
    if isinstance(value, frozenset | set):
        return "{" + " ".join(sorted(text_of(item) for item in value)) + "}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{text_of(k)}: {text_of(v)}" for k, v in value.items()) + "}"
    return f"{type(value).__name__}({_fields_text(value)})"


def _fields(value: Any) -> tuple[str, ...]:
    if dataclasses.is_dataclass(value):
        return tuple(f.name for f in dataclasses.fields(value) if f.repr)
    struct_fields = getattr(type(value), "__struct_fields__", None)
    if struct_fields is not None:
        return tuple(struct_fields)
    raise TypeError(f"no stable text for {type(value).__name__}: {value!r}")


def _fields_text(value: Any, skip: Sequence[str] = (), unlike: Any = None) -> str:
    """`name=value` for each field (but `skip`); with `unlike`, only where the two differ."""
    return " ".join(f"{name}={text_of(getattr(value, name))}" for name in _fields(value)
                    if name not in skip
                    and (unlike is None or getattr(unlike, name) != getattr(value, name)))


def _viewer_name(viewer: Viewer) -> str:
    return viewer.value if viewer is ARBITER or viewer is PUBLIC else f"seat {viewer}"


def _observations(engine: GameEngine[Any, Any], state: Any, seating: Seating,
                  plays: Sequence[CardPlayed]) -> Iterator[str]:
    """The state as the arbiter sees it (every card), then each seat's and the public's view as
    what it does not see alike."""
    whole: Observation = engine.observe(state, ARBITER, NO_OPTIONS, plays)
    yield f"  state (arbiter): {_fields_text(whole, HEADER_FIELDS)}"
    viewers: tuple[Viewer, ...] = (*seating.seats, PUBLIC)
    for viewer in viewers:
        seen: Observation = engine.observe(state, viewer, NO_OPTIONS, plays)
        yield f"  {_viewer_name(viewer)} sees, unlike the arbiter: " \
              f"{_fields_text(seen, HEADER_FIELDS, whole) or '-'}"


def _header(case: Case, engine: GameEngine[Any, Any], ruleset: Any) -> list[str]:
    return [f"# Golden playthrough: {engine.name}, {case.players} players "
            "(tests/golden/README.md; regenerate: python -m tests.golden.regenerate)",
            f"# seed {case.seed}, smazzata 0, dealer {case.dealer}, visibility "
            f"{text_of(NO_OPTIONS)}",
            f"# ruleset {text_of(ruleset)}"]


def playthrough(case: Case) -> str:
    """The golden text of `case`, played afresh."""
    engine, ruleset, bot = _game(case.game)
    seating = Seating(case.players)
    lines = _header(case, engine, ruleset)
    events = engine.deal(ruleset, seating, case.dealer, 0, Seed.from_hex(case.seed))
    state = engine.initial(ruleset, seating)
    plays: list[CardPlayed] = []
    step = 0
    lines.append("step 0: the deal")
    while True:
        lines.append("  events:")
        for event in events:
            lines.append(f"    {text_of(event)}")
            state = engine.evolve(state, event)
            plays.extend([event] if isinstance(event, CardPlayed) else [])
        lines.extend(_observations(engine, state, seating, plays))
        if engine.is_finished(state):
            lines.append("end: the smazzata is over")
            return "\n".join(lines) + "\n"
        step += 1
        command = bot(state)
        events = _step(lines, step, engine, state, command)


def _step(lines: list[str], step: int, engine: GameEngine[Any, Any], state: Any,
          command: Command) -> tuple[PlayEvent, ...]:
    legal = engine.legal_commands(state)
    if command not in legal:
        raise AssertionError(f"the bot chose {command}, not among the legal moves {legal}")
    lines.append(f"step {step}: seat {engine.to_move(state)} to move, {len(legal)} legal")
    lines.extend(f"  legal: {text_of(move)}" for move in legal)
    lines.append(f"  chosen: {text_of(command)}")
    return engine.decide(state, command)


def _game(name: str) -> tuple[GameEngine[Any, Any], Any, Callable[[Any], Command]]:
    if name == "cirulla":
        return CIRULLA, STANDARD, as_command(choose)
    return BRISCOLA, BriscolaRules(), choose_command

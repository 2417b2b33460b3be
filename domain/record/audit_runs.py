"""`confirm`: the audit of a match record that agrees with the rules, at a fraction of its cost.

Most of a match is plain plays: the seat to move plays a card, the game says what follows, and the
record holds exactly that. `audit` re-derives each through the whole record (the command,
`decide_checked` with its clock, phase and cappotto checks, the comparison with the fields a
version-1 record lacks, then `evolve` of every event into a new MatchState). Here a plain play of a
live match is decided and folded on the game's own state by the game's `advance` (the import's fast
path, domain/record/transcription.py: for a live play the very check and fold of the engine's
`decide` and `evolve`), or by `decide` and `evolve` where `advance` does not take the play; it is
compared with what was recorded, and the match state is rebuilt once per run of such plays, as
`evolve` would have left it. Every other action goes through `audit`'s own step.

Only a record with nothing to report is confirmed: any finding, refusal, or a match not finished
gives None, and the caller audits the record with `audit` (whose report is then the one given).
A play is taken here only when `decide_checked` would take it the same way: a live match in
play, nobody forfeiting, the clock going forward, no irregularity noted on it, the seat to move,
the engine accepting it, the smazzata going on and no cappotto cutting it short; anything else
goes to `audit`'s step. The two give the same state (tests/domain/record/test_audit_runs.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC
from typing import Any

from domain.cards import Card
from domain.events import CardPlayed, SmazzataEnded
from domain.game import GameEngine, PlayCard
from domain.record.audit import Audit, Finding, Recorded, _guarded_step, _in_progress, _Stop
from domain.record.clock import millis
from domain.record.decide_claims import result_difference
from domain.record.events import IrregularityNoted
from domain.record.games import GameRules
from domain.record.match import MatchState, Phase, _with, initial
from domain.record.transcription import Advanced, transcriber


def confirm(catalog: Mapping[str, GameRules], stream: Sequence[Recorded]) -> Audit | None:
    """`audit(catalog, stream)` when it finds nothing and the match is over, else None."""
    state = initial(catalog)
    index = 0
    findings: list[Finding] = []
    noted = frozenset([e.refers_to for e, _ in stream if isinstance(e, IrregularityNoted)])
    try:
        while index < len(stream):
            if type(stream[index][0]) is CardPlayed:
                state, taken = _plain_plays(state, stream, index, noted)
                if taken:
                    index = taken
                    continue
            state, index = _guarded_step(state, stream, index, findings)
            if findings:
                return None
    except _Stop:
        return None
    if result_difference(state) is not None or _in_progress(state) is not None:
        return None
    return Audit((), state, None)


def _plain_plays(state: MatchState, stream: Sequence[Recorded], index: int,
                 noted: frozenset[int]) -> tuple[MatchState, int]:
    """The plain plays from `index` on, as far as they go, and the index after them (0: none
    taken). One MatchState is built for the whole run. `noted`: the events irregularities
    refer to (most records: none)."""
    if state.phase is not Phase.PLAY or state.transcribed or state.forfeit is not None \
            or state.setup is None or state.last_at is None:
        return state, 0
    engine: GameEngine[Any, Any] = state.setup.rules.engine
    advance = _live_advance(state.setup.rules.name)
    cut_short = state.setup.cut_short
    game, last_at, version = state.game, state.last_at, state.version
    bank, seen = list(state.bank_used_ms), list(state.last_action)
    start = index
    while index < len(stream):
        event, at = stream[index]
        if type(event) is not CardPlayed or at.tzinfo is not UTC or at < last_at \
                or (index + 1 in noted and _noted(stream, index)) \
                or event.seat != engine.to_move(game):
            break
        after = _played(engine, advance, cut_short, game, stream, index)
        if after is None:
            break
        game, count = after
        bank[event.seat] += millis(at - last_at)
        seen[event.seat] = at
        last_at, version, index = at, version + count, index + count
    if index == start:
        return state, 0
    return _with(state, game=game, version=version, last_at=last_at, bank_used_ms=tuple(bank),
                 last_action=tuple(seen)), index


def _played(engine: GameEngine[Any, Any], advance: Advance | None,
            cut_short: Callable[[Any], object], game: Any, stream: Sequence[Recorded],
            index: int) -> tuple[Any, int] | None:
    """The game after the recorded play at `index` and the events it caused, and how many
    they are; None when the engine refuses it, it ends the smazzata (the record adds the
    outcome), a cappotto cuts it short, or the record holds anything but what the engine
    decides, each at the play's moment: `audit`'s step then says what."""
    event, at = stream[index]
    assert isinstance(event, CardPlayed)
    try:
        advanced = None if advance is None else advance(game, event.seat, event.card,
                                                        event.capture, event.matta_value)
        if advanced is not None:
            decided, played, after = advanced.events, advanced.played, advanced.after
        else:
            decided = engine.decide(game, PlayCard(event.seat, event.card, event.capture,
                                                   event.matta_value))
            if any(type(e) is SmazzataEnded for e in decided):
                return None
            played = engine.evolve(game, decided[0])
            after = played
            for follows in decided[1:]:
                after = engine.evolve(after, follows)
        if index + len(decided) > len(stream):
            return None
        for offset, expected in enumerate(decided):
            if stream[index + offset] != (expected, at):
                return None
        if event.capture and cut_short(played) is not None:   # decided[0] is `event`
            return None
    except (ValueError, TypeError, LookupError, AttributeError):
        return None   # a refusal (RuleViolation is a ValueError) or a record that cannot fold
    return after, len(decided)


Advance = Callable[[Any, int, Card, tuple[Card, ...], int | None], Advanced | None]


def _live_advance(game: str) -> Advance | None:
    """The game's `advance` (domain/record/transcription.py) where it decides a live play as
    the engine's `decide` and `evolve` do, for the plays it takes: the seat to move, a card of
    its hand, a legal capture, the matta's value, what follows by itself, the smazzata going
    on. Under C8 "accuso obbligatorio" it leaves a hand of three's first play with nothing
    declared to `decide`, which says whether an accuso was due."""
    if game in ("cirulla", "briscola"):
        return transcriber(game).advance
    return None


def _noted(stream: Sequence[Recorded], index: int) -> bool:
    """audit's `_played`: an irregularity noted on this play within the next seven events
    makes it a RecordIrregularPlay."""
    version = index + 1
    return any(isinstance(e, IrregularityNoted) and e.refers_to == version
               for e, _ in stream[index + 1:index + 8])

"""`decide` for what only a transcribed match may hold: a deal with no seed, an accuso with the
cards it showed, a play the table accepted against the rules.

Each returns the events and the checks the unknown cards left open (notes, for the audit). A play
that breaks a rule is refused unless it comes as RecordIrregularPlay: then it is recorded as it
happened, followed by one IrregularityNoted per rule it breaks, and the match goes on from it.
A live or simulated match refuses all of these: its deals come from committed seeds and its
plays are legal or not recorded.
"""

from __future__ import annotations

from datetime import datetime

import msgspec

from domain.events import DealAnnulled, PlayEvent, SmazzataDealt, SmazzataEnded
from domain.game import DeclareAccuso, PlayCard
from domain.record.commands import (
    DealLayout,
    RecordIrregularPlay,
    TranscribeAccuso,
    TranscribeDeal,
)
from domain.record.events import IrregularityNoted
from domain.record.match import MatchEvent, MatchState, Phase, evolve, thought
from domain.record.match import played as state_played
from domain.record.outcomes import outcomes_folded
from domain.record.refusal import RecordRefused, need
from domain.record.transcription import Transcriber, transcriber
from domain.text import Said, say
from domain.transcript import Broken, PlayCheck

SHUFFLE_UNVERIFIABLE = say("shuffle unverifiable: a transcribed deal has no seed")
# What a play is called in its refusals, built once: `play` runs for every transcribed play.
IRREGULAR_PLAY = say("a play the rules refuse")
PLAY_A_CARD = say("play a card")
_PLAY = Phase.PLAY   # an enum member read off its class goes through the enum's metaclass


class Decided(msgspec.Struct, frozen=True):
    """The events a command causes, and what of it the known cards could not check (a Struct:
    one is built for every action replayed)."""

    events: tuple[MatchEvent, ...]
    notes: tuple[str, ...] = ()


def _transcribed(state: MatchState, what: Said) -> Transcriber:
    if not state.transcribed:
        if state.provenance.kind == "simulated":
            raise RecordRefused("provenance", say("{what}: only a transcribed match records "
                                                  "that; a simulated match deals from committed "
                                                  "seeds and records legal plays only",
                                                  what=what))
        raise RecordRefused("provenance", say("{what}: only a transcribed match records that; a "
                                              "live match deals from committed seeds and "
                                              "records legal plays only", what=what))
    return transcriber(state.rules.name)


def deal(state: MatchState, command: TranscribeDeal) -> Decided:
    rules = _transcribed(state, say("a deal without a seed"))
    need(state, Phase.COMMIT, say("deal smazzata {smazzata}", smazzata=state.smazzata + 1))
    if command.dealer is not None and command.dealer != state.dealer:
        raise RecordRefused("mazziere", say("smazzata {smazzata} is dealt by seat {dealer} (the "
                                            "rotation from the first dealer), not seat "
                                            "{written}", smazzata=state.smazzata + 1,
                                            dealer=state.dealer + 1,
                                            written=command.dealer + 1))
    events: list[PlayEvent] = []
    layouts = (*command.annulled, command.layout)
    dealt: SmazzataDealt | None = None
    for attempt, layout in enumerate(layouts):
        dealt = _dealt(state, rules, attempt, layout)
        events.append(dealt)
        reason = rules.redeal(state.ruleset, dealt)
        last = attempt == len(layouts) - 1
        if reason is not None and last:
            raise RecordRefused("C1 redeal", say("this deal goes a monte ({reason}): transcribe "
                                                 "the deal that followed it too",
                                                 reason=reason))
        if reason is None and not last:
            raise RecordRefused("C1 redeal", say("attempt {attempt} does not go a monte under "
                                                 "the ruleset: it stands, nothing is dealt "
                                                 "again", attempt=attempt + 1))
        if reason is not None:
            events.append(DealAnnulled(number=state.smazzata, attempt=attempt, reason=reason))
    assert state.seating is not None and dealt is not None
    follow, check = rules.after_deal(state.ruleset, state.seating, dealt)
    return Decided((*events, *follow), (SHUFFLE_UNVERIFIABLE, *check.unverifiable))


def _dealt(state: MatchState, rules: Transcriber, attempt: int,
           layout: DealLayout) -> SmazzataDealt:
    assert state.seating is not None
    return rules.deal_event(state.ruleset, state.seating, state.smazzata, state.dealer, attempt,
                            layout.hands, layout.table, layout.stock, layout.briscola)


def accuso(state: MatchState, command: TranscribeAccuso | DeclareAccuso) -> Decided:
    rules = _transcribed(state, say("an accuso with its cards"))
    need(state, Phase.PLAY, say("declare an accuso"))
    if isinstance(command, DeclareAccuso):
        cards = state.game.hands[command.seat]
        return Decided((rules.accuso_event(state.game, command.seat, command.kind, cards,
                                           command.matta_value),))
    return Decided((rules.accuso_event(state.game, command.seat, command.kind, command.cards,
                                       command.matta_value),))


def play(state: MatchState, command: PlayCard | RecordIrregularPlay,
         at: datetime) -> tuple[Decided, MatchState]:
    """A transcribed play decided and folded at once: the game's step gives the state its
    events lead to, so the match state is built once (the play and what follows by itself);
    the end of a smazzata, a cappotto that cuts it short and an irregularity are folded by the
    record's own `outcomes_folded` and `evolve`, event by event."""
    steady = state.steady
    setup = steady.setup
    if not steady.transcribed or setup is None:
        _transcribed(state, IRREGULAR_PLAY)   # refused
    assert setup is not None
    rules = transcriber(setup.rules.name)
    if state.phase is not _PLAY:
        need(state, Phase.PLAY, PLAY_A_CARD)   # refused
    irregular = isinstance(command, RecordIrregularPlay)
    move = command.play if isinstance(command, RecordIrregularPlay) else command
    check, judged = rules.judge_play(state.game, move.seat, move.card, move.capture,
                                     move.matta_value, irregular)
    if judged is None:
        first = check.broken[0]
        raise RecordRefused(first.rule, say("{message}; a play the table accepted is recorded "
                                            "as an irregularity, noted by whoever noted it",
                                            message=first.message))
    events: tuple[MatchEvent, ...]
    events, follow, played, after = judged
    notes = check.unverifiable + follow.unverifiable
    kept = 1
    if isinstance(command, RecordIrregularPlay):
        noted = _noted(state, command, check)
        events, kept = (events[0], *noted, *events[1:]), 1 + len(noted)
    ends = isinstance(events[-1], SmazzataEnded)   # a play's SmazzataEnded comes last
    if move.capture and steady.cuts_short and not ends:
        # C11: a play completing a cappotto may end the smazzata there (outcomes.cut_short),
        # judged on the game right after the play.
        ended = setup.cut_short(played)
        if ended is not None:
            events, ends = (*events[:kept], ended), True
    if kept > 1 or ends:
        completed, folded = outcomes_folded(state, events, at)
        if folded is None:   # irregularities noted: each event folded by the record
            folded = state
            for event in completed:
                folded = evolve(folded, event, at)
        return Decided(completed, notes), folded
    bank, seen = thought(state, move.seat, at)
    return Decided(events, notes), state_played(state, after, state.version + len(events), at,
                                                bank, seen)


def _noted(state: MatchState, command: RecordIrregularPlay,
           check: PlayCheck) -> tuple[IrregularityNoted, ...]:
    if not command.noted_by.strip():
        raise RecordRefused("irregularity", say("an irregularity names who noted it"))
    played_at = state.version + 1
    seat = command.play.seat
    if check.broken:
        return tuple(_fact(played_at, seat, b, command.noted_by, True) for b in check.broken)
    if not check.unverifiable or not command.rule:
        raise RecordRefused("irregularity", say("the known cards show this play is legal: "
                                                "there is no irregularity to note"))
    unseen = Broken(command.rule, "", f"noted by {command.noted_by}; the known cards cannot "
                                      f"show it ({'; '.join(check.unverifiable)})")
    return (_fact(played_at, seat, unseen, command.noted_by, False),)


def _fact(version: int, seat: int, broken: Broken, noted_by: str,
          verified: bool) -> IrregularityNoted:
    return IrregularityNoted(refers_to=version, seat=seat, rule=broken.rule,
                             source=broken.source, message=broken.message, noted_by=noted_by,
                             verified=verified)

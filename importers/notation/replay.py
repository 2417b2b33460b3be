"""Validation by replay: a written match judged, command by command, by the match record's rules.

The tags become the CreateMatch and TranscribeTags that open the record (setup.py); each
smazzata its deal (a TranscribeDeal of the written cards with `??` for the unseen ones, or, when
the written Seed gives the very cards written, the deal from that seed: CommitSeed, DealSmazzata
and, once the smazzata is over, RevealSeed, so the stored record can be checked against it);
each play a PlayCard (with a marker: a RecordIrregularPlay noted by the Arbiter tag), each accuso
a TranscribeAccuso, each incident its command, and a written score a ClaimScore.

Every command is decided against the state folded so far (domain.record.decide), exactly as the
store will decide it (`MatchStore.execute_batch`). A refusal is an error of the report at the
line and column it was read from; the replay then goes on where it can: an illegal play the
writers did not mark is reported with the plays the rules allowed and folded as an irregular
play, so the plays after it are still checked. The actions are handed out only when nothing is
wrong: a rejected record stores nothing.

The steps every command takes (decide, fold, report) are in replay_core.py; the incidents and
the closing of a smazzata (its seed revealed, its claim, the events rulings refer to) in
replay_incidents.py; here the opening, the deals and the plays.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from domain.cards import UNKNOWN
from domain.cirulla.transcribed import reveal_play
from domain.events import CardPlayed, SmazzataDealt
from domain.game import PlayCard
from domain.record.commands import (
    CommitSeed,
    DealSmazzata,
    MatchCommand,
    RecordIrregularPlay,
    TranscribeAccuso,
    TranscribeDeal,
    TranscribeTags,
)
from domain.record.decide import Decided
from domain.record.events import IrregularityNoted
from domain.record.match import MatchEvent, Phase
from domain.shuffle import Seed, SeedError
from domain.text import said_of, say
from importers.notation import setup
from importers.notation.collector import collector_paused
from importers.notation.layouts import Problem, dealer_problems, filled, seed_problems
from importers.notation.model import (
    Move,
    WrittenAccuso,
    WrittenIncident,
    WrittenMatch,
    WrittenPlay,
    WrittenSmazzata,
)
from importers.notation.replay_core import ONE_STEP, Action, Refusal, Stop
from importers.notation.replay_incidents import IncidentReplay
from importers.notation.report import Report, play_text, title_of

__all__ = ["Action", "Validation", "content_hash", "validate"]


@dataclass(frozen=True, slots=True)
class Validation:
    """The report, and the actions to store: None when the report has an error."""

    report: Report
    actions: tuple[Action, ...] | None


_LAST_HASH: list[tuple[WrittenMatch, str] | None] = [None]
"""The last match hashed and its hash: the import hashes each match twice (its TranscribeTags,
then its stream id), and writing it is the costly part. A WrittenMatch is immutable throughout,
and the entry holds it, so the same object is the same match."""


def content_hash(match: WrittenMatch) -> str:
    """SHA-256 (hex) of the match's strict export form: the same record, however written,
    hashes the same (docs/notation.md)."""
    from importers.notation.writer import write  # the writer needs the whole notation

    last = _LAST_HASH[0]   # read once: another thread may replace the entry meanwhile
    if last is not None and last[0] is match:
        return last[1]
    digest = hashlib.sha256(write(match).encode("utf-8")).hexdigest()
    _LAST_HASH[0] = (match, digest)
    return digest


def validate(match: WrittenMatch, importer: str | None = None,
             match_index: int = 1) -> Validation:
    """Replay `match` through the rules: its report and, if it has no error, its actions."""
    replay = _Replay(match, importer or setup.default_importer())
    with collector_paused():
        replay.run()
    return replay.validation(match_index)


class _Replay(IncidentReplay):
    """The written match replayed: its opening, then each smazzata's deal and moves."""

    def run(self) -> None:
        try:
            self.open()
            for smazzata in self.match.smazzate:
                self.smazzata(smazzata)
            self.number = None
            for incident in self.match.after:
                self.incident(incident)
        except Stop:
            pass
        self.result()

    def open(self) -> None:
        try:
            create = setup.create_match(self.match, self.program, self.clock)
        except setup.TagError as error:
            self.find("error", error.check, error.message, error.pos)
            raise self.stop(error.pos) from None
        if self.act(create, self.match.pos) is None:
            raise self.stop(self.match.pos)
        try:
            digest = content_hash(self.match)
        except ValueError as error:   # what the strict form cannot write is no record
            self.find("error", "notation", said_of(error) or str(error), self.match.pos)
            return
        self.act(TranscribeTags(tags=setup.tag_pairs(self.match), content_hash=digest),
                 self.match.pos)

    def smazzata(self, smazzata: WrittenSmazzata) -> None:
        self.number = smazzata.number + 1
        if smazzata.number != self.state.smazzata:
            self.find("error", "smazzata", say("smazzata {written} is written where the record "
                                               "is at smazzata {expected}",
                                               written=smazzata.number + 1,
                                               expected=self.state.smazzata + 1), smazzata.pos)
        self.closing = smazzata
        self.deal(smazzata)
        play = self.play
        for move in smazzata.moves:
            if type(move) is WrittenPlay:   # most moves: one call less
                play(move)
            else:
                self.move(move)
        self.close(smazzata)

    def deal(self, smazzata: WrittenSmazzata) -> None:
        self.seed = None
        if not smazzata.attempts:
            self.find("error", "distribuzione", say("smazzata {number} has no deal written",
                                                    number=smazzata.number + 1), smazzata.pos)
            raise self.stop(smazzata.pos)
        if smazzata.seed is not None and self.seeded(smazzata, smazzata.seed):
            return
        assert self.state.seating is not None
        layouts = []
        for written in smazzata.attempts:
            layout, problems = filled(written, self.state.seating.players)
            self.problems(problems)
            layouts.append(layout)
        command = TranscribeDeal(layout=layouts[-1], annulled=tuple(layouts[:-1]),
                                 dealer=smazzata.dealer)
        pos = smazzata.attempts[0].pos
        if self.act(command, pos) is None:
            raise self.stop(pos)

    def problems(self, problems: tuple[Problem, ...]) -> None:
        for problem in problems:
            self.find("error", problem.check, problem.message, problem.pos)

    def seeded(self, smazzata: WrittenSmazzata, text: str) -> bool:
        """The deal from the written seed, if every written card agrees with it: the commitment
        and the deal are decided first, and the deal they give is the one compared, so the
        shuffle is derived once (nothing is recorded unless every card agrees)."""
        try:
            seed = Seed.from_hex(text)
        except SeedError as error:
            self.find("error", "seed", said_of(error) or str(error), smazzata.pos)
            return False
        if self.state.phase is not Phase.COMMIT or self.state.seating is None:
            return False    # the TranscribeDeal that follows reports why
        return self.seeded_at_once(smazzata, seed)

    def seeded_at_once(self, smazzata: WrittenSmazzata, seed: Seed) -> bool:
        """`seeded_slowly`, with the deal derived once (tests/importers/notation/
        test_replay_seeds.py compares the two)."""
        commit, deal = CommitSeed(seed.commitment()), DealSmazzata(seed)
        commit_at, deal_at = self.at + ONE_STEP, self.at + 2 * ONE_STEP
        committed = self.tried(self.state, commit, commit_at)
        dealt = (committed if isinstance(committed, Refusal)
                 else self.tried(committed[1], deal, deal_at))
        if isinstance(committed, Refusal) or isinstance(dealt, Refusal):
            return self.seeded_slowly(smazzata, seed)
        if self.seed_problems(smazzata, dealt[0].events):
            return False
        self.accepted(commit, smazzata.pos, *committed, commit_at)
        self.accepted(deal, smazzata.attempts[0].pos, *dealt, deal_at)
        self.seed = seed
        return True

    def seed_problems(self, smazzata: WrittenSmazzata, events: tuple[MatchEvent, ...]) -> bool:
        """Whether the written cards or dealer disagree with the seed's deal (reported)."""
        dealt = [e for e in events if isinstance(e, SmazzataDealt)]
        problems = (*seed_problems(smazzata.attempts, dealt, smazzata.pos),
                    *dealer_problems(smazzata, self.state.dealer))
        self.problems(problems)
        return bool(problems)

    def seeded_slowly(self, smazzata: WrittenSmazzata, seed: Seed) -> bool:
        """`seeded` step by step, when the commitment or the deal is refused: the written cards
        compared with the seed's deal first, then each command acted (the refusal reported)."""
        state = self.state
        assert state.seating is not None
        if self.seed_problems(smazzata, state.engine.deal(state.ruleset, state.seating,
                                                          state.dealer, state.smazzata, seed)):
            return False
        pos = smazzata.attempts[0].pos
        if self.act(CommitSeed(seed.commitment()), smazzata.pos) is None \
                or self.act(DealSmazzata(seed), pos) is None:
            raise self.stop(pos)
        self.seed = seed
        return True

    def move(self, move: Move) -> None:
        if isinstance(move, WrittenPlay):
            self.play(move)
        elif isinstance(move, WrittenAccuso) and not self.declared(move):
            self.act(TranscribeAccuso(seat=move.seat, kind=move.kind, cards=move.cards,
                                      matta_value=move.matta_value), move.pos)
        elif isinstance(move, WrittenIncident):
            self.incident(move)

    def declared(self, accuso: WrittenAccuso) -> bool:
        """Under the automatic accuso (C8) the rules declared it already: a record written
        from events may still show it, and it is not declared twice."""
        game = self.state.game
        seats = getattr(game, "declared", ())
        automatic = getattr(self.state.ruleset, "accuso", None) == "automatico"
        return automatic and accuso.seat < len(seats) and bool(seats[accuso.seat])

    def play(self, play: WrittenPlay) -> None:
        seat = play.seat if play.seat is not None else self.state.to_move()
        if seat is None:
            self.find("error", "phase", say("{card} is played when no seat is to move",
                                             card=play.card.code), play.pos)
            raise self.stop(play.pos)
        capture = play.capture   # in deck order, as PlayCard holds it (none or one: as it is)
        move = PlayCard(seat, play.card, capture if len(capture) < 2 else tuple(sorted(capture)),
                        play.matta_value)
        command: MatchCommand = move
        if play.irregular is not None:
            command = RecordIrregularPlay(move, noted_by=self.arbiter, rule=self.marked(play))
        outcome = self.attempt(command, play.pos)
        internal = False
        if isinstance(outcome, Refusal):
            marked = play.irregular is not None
            message = setup.advice(self.state.rules.name, outcome.rule, outcome.message)
            # A refusal leaves the state as it was before the play: the alternatives are
            # listed from it only now, never for the plays the rules accept.
            legal = None if marked else self.legal(move)
            self.find("error", outcome.rule, message, play.pos, legal)
            # Go on from the play as it happened, so the plays after it are still checked.
            retry = move if marked else RecordIrregularPlay(move, noted_by=self.arbiter)
            outcome = self.attempt(retry, play.pos)
            internal = not marked
            if isinstance(outcome, Refusal):
                raise self.stop(play.pos)
        self.judged(play, outcome, internal)

    def marked(self, play: WrittenPlay) -> str | None:
        return setup.rule_of_marker(self.state.rules.name, play.irregular)

    def legal(self, move: PlayCard) -> tuple[str, ...] | None:
        """What the rules allowed the seat to move, in the notation: the card it played is in
        its hand, whatever else of it nobody saw (None: nothing of its hand was seen)."""
        state = self.state
        if state.phase is not Phase.PLAY or state.to_move() is None:
            return None
        game = state.game
        if state.rules.name == "cirulla" and move.seat == state.to_move():
            game = reveal_play(game, move.seat, move.card)
        legal = tuple(play_text(c) for c in state.engine.legal_commands(game))
        unseen = UNKNOWN in game.hands[state.to_move()]
        return None if unseen and not legal else legal

    def judged(self, play: WrittenPlay, decided: Decided, internal: bool) -> None:
        """The findings of an accepted play: the irregularities noted, the scopa marks."""
        events = decided.events
        if len(events) == 1:   # most plays: the card played alone, its scopa as marked or not
            played = events[0]
            if type(played) is not CardPlayed or played.scopa != play.scopa:
                self.scopa_mark(play, events)
            return
        if not any(isinstance(e, IrregularityNoted) for e in events):
            self.scopa_mark(play, events)
            return
        noted = [e for e in events if isinstance(e, IrregularityNoted)]
        if not internal:
            for fact in noted:
                self.find("finding", say("irregularity: {rule}", rule=fact.rule),
                          fact.message, play.pos)
        rule = self.marked(play)
        if noted and not internal and rule is not None and all(n.verified for n in noted) \
                and rule not in {n.rule for n in noted}:
            self.find("finding", "marker", say("marked !{marker}, but the rules find: {rules}",
                                               marker=play.irregular,
                                               rules=", ".join(n.rule for n in noted)), play.pos)
        self.scopa_mark(play, decided.events)

    def scopa_mark(self, play: WrittenPlay, events: tuple[MatchEvent, ...]) -> None:
        """A scopa made and not marked #, or marked and not made."""
        played = events[0] if events and isinstance(events[0], CardPlayed) \
            else next((e for e in events if isinstance(e, CardPlayed)), None)
        if played is not None and played.scopa != play.scopa:
            message = (say("{card} makes a scopa, not marked #", card=play.card.code)
                       if played.scopa else
                       say("{card} is marked # but makes no scopa", card=play.card.code))
            self.find("finding", "scopa", message, play.pos)

    def result(self) -> None:
        self.number = None
        for pos, message in setup.result_problems(self.match, self.state.result):
            self.find("finding", "Result", message, pos)

    def computed(self) -> tuple[int, int] | None:
        result = self.state.result
        return None if result is None else result.scores

    def validation(self, match_index: int) -> Validation:
        findings = tuple(sorted(self.findings, key=lambda f: (f.line, f.column)))
        accepted = not any(f.severity == "error" for f in findings)
        claimed, _ = setup.result_of(self.match)
        report = Report(source=self.match.source, match_index=match_index,
                        title=title_of(self.match), accepted=accepted, findings=findings,
                        smazzate=tuple(self.scores), result_claimed=claimed,
                        result_computed=self.computed())
        return Validation(report, tuple(self.actions) if accepted else None)


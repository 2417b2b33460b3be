"""The replay's incidents and the closing of a smazzata (replay.py): timeouts, abandons and
rulings with the events they refer to, then what follows a smazzata's last line — its seed
revealed, its claimed score recorded and checked against the score the rules computed.

Together because a ruling written after a smazzata's plays may refer to its seed's reveal or to
its claim, which are then recorded first.
"""

from __future__ import annotations

from domain.events import SmazzataEnded
from domain.record.commands import (
    ClaimScore,
    RecordAbandon,
    RecordRuling,
    RecordTimeout,
    RevealSeed,
)
from domain.record.match import Phase
from domain.text import say
from importers.notation import setup
from importers.notation.model import CLAIMED_BY_RECORD, WrittenIncident, WrittenSmazzata
from importers.notation.replay_core import ReplayCore
from importers.notation.report import SmazzataScore, category_of, claim_differences, score_rows

CLAIMED_BY = CLAIMED_BY_RECORD


class IncidentReplay(ReplayCore):
    def incident(self, incident: WrittenIncident) -> None:
        pos = incident.pos
        if incident.kind == "ruling":
            self.ruling(incident)
            return
        seat = incident.seat if incident.seat is not None else self.state.to_move()
        step = setup.elapsed_of(incident, self.clock)
        seed = self.seed if self.state.commitment is not None else None
        if seat is None or incident.kind not in ("timeout", "abandon"):
            self.find("error", incident.kind, say("{kind}: which seat?", kind=incident.kind),
                      pos)
        elif incident.kind == "timeout":
            self.act(RecordTimeout(seat=seat, seed=seed), pos, step)
        else:
            seen = self.at if incident.reason == "assenza" else None
            self.act(RecordAbandon(seat=seat, reason=incident.reason, last_seen=seen,
                                   seed=seed), pos, step)

    def ruling(self, incident: WrittenIncident) -> None:
        refers_to = None
        if incident.refers is not None:
            refers_to = self.referred(incident.refers)
            if refers_to is None:
                kind, ordinal = incident.refers
                self.find("error", "ruling", say("refers to {kind} {ordinal}, which the record "
                                                 "does not have before this ruling",
                                                 kind=kind, ordinal=ordinal), incident.pos)
                return
        self.act(RecordRuling(arbiter=incident.arbiter, reason=incident.reason,
                              kind=incident.ruling, smazzata=incident.smazzata,
                              adjustment=incident.adjustment, refers_to=refers_to),
                 incident.pos)

    def referred(self, refers: tuple[str, int]) -> int | None:
        """The version of the event a ruling refers to. A ruling after the end of a smazzata
        is written after its plays whether it came before or after the smazzata's seed was
        revealed or its score claimed: when it refers to an event not there yet, it came after
        them, so they are recorded first."""
        version = self.version_of(refers)
        if version is None and self.closing is not None and self.state.phase is not Phase.PLAY:
            self.finish()
            version = self.version_of(refers)
        return version

    def finish(self) -> None:
        """What follows the last line of the smazzata being replayed, once: its seed revealed
        (when dealt from one and over), its claimed score recorded (when it ended)."""
        smazzata, self.closing = self.closing, None
        if smazzata is None:
            return
        over = self.state.phase in (Phase.REVEAL, Phase.ENDED)
        if self.seed is not None and self.state.commitment is not None and over \
                and self.act(RevealSeed(self.seed), smazzata.pos) is None:
            raise self.stop(smazzata.pos)
        claim = smazzata.claim
        if claim is not None and self.ended(smazzata) is not None:
            rows = tuple((category_of(c), a, b) for c, a, b in claim.rows)
            self.act(ClaimScore(smazzata=smazzata.number, rows=rows, claimed_by=CLAIMED_BY),
                     claim.pos)

    def ended(self, smazzata: WrittenSmazzata) -> SmazzataEnded | None:
        return next((e for e in self.state.ended if e.number == smazzata.number), None)

    def close(self, smazzata: WrittenSmazzata) -> None:
        self.finish()
        ended = self.ended(smazzata)
        if ended is None and self.state.phase is Phase.PLAY:
            self.find("note", "incomplete", say("the record ends before smazzata {number} is "
                                                "over", number=smazzata.number + 1),
                      smazzata.pos)
        self.scores.append(self.scored(smazzata, ended))

    def scored(self, smazzata: WrittenSmazzata, ended: SmazzataEnded | None) -> SmazzataScore:
        claim = smazzata.claim
        rows = score_rows(claim.rows if claim else (), ended.breakdown if ended else ())
        pos = claim.pos if claim else smazzata.pos
        for message in claim_differences(rows) if ended is not None else ():
            self.find("finding", "claim", message, pos)
        if claim is not None and ended is None:
            self.find("note", "claim", say("the claimed score of smazzata {number} cannot be "
                                           "checked: the smazzata did not end",
                                           number=smazzata.number + 1), pos)
        return SmazzataScore(smazzata.number + 1, rows, claim is not None, ended is not None)

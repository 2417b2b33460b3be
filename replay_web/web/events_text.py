"""The timeline's entries: each recorded event as the data a viewer may see of it.

An entry is built from the event alone, so what it shows must be public once the event has
happened: a play, a capture, an accuso's shown cards, a trick, a score, a ruling. What is not
public is left out for everyone but the arbiter: the cards of a deal and of a draw (they are in
the hands, which `observe` shows to whom may see them), the seeds (a revealed seed gives the
whole deal, the cards a cappotto left unplayed included), the unplayed cards themselves.
The words are the templates' (translated there); entries carry kinds and values. Seats and
smazzate are numbered from 1, as in every message.
"""

from __future__ import annotations

from typing import Any

from domain import events as play
from domain.record import events as record

Entry = dict[str, Any]


def describe(event: object, step: int, arbiter: bool) -> Entry:
    """The entry of the event recorded as `step` (1 = the first event)."""
    entry: Entry = {"step": step, "kind": _KIND.get(type(event), "other")}
    entry.update(_FIELDS.get(type(event), _nothing)(event, arbiter))
    return entry


def _nothing(event: Any, arbiter: bool) -> Entry:
    return {}


def _created(e: record.MatchCreated, arbiter: bool) -> Entry:
    return {"players": list(e.players), "first_dealer": e.first_dealer + 1}


def _dealt(e: play.SmazzataDealt, arbiter: bool) -> Entry:
    entry: Entry = {"smazzata": e.number + 1, "dealer": e.dealer + 1, "attempt": e.attempt + 1,
                    "table": [c.code for c in e.table],
                    "briscola": None if e.briscola is None else e.briscola.code}
    if arbiter:
        entry["hands"] = [[c.code for c in hand] for hand in e.hands]
        entry["stock"] = [c.code for c in e.stock]
    return entry


def _annulled(e: play.DealAnnulled, arbiter: bool) -> Entry:
    return {"smazzata": e.number + 1, "attempt": e.attempt + 1, "reason": e.reason}


def _accuso(e: play.AccusoDeclared, arbiter: bool) -> Entry:
    return {"seat": e.seat + 1, "accuso": e.kind, "cards": [c.code for c in e.cards],
            "points": e.points, "matta_value": e.matta_value}


def _played(e: play.CardPlayed, arbiter: bool) -> Entry:
    return {"seat": e.seat + 1, "card": e.card.code, "capture": [c.code for c in e.capture],
            "matta_value": e.matta_value, "scopa": e.scopa}


def _hand(e: play.HandDealt, arbiter: bool) -> Entry:
    entry: Entry = {"sizes": [len(h) for h in e.hands]}
    if arbiter:
        entry["hands"] = [[c.code for c in hand] for hand in e.hands]
    return entry


def _drawn(e: play.CardsDrawn, arbiter: bool) -> Entry:
    entry: Entry = {"seats": [seat + 1 for seat, _ in e.draws]}
    if arbiter:
        entry["cards"] = [card.code for _, card in e.draws]
    return entry


def _trick(e: play.TrickTaken, arbiter: bool) -> Entry:
    return {"seat": e.seat + 1, "cards": [c.code for c in e.cards], "points": e.points}


def _ended(e: play.SmazzataEnded, arbiter: bool) -> Entry:
    entry: Entry = {"smazzata": e.number + 1, "scores": list(e.scores),
                    "breakdown": [[c, a, b] for c, a, b in e.breakdown]}
    if arbiter and e.outcome is not None and e.outcome.unplayed:
        entry["unplayed"] = [c.code for c in e.outcome.unplayed]
    return entry


def _committed(e: record.SeedCommitted, arbiter: bool) -> Entry:
    return {"smazzata": e.smazzata + 1, "commitment": e.commitment}


def _contributed(e: record.SeedContributed, arbiter: bool) -> Entry:
    return {"smazzata": e.smazzata + 1, "seat": e.seat + 1}


def _revealed(e: record.SeedRevealed, arbiter: bool) -> Entry:
    return {"smazzata": e.smazzata + 1, **({"seed": e.seed} if arbiter else {})}


def _match_seed(e: record.MatchSeedRevealed, arbiter: bool) -> Entry:
    return {"seed": e.seed} if arbiter else {}


def _irregularity(e: record.IrregularityNoted, arbiter: bool) -> Entry:
    return {"seat": e.seat + 1, "rule": e.rule, "refers_to": e.refers_to, "source": e.source,
            "message": e.message, "noted_by": e.noted_by, "verified": e.verified}


def _tags(e: record.TagsTranscribed, arbiter: bool) -> Entry:
    return {"tags": [[name, value] for name, value in e.tags], "content_hash": e.content_hash}


def _claim(e: record.ScoreClaimed, arbiter: bool) -> Entry:
    return {"smazzata": e.smazzata + 1, "rows": [[c, a, b] for c, a, b in e.rows],
            "claimed_by": e.claimed_by}


def _timeout(e: record.TimeoutRecorded, arbiter: bool) -> Entry:
    return {"seat": e.seat + 1, "elapsed_ms": e.elapsed_ms, "limit": e.limit,
            "awarded": list(e.awarded)}


def _abandoned(e: record.Abandoned, arbiter: bool) -> Entry:
    return {"seat": e.seat + 1, "reason": e.reason, "awarded": list(e.awarded)}


def _ruling(e: record.RulingRecorded, arbiter: bool) -> Entry:
    return {"arbiter": e.arbiter, "reason": e.reason, "ruling": e.kind,
            "smazzata": None if e.smazzata is None else e.smazzata + 1,
            "adjustment": list(e.adjustment),
            "refers_to": e.refers_to}


def _match_ended(e: record.MatchEnded, arbiter: bool) -> Entry:
    return {"scores": list(e.scores), "winner": None if e.winner is None else e.winner + 1,
            "reason": e.reason}


def _match_resumed(e: record.MatchResumed, arbiter: bool) -> Entry:
    return {"scores": list(e.scores), "smazzate": e.smazzate}


_KIND: dict[type, str] = {
    record.MatchCreated: "created", play.SmazzataDealt: "deal", play.DealAnnulled: "redeal",
    play.AccusoDeclared: "accuso", play.CardPlayed: "play", play.HandDealt: "hand",
    play.CardsDrawn: "draw", play.TrickTaken: "trick", play.SmazzataEnded: "smazzata_end",
    record.SeedCommitted: "seed_committed", record.SeedContributed: "seed_contributed",
    record.SeedRevealed: "seed_revealed", record.MatchSeedRevealed: "match_seed_revealed",
    record.IrregularityNoted: "irregularity", record.TimeoutRecorded: "timeout",
    record.Abandoned: "abandon", record.RulingRecorded: "ruling", record.MatchEnded: "end",
    record.MatchResumed: "resumed", record.TagsTranscribed: "tags", record.ScoreClaimed: "claim",
}

_FIELDS: dict[type, Any] = {
    record.MatchCreated: _created, play.SmazzataDealt: _dealt, play.DealAnnulled: _annulled,
    play.AccusoDeclared: _accuso, play.CardPlayed: _played, play.HandDealt: _hand,
    play.CardsDrawn: _drawn, play.TrickTaken: _trick, play.SmazzataEnded: _ended,
    record.SeedCommitted: _committed, record.SeedContributed: _contributed,
    record.SeedRevealed: _revealed, record.MatchSeedRevealed: _match_seed,
    record.IrregularityNoted: _irregularity, record.TimeoutRecorded: _timeout,
    record.Abandoned: _abandoned, record.RulingRecorded: _ruling,
    record.MatchEnded: _match_ended, record.MatchResumed: _match_resumed,
    record.TagsTranscribed: _tags, record.ScoreClaimed: _claim,
}

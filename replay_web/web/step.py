"""One step of one match as one viewer saw it: the data every page and the JSON API show.

Everything a response shows of a step comes from here, so one function decides what leaves the
server. For a seat or the public it is built only from the record up to the step (the events
before it and the engine's `observe`, which hides what the viewer could not see): a card hidden
from the viewer never enters it, and two records that differ only in those cards give the same
data, byte for byte (tests/replay_web/web/test_no_leak.py); the audit's findings are shown under
the same rule (replay_web/web/findings.py). The arbiter sees everything: every
hand, the stock, the whole record with what comes after the step, the legal alternatives of
the next play and the clock.

Seats are numbered from 1 here, as in every message; smazzate too (the domain counts both
from 0). Cards are their compact code
(`7d`, `Rc`), the one the notation and the store use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain.cards import Card
from domain.events import CardPlayed, SmazzataDealt
from domain.game import PlayCard
from domain.record.events import MatchCreated
from domain.record.match import MatchState
from domain.viewing import ARBITER, PUBLIC, Observation, Viewer
from replay_web.web.events_text import describe
from replay_web.web.findings import step_findings
from replay_web.web.records import Replay

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class ViewName:
    """A viewer as the URL names it: `seat1`…`seat4`, `public`, `arbiter`."""

    viewer: Viewer

    @property
    def text(self) -> str:
        if self.viewer is ARBITER:
            return "arbiter"
        if self.viewer is PUBLIC:
            return "public"
        assert isinstance(self.viewer, int)
        return f"seat{self.viewer + 1}"


def parse_view(text: str | None, players: int) -> ViewName | None:
    """The viewer a `view=` parameter names; None when it names none at this table."""
    if text is None or text == "public":
        return ViewName(PUBLIC)
    if text == "arbiter":
        return ViewName(ARBITER)
    if text.startswith("seat") and text.isascii() and text[4:].isdigit() and len(text) == 5:
        seat = int(text[4:]) - 1
        if 0 <= seat < players:
            return ViewName(seat)
    return None


def codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def step_data(replay: Replay, step: int, view: ViewName) -> JSON:
    """What `view` saw after the first `step` events of `replay` (1 <= step <= last: step 1
    is the match created)."""
    line = replay.line
    observation = line.observe(step, view.viewer)
    state = line.state(step)
    arbiter = view.viewer is ARBITER
    shown_events = range(1, replay.last + 1) if arbiter else range(1, step + 1)
    data: JSON = {
        "match": match_header(replay.created, replay),
        "step": step,
        "last": replay.last,
        "view": view.text,
        "smazzata": observation.number + 1,
        "dealer": observation.dealer + 1,
        "to_move": _numbered(state.to_move()),
        "table": table_data(observation, replay.created),
        "events": (
            [describe(replay.events[v - 1], v, True) for v in shown_events] if arbiter
            else seen_entries(replay, step, observation)),
        "smazzate": smazzate_data(state),
        "running": running_totals(state),
        "result": result_data(state) if arbiter or step == replay.last else None,
        "tags": dict(state.tags),
        "findings": step_findings(replay, step, view.viewer),
    }
    if arbiter:
        data["arbiter"] = arbiter_data(replay, step)
    return data


def seen_entries(replay: Replay, step: int, obs: Observation) -> list[JSON]:
    """The timeline up to the step as a seat or the public saw it. Without carte viste the
    cards of the earlier mani of the smazzata in play are no longer seen ("le carte viste
    nelle precedenti mani" stay shown only with that option): those plays and tricks keep who
    played and how many cards were taken, not which. A finished smazzata is shown whole: its
    piles are counted in the open."""
    entries = [describe(replay.events[v - 1], v, False) for v in range(1, step + 1)]
    if obs.seen or not obs.dealt or obs.finished or _carte_viste(replay.created):
        return entries
    deal = max((i for i, e in enumerate(entries) if e["kind"] == "deal"), default=0)
    plays = [e for e in entries[deal:] if e["kind"] == "play"]
    for entry in plays[:len(plays) - len(obs.mano)]:
        entry.update(card=None, captured=len(entry["capture"]), capture=[])
    for entry in entries[deal:]:
        if entry["kind"] == "trick":
            entry.update(taken=len(entry["cards"]), cards=[])
    return entries


def _carte_viste(created: MatchCreated) -> bool:
    return bool(created.visibility and created.visibility.carte_viste)


def _numbered(seat: int | None) -> int | None:
    return None if seat is None else seat + 1


def match_header(created: MatchCreated, replay: Replay) -> JSON:
    """What is public of a match from its first event: the table, not a card."""
    visibility, provenance = created.visibility, created.provenance
    return {
        "id": str(replay.match_id),
        "game": created.game,
        "players": list(created.players),
        "sides": [s + 1 for s in created.sides],
        "tournament": created.tournament,
        "round": created.round,
        "table": created.table,
        "format": dict(sorted(created.match_format.items())),
        "ruleset": dict(sorted(created.ruleset.items())),
        "provenance": "live" if provenance is None else provenance.kind,
        "source": None if provenance is None else provenance.source,
        "importer": None if provenance is None else provenance.importer,
        "carte_viste": bool(visibility and visibility.carte_viste),
        "carte_scoperte": bool(visibility and visibility.carte_scoperte),
        "created": replay.moments[0].isoformat(),
    }


def table_data(obs: Observation, created: MatchCreated) -> JSON:
    """The table as the viewer sees it: a hand is its cards or only its size."""
    seats = []
    for seat, hand in enumerate(obs.hands):
        seats.append({
            "seat": seat + 1,
            "player": created.players[seat],
            "side": created.sides[seat] + 1,
            "hand": None if hand is None else codes(hand),
            "hand_size": obs.hand_sizes[seat],
            "shown": codes(obs.shown[seat]),
        })
    return {
        "dealt": obs.dealt,
        "finished": obs.finished,
        "seats": seats,
        "table": codes(obs.table),
        "briscola": None if obs.briscola is None else obs.briscola.code,
        "stock_size": obs.stock_size,
        "stock": None if obs.stock is None else codes(obs.stock),
        "captured": list(obs.captured_sizes),
        "scope": list(obs.scope),
        "points": list(obs.points),
        "accusi": [{"seat": a.seat + 1, "kind": a.kind, "cards": codes(a.cards),
                    "points": a.points, "matta_value": a.matta_value} for a in obs.accusi],
        "mano": [play_data(p) for p in obs.mano],
        "seen": [play_data(p) for p in obs.seen],
        "last_hand_face_up": obs.last_hand_face_up,
    }


def play_data(play: CardPlayed) -> JSON:
    return {"seat": play.seat + 1, "card": play.card.code, "capture": codes(play.capture),
            "matta_value": play.matta_value, "scopa": play.scopa}


def smazzate_data(state: MatchState) -> list[JSON]:
    """The smazzate ended by this step, each with its breakdown per side."""
    return [{"number": e.number + 1, "scores": list(e.scores),
             "annulled": e.number in state.annulled,
             "breakdown": [{"category": c, "points": [a, b]} for c, a, b in e.breakdown]}
            for e in state.ended]


def running_totals(state: MatchState) -> list[list[int]]:
    """The points of each side after each ended smazzata (an annulled one counts 0)."""
    totals = [0, 0]
    series = []
    for ended in state.ended:
        if ended.number not in state.annulled:
            totals = [totals[0] + ended.scores[0], totals[1] + ended.scores[1]]
        series.append(list(totals))
    return series


def result_data(state: MatchState) -> JSON | None:
    result = state.result
    if result is None:
        return None
    settlement = result.settlement
    return {"scores": list(result.scores),
            "winner": None if result.winner is None else result.winner + 1,
            "reason": result.reason, "smazzate": result.smazzate,
            "adjustment": list(state.adjustment),
            "mp": None if settlement is None else settlement.mp,
            "unit": None if settlement is None else settlement.unit,
            "how": None if settlement is None else settlement.how}


def arbiter_data(replay: Replay, step: int) -> JSON:
    """The arbiter's extras at a step: the next play's legal alternatives and the clock."""
    line = replay.line
    state = line.state(step)
    following = replay.events[step] if step < replay.last else None
    alternatives = line.legal_commands(step)
    played = following if isinstance(following, CardPlayed) else None
    return {
        "head": replay.head,
        "recorded_by": replay.recorded_by[step - 1] if step else None,
        "legal": [command_text(c) for c in alternatives],
        "next_play": None if played is None else play_data(played),
        "forced": forced(alternatives, played),
        "clock": clock_data(replay, step, state),
    }


def command_text(command: object) -> JSON:
    if isinstance(command, PlayCard):
        return {"seat": command.seat + 1, "card": command.card.code,
                "capture": codes(command.capture), "matta_value": command.matta_value}
    return {"seat": command.seat + 1, "accuso": command.kind}   # type: ignore[attr-defined]


def forced(alternatives: Sequence[object], played: CardPlayed | None) -> JSON | None:
    """For the next play: how many ways the card played could be played, and whether a capture
    was forced on it (every legal way of playing that card captures)."""
    if played is None:
        return None
    ways = [c for c in alternatives if isinstance(c, PlayCard) and c.card == played.card]
    captures = [c for c in ways if c.capture]
    return {"ways": len(ways), "captures": len(captures),
            "capture_forced": bool(ways) and len(captures) == len(ways)}


def clock_data(replay: Replay, step: int, state: MatchState) -> JSON:
    """Per seat: thinking time used so far and what is left of the bank (or of the move)."""
    control = replay.created.time_control
    seats = []
    for seat, used in enumerate(state.bank_used_ms):
        left = None if control.bank is None else control.bank * 1000 - used
        seats.append({"seat": seat + 1, "used_ms": used, "bank_left_ms": left})
    thinking = None
    if step < replay.last and state.last_at is not None:
        thinking = int((replay.moments[step] - state.last_at).total_seconds() * 1000)
    return {"per_move_s": control.per_move, "bank_s": control.bank,
            "abandon_after_s": control.abandon_after, "seats": seats,
            "next_move_ms": thinking}


def smazzata_starts(replay: Replay) -> list[int]:
    """The steps right after each deal: where ↑ ↓ go."""
    return [v for v, e in enumerate(replay.events, start=1) if isinstance(e, SmazzataDealt)]

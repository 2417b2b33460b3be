"""A readable log of a Cirulla smazzata: the deal, every play and capture, accusi, scope, score."""

from __future__ import annotations

from collections.abc import Iterator

from domain.cards import Card, Style, format_cards
from domain.cirulla.match import SmazzataPlayed
from domain.events import (
    AccusoDeclared,
    CardPlayed,
    DealAnnulled,
    HandDealt,
    PlayEvent,
    SmazzataDealt,
    SmazzataEnded,
)
from domain.seating import Seating


def render_smazzata(played: SmazzataPlayed, seating: Seating, style: Style) -> Iterator[str]:
    yield ""
    yield (f"== Smazzata {played.number + 1}: mazziere posto {played.dealer}, "
           f"seme {played.seed.hex} (impegno {played.seed.commitment()[:16]}...)")
    for event in played.events:
        line = render_event(event, seating, style)
        if line:
            yield line
    yield "   Punteggio:      " + "  ".join(f"L{s}" for s in seating.sides)
    for category, a, b in played.breakdown.rows:
        yield f"   {category:<15} {a:>3} {b:>3}"
    totals = played.breakdown.totals
    yield f"   {'totale':<15} {totals[0]:>3} {totals[1]:>3}"
    if played.breakdown.cappotto_side is not None:
        yield f"   CAPPOTTO della linea {played.breakdown.cappotto_side}"


def _cards(cards: tuple[Card, ...], style: Style) -> str:
    return format_cards(cards, style) or "-"


def render_event(event: PlayEvent, seating: Seating, style: Style) -> str | None:
    if isinstance(event, SmazzataDealt):
        hands = "; ".join(f"posto {s}: {_cards(h, style)}" for s, h in enumerate(event.hands))
        return (f"   Distribuzione (tentativo {event.attempt}): {hands}; "
                f"tavola: {_cards(event.table, style)}")
    if isinstance(event, DealAnnulled):
        return f"   A monte: {event.reason}"
    if isinstance(event, HandDealt):
        hands = "; ".join(f"posto {s}: {_cards(h, style)}" for s, h in enumerate(event.hands))
        return f"   Nuova mano dal mazzo: {hands}"
    if isinstance(event, AccusoDeclared):
        matta = f", matta = {event.matta_value}" if event.matta_value is not None else ""
        return (f"   posto {event.seat} accusa {event.kind} ({_cards(event.cards, style)}): "
                f"+{event.points} linea {seating.side_of(event.seat)}{matta}")
    if isinstance(event, CardPlayed):
        return _render_play(event, style)
    if isinstance(event, SmazzataEnded):
        if event.leftover_to is not None:
            return f"   Le carte rimaste in tavola vanno alla linea {event.leftover_to}"
        return None
    return None


def _render_play(event: CardPlayed, style: Style) -> str:
    card = event.card.render(style)
    if not event.capture:
        return f"   posto {event.seat} gioca {card} e scarta"
    scopa = "  SCOPA!" if event.scopa else ""
    return f"   posto {event.seat} gioca {card} e prende {_cards(event.capture, style)}{scopa}"

"""The stored JSON of every event type is a schema: pinned here, byte for byte.

A change that alters a line of golden/stored_events.jsonl breaks every record already stored:
add a new class_version with an upcaster instead. `python -m tests.projections.store.test_golden`
rewrites the file (review the diff: only new lines may appear).
"""

from __future__ import annotations

import json
from pathlib import Path
from uuid import UUID

import pytest

from domain.cards import parse_card, parse_cards
from domain.events import (
    AccusoDeclared,
    CardPlayed,
    CardsDrawn,
    DealAnnulled,
    HandDealt,
    SmazzataDealt,
    SmazzataEnded,
    TrickTaken,
)
from domain.record.events import (
    Abandoned,
    MatchCreated,
    MatchEnded,
    MatchScheduled,
    RulingRecorded,
    SeedCommitted,
    SeedRevealed,
    TimeControl,
    TimeoutRecorded,
    TournamentCreated,
)
from projections.store.canonical import canonical_json
from projections.store.facts import FACT_CLASSES, FACT_NAMED, StoredFact

GOLDEN = Path(__file__).parent / "golden" / "stored_events.jsonl"
STREAM = UUID("5eed0000-0000-4000-8000-000000000001")
C = parse_cards

SAMPLES: dict[str, object] = {
    "MatchCreated": MatchCreated(
        game="cirulla", ruleset={"redeal": "due-assi", "accuso": "automatico"},
        players=("Anna", "Bruno", "Carla", "Dario"), sides=(0, 1, 0, 1),
        match_format={"kind": "target", "length": "21"},
        time_control=TimeControl(per_move=60, bank=900, abandon_after=300), first_dealer=2,
        tournament="5eed0000-0000-4000-8000-0000000000aa", round=1, table=3),
    "SeedCommitted": SeedCommitted(smazzata=1, commitment="c0" * 32),
    "SmazzataDealt": SmazzataDealt(
        number=1, dealer=0, attempt=1, seed_commitment="c0" * 32,
        hands=(C("Ad 2d 3d"), C("4c 5c 6c")), table=C("7b Fb Cb Rb"),
        stock=C("As 2s 3s"), briscola=parse_card("7s")),
    "DealAnnulled": DealAnnulled(number=1, attempt=0, reason="due assi in tavola"),
    "AccusoDeclared": AccusoDeclared(seat=1, kind="cirulla", cards=C("Ad 7c 2b"), points=3,
                                     matta_value=1),
    "CardPlayed": CardPlayed(seat=0, card=parse_card("7d"), capture=C("3b 4s"),
                             matta_value=None, scopa=True),
    "HandDealt": HandDealt(hands=(C("Ad 2d 3d"), C("4c 5c 6c"))),
    "CardsDrawn": CardsDrawn(draws=((1, parse_card("Rb")), (0, parse_card("2c")))),
    "TrickTaken": TrickTaken(seat=1, cards=C("Ab 3b"), points=21),
    "SmazzataEnded": SmazzataEnded(number=1, scores=(7, 4),
                                   breakdown=(("scope", 2, 1), ("primiera", 1, 0)),
                                   leftover_to=0),
    "SeedRevealed": SeedRevealed(smazzata=1, seed="5eed" * 8),
    "TimeoutRecorded": TimeoutRecorded(seat=1, waiting_since="2026-11-22T18:00:00.000000Z",
                                       elapsed_ms=60250, bank_used_ms=12000, limit="per_move",
                                       awarded=(6, 0)),
    "Abandoned": Abandoned(seat=0, reason="assenza", last_seen="2026-11-22T18:00:00.000000Z",
                           absent_ms=305000, awarded=(0, 6)),
    "RulingRecorded": RulingRecorded(arbiter="Rossi", reason="carta scoperta", kind="adjust-score",
                                     smazzata=None, adjustment=(-1, 0), refers_to=12),
    "MatchEnded": MatchEnded(scores=(21, 17), winner=0, reason="target", smazzate=4),
    "TournamentCreated": TournamentCreated(name="Torneo di Natale", game="cirulla"),
    "MatchScheduled": MatchScheduled(round=1, table=3,
                                     match="5eed0000-0000-4000-8000-000000000001"),
}


def _stored_line(name: str) -> str:
    fact = StoredFact.of(STREAM, 7, "2026-11-22T18:00:00.000000Z", "ab" * 32, SAMPLES[name])
    return canonical_json(fact.record()).decode("utf-8")


def _golden() -> dict[str, str]:
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    return {json.loads(line)["type"]: line for line in lines}


def test_every_stored_event_type_has_a_golden_sample() -> None:
    assert sorted(SAMPLES) == sorted(c.__name__ for c in FACT_CLASSES)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_stored_json_of_each_event_type_is_pinned(name: str) -> None:
    assert _stored_line(name) == _golden()[name]


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_pinned_json_decodes_back_to_the_same_event(name: str) -> None:
    record = json.loads(_golden()[name])
    fact = FACT_NAMED[record["type"]](**record)
    assert fact.to_domain() == SAMPLES[name]
    assert record["class_version"] == FACT_NAMED[name].class_version


if __name__ == "__main__":
    # Regenerate the golden file after adding an event type or a class_version:
    # .venv/bin/python -m tests.projections.store.test_golden, then review the diff.
    GOLDEN.write_text("".join(_stored_line(n) + "\n" for n in SAMPLES), encoding="utf-8")

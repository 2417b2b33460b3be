"""The stored JSON of every event type is a schema: pinned here, byte for byte.

golden/stored_events.jsonl holds the records as the first layout wrote them (class_version 1, no
envelope), golden/stored_events_v2.jsonl those of the second (every type with its `recorded_by`
envelope, MatchCreated at class_version 2 with its options as strings): they are never
rewritten, and must keep reading, through the upcasters, as the events they were.
golden/stored_events_v3.jsonl those of the third (MatchCreated 3: options as JSON numbers and
booleans). golden/stored_events_v4.jsonl those of the fourth (TournamentCreated 2: the VP table
it declares; TimeoutRecorded 2 and Abandoned 2: the points kept from the interrupted smazzata).
golden/stored_events_v5.jsonl pins the layout written today: every type at its current
class_version (RulingRecorded 2: the arbiter's signature; the arbiters' keys). A change that
alters a pinned line breaks every record already stored: raise the class_version with an
upcaster instead. `python -m tests.projections.store.test_golden` rewrites the v5 file (review
the diff: only new lines may appear).
"""

from __future__ import annotations

import json
from pathlib import Path
from uuid import UUID

import pytest
from eventsourcing.persistence import StoredEvent

from domain.cards import UNKNOWN, parse_card, parse_cards
from domain.events import (
    AccusoDeclared,
    CardPlayed,
    CardsDrawn,
    DealAnnulled,
    HandDealt,
    SmazzataDealt,
    SmazzataEnded,
    SmazzataOutcome,
    TrickTaken,
)
from domain.record.envelope import RecordedBy
from domain.record.events import (
    Abandoned,
    ArbiterKeyRegistered,
    ArbiterKeyRevoked,
    DeclaredVpTable,
    IrregularityNoted,
    MatchCreated,
    MatchEnded,
    MatchResumed,
    MatchScheduled,
    MatchSeedRevealed,
    MatchSettlement,
    Provenance,
    RulingRecorded,
    RulingSignature,
    ScoreClaimed,
    SeedCommitted,
    SeedContributed,
    SeedRevealed,
    SessionSeedRevealed,
    TableVisibility,
    TagsTranscribed,
    TimeControl,
    TimeoutRecorded,
    TournamentCreated,
    TournamentSeedsCommitted,
)
from domain.tarocchi import events as tarocchi
from domain.tarocchi.entrants import Entrant
from domain.tarocchi.seats import TableSeating
from projections.store.app import CanonicalTranscoder, ChainMapper
from projections.store.canonical import canonical_json
from projections.store.facts import FACT_CLASSES, FACT_NAMED, TOPIC_OF, StoredFact
from tests.replacing import replace

GOLDEN_V1 = Path(__file__).parent / "golden" / "stored_events.jsonl"
GOLDEN_V2 = Path(__file__).parent / "golden" / "stored_events_v2.jsonl"
GOLDEN_V3 = Path(__file__).parent / "golden" / "stored_events_v3.jsonl"
GOLDEN_V4 = Path(__file__).parent / "golden" / "stored_events_v4.jsonl"
GOLDEN = Path(__file__).parent / "golden" / "stored_events_v5.jsonl"
BY = RecordedBy("importer", "verbale-import 0.2.0", "torneo.txt:12")
STREAM = UUID("5eed0000-0000-4000-8000-000000000001")
C = parse_cards

V1: dict[str, object] = {
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


# The second layout: the new fields filled, the new types, a transcribed deal.
V2: dict[str, object] = {
    **V1,
    "MatchCreated": replace(
        V1["MatchCreated"],  # type: ignore[type-var]
        provenance=Provenance("transcribed", source="torneo.txt", importer="verbale-import 0.2.0"),
        visibility=TableVisibility(carte_viste=True, carte_scoperte=False),
        match_seed_commitment=None),
    "SmazzataDealt": SmazzataDealt(
        number=1, dealer=0, attempt=0, seed_commitment=None,
        hands=(C("Ad 2d 3d"), (UNKNOWN, UNKNOWN, parse_card("6c"))), table=C("7b Fb Cb Rb"),
        stock=(UNKNOWN,) * 3),
    "SmazzataEnded": replace(
        V1["SmazzataEnded"],  # type: ignore[type-var]
        outcome=SmazzataOutcome(last_capture=0, cappotto=None, cappotto_ends_match=False,
                                vinco_subito=None)),
    "MatchEnded": replace(V1["MatchEnded"],  # type: ignore[type-var]
                          settlement=MatchSettlement(how="target", mp=4, unit="punti",
                                                     points=(21, 17))),
    "SeedContributed": SeedContributed(smazzata=1, seat=2, contribution="a1b2c3d4"),
    "MatchSeedRevealed": MatchSeedRevealed(seed="5eed" * 8),
    "IrregularityNoted": IrregularityNoted(
        refers_to=12, seat=1, rule="C16 presa obbligata",
        source="Se il giocatore può fare almeno un tipo di presa è costretto a prendere e non "
               "può quindi scartare la carta.",
        message="4d discarded although it had to capture", noted_by="Rossi (arbitro)",
        verified=True),
}

# The third layout: MatchCreated's options typed (class_version 3), with a flag and an integer
# ruleset option to show it.
V3: dict[str, object] = {
    **V2,
    "MatchCreated": replace(
        V2["MatchCreated"],  # type: ignore[type-var]
        ruleset={"accuso": "automatico", "piccola_fino_al": "7", "redeal": "due-assi"},
        match_format={"cappotto_ends": "true", "kind": "target", "ko": "false",
                      "length": "21"}),
}
# The fourth layout: a tournament declaring its own VP table (TournamentCreated 2), and a
# forfeit's points kept from the interrupted smazzata (TimeoutRecorded 2, Abandoned 2).
V4: dict[str, object] = {
    **V3,
    "TimeoutRecorded": replace(V1["TimeoutRecorded"], kept=(3, 1)),  # type: ignore[type-var]
    "Abandoned": replace(V1["Abandoned"], kept=(0, 0)),  # type: ignore[type-var]
    "TournamentCreated": TournamentCreated(
        name="Torneo di Natale", game="cirulla",
        vp_table=DeclaredVpTable(name="natale.toml", text='name = "natale"\nversion = 1\n')),
    "TagsTranscribed": TagsTranscribed(
        tags=(("Event", "Torneo di Natale"), ("Date", "2026.12.??"), ("Result", "21-17")),
        content_hash="c4" * 32),
    "ScoreClaimed": ScoreClaimed(smazzata=1, rows=(("scope", 2, 1), ("primiera", 1, 0)),
                                 claimed_by="Rossi (segnapunti)"),
}
# The layout of today: a ruling signed by its arbiter (RulingRecorded 2) and the arbiters' keys.
SAMPLES: dict[str, object] = {
    **V4,
    "RulingRecorded": replace(V1["RulingRecorded"],  # type: ignore[type-var]
                              signature=RulingSignature(key="5e" * 32, value="51" * 64)),
    "ArbiterKeyRegistered": ArbiterKeyRegistered(arbiter="Rossi", key="5e" * 32,
                                                 public_key="9b" * 32),
    "ArbiterKeyRevoked": ArbiterKeyRevoked(arbiter="Rossi", key="5e" * 32,
                                           reason="arbiter removed"),
    "MatchResumed": MatchResumed(scores=(12, 9), smazzate=3),
    "TournamentSeedsCommitted": TournamentSeedsCommitted(
        root="7a" * 32, sessions=3, reference="drand quicknet round 12345678",
        mixing="verbale/session-v1"),
    "SessionSeedRevealed": SessionSeedRevealed(session=2, secret="5e" * 16, commitment="c0" * 32,
                                               path=("a1" * 32, "b2" * 32),
                                               public_value="9f3c" * 16),
}
# A Tarocchi tournament's events (docs/tarocchi.md), new in today's layout.
TAROCCHI: dict[str, object] = {
    "TarocchiTournamentCreated": tarocchi.TarocchiTournamentCreated(
        name="Torneo di Caltagirone",
        entrants=(Entrant("Turi"), Entrant("Fratelli Russo", ("Nina", "Saro")), Entrant("Melo"),
                  Entrant("Pina")),
        recomposition="classifica", final="fasce", seating_commitment="c0" * 32,
        sorteggio_commitment="c1" * 32),
    "SeatingDrawn": tarocchi.SeatingDrawn(seed="5eed" * 8, trumps=(3, 1, 4, 2),
                                          numbers=(2, 4, 1, 3)),
    "TurnSeated": tarocchi.TurnSeated(turn=2, basis="classifica",
                                      tables=(TableSeating("A", (1, 2, 3, 4)),),
                                      order=(1, 2, 3, 4)),
    "PlayerLineWritten": tarocchi.PlayerLineWritten(
        player=2, turn=1, smazzata=3, plus=(("RIM", 1), ("PIC", 2)), minus=(("VAN", 1),),
        diff=2, molt=1, penalty=0, parz=2, tot=5, role="chiamante", validator=3,
        member="Nina", source="torneo.txt:12"),
    "TableLineWritten": tarocchi.TableLineWritten(
        turn=1, table="A", smazzata=2, dealer=1, caller=None, partner=None, solista=3,
        solista_cards=15, totals=((1, 0), (2, 0), (3, 2), (4, -2)), compiler=1, validator=3,
        source="torneo.txt:40"),
    "PenaltyImposed": tarocchi.PenaltyImposed(
        player=3, turn=1, smazzata=2, code="numero-carte", points=2, fate="conteggiata",
        arbiter="Rossi", reason="14 carte",
        signature=RulingSignature(key="5e" * 32, value="52" * 64)),
    "SorteggioRevealed": tarocchi.SorteggioRevealed(seed="5eed" * 8),
}
SAMPLES.update(TAROCCHI)
NEW_V4 = ("ScoreClaimed", "TagsTranscribed")   # types new in the fourth layout
NEW_V5 = ("ArbiterKeyRegistered", "ArbiterKeyRevoked", "TournamentSeedsCommitted",
          "SessionSeedRevealed", "MatchResumed", *TAROCCHI)   # types new in today's layout
CHANGED_V5 = ("RulingRecorded",)
CHANGED = ("MatchCreated", "SmazzataDealt", "SmazzataEnded", "MatchEnded")
CHANGED_V3 = ("MatchCreated",)
CHANGED_V4 = ("TournamentCreated", "TimeoutRecorded", "Abandoned")


def _stored_line(name: str) -> str:
    fact = StoredFact.of(STREAM, 7, "2026-11-22T18:00:00.000000Z", "ab" * 32, SAMPLES[name], BY)
    return canonical_json(fact.record()).decode("utf-8")


def _lines(path: Path) -> dict[str, str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return {json.loads(line)["type"]: line for line in lines}


def _read(line: str) -> object:
    """A stored line read as the store reads it: the library's mapper, through the upcasters."""
    record = json.loads(line)
    row = StoredEvent(STREAM, record["version"], TOPIC_OF[record["type"]], line.encode("utf-8"))
    fact = ChainMapper(transcoder=CanonicalTranscoder()).to_domain_event(row)
    assert isinstance(fact, StoredFact)
    return fact.to_domain()


def test_every_stored_event_type_has_a_golden_sample_of_today() -> None:
    assert sorted(SAMPLES) == sorted(c.__name__ for c in FACT_CLASSES)
    assert sorted(_lines(GOLDEN)) == sorted(SAMPLES)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_stored_json_of_each_event_type_is_pinned(name: str) -> None:
    assert _stored_line(name) == _lines(GOLDEN)[name]


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_pinned_json_reads_back_as_the_same_event_and_envelope(name: str) -> None:
    line = _lines(GOLDEN)[name]
    record = json.loads(line)
    assert record["class_version"] == FACT_NAMED[name].class_version
    assert _read(line) == SAMPLES[name]
    fact = FACT_NAMED[record["type"]](**record)
    assert fact.envelope() == BY


@pytest.mark.parametrize("name", sorted(V3))
def test_every_version_3_record_still_reads_as_the_event_it_was(name: str) -> None:
    """The third layout, as stored before TournamentCreated's class_version 2: a tournament
    of then reads with no declared VP table (None: the standard table)."""
    line = _lines(GOLDEN_V3)[name]
    record = json.loads(line)
    assert record["class_version"] == (3 if name in CHANGED_V3 else 2 if name in CHANGED
                                       else 1)
    assert _read(line) == V3[name]
    assert FACT_NAMED[name](**record).envelope() == BY


def test_a_version_1_tournament_created_reads_as_declaring_the_standard_table() -> None:
    for path in (GOLDEN_V1, GOLDEN_V2, GOLDEN_V3):
        created = _read(_lines(path)["TournamentCreated"])
        assert isinstance(created, TournamentCreated) and created.vp_table is None


@pytest.mark.parametrize("name", sorted(V2))
def test_every_version_2_record_still_reads_as_the_event_it_was(name: str) -> None:
    """The second layout, as stored before MatchCreated's class_version 3: its options are
    strings, and read as the same options."""
    line = _lines(GOLDEN_V2)[name]
    record = json.loads(line)
    assert record["class_version"] == (2 if name in CHANGED else 1)
    assert _read(line) == V2[name]
    assert FACT_NAMED[name](**record).envelope() == BY


def test_a_version_2_match_created_is_upcast_to_typed_options() -> None:
    """What the upcaster makes of the strings of a v2 MatchCreated: the v3 layout."""
    line = _lines(GOLDEN_V2)["MatchCreated"]
    assert '"length":"21"' in line
    record = json.loads(line)
    row = StoredEvent(STREAM, 7, TOPIC_OF["MatchCreated"], line.encode("utf-8"))
    fact = ChainMapper(transcoder=CanonicalTranscoder()).to_domain_event(row)
    assert isinstance(fact, StoredFact)
    assert fact.data["match_format"] == {"kind": "target", "length": 21}
    assert fact.data["ruleset"] == record["data"]["ruleset"]


@pytest.mark.parametrize("name", sorted(V1))
def test_every_version_1_record_still_reads_as_the_event_it_was(name: str) -> None:
    """The first layout, as stored before class_version 2: no envelope, no new fields. Read
    through the upcasters, a field added since is None ("not recorded")."""
    line = _lines(GOLDEN_V1)[name]
    record = json.loads(line)
    assert record["class_version"] == 1 and "recorded_by" not in record
    assert _read(line) == V1[name]
    assert FACT_NAMED[name](**record).envelope() is None


def test_the_changed_types_are_at_their_version_and_their_older_records_differ() -> None:
    for name in CHANGED:
        today = 3 if name in CHANGED_V3 else 2
        assert FACT_NAMED[name].class_version == today
        assert json.loads(_lines(GOLDEN_V1)[name])["class_version"] == 1
        assert json.loads(_lines(GOLDEN_V2)[name])["class_version"] == 2
        assert json.loads(_lines(GOLDEN_V3)[name])["class_version"] == today
        assert json.loads(_lines(GOLDEN)[name])["class_version"] == today
    for name in CHANGED_V4:
        assert FACT_NAMED[name].class_version == 2
        for older in (GOLDEN_V1, GOLDEN_V2, GOLDEN_V3):
            assert json.loads(_lines(older)[name])["class_version"] == 1
    assert json.loads(_lines(GOLDEN)["TournamentCreated"])["data"]["vp_table"] == {
        "name": "natale.toml", "text": 'name = "natale"\nversion = 1\n'}
    assert json.loads(_lines(GOLDEN)["TimeoutRecorded"])["data"]["kept"] == [3, 1]
    created = json.loads(_lines(GOLDEN)["MatchCreated"])["data"]
    assert created["match_format"] == {"cappotto_ends": True, "kind": "target", "ko": False,
                                       "length": 21}
    assert created["ruleset"]["piccola_fino_al"] == 7


def test_the_v2_golden_file_is_frozen() -> None:
    """Every line of the v2 file but MatchCreated's is also the v3 file's line: only a raised
    class_version changes a layout."""
    older, later = _lines(GOLDEN_V2), _lines(GOLDEN_V3)
    assert sorted(older) == sorted(later)
    assert [n for n in sorted(later) if older[n] != later[n]] == list(CHANGED_V3)


def test_the_v3_golden_file_is_frozen() -> None:
    """Every line of the v3 file but those of CHANGED_V4 is also today's line; today's file
    only adds the types new since (NEW_V4)."""
    older, today = _lines(GOLDEN_V3), _lines(GOLDEN_V4)
    assert sorted(older) == sorted(set(today) - set(NEW_V4))
    today = {n: line for n, line in today.items() if n not in NEW_V4}
    assert [n for n in sorted(today) if older[n] != today[n]] == sorted(CHANGED_V4)


@pytest.mark.parametrize("name", sorted(V4))
def test_every_version_4_record_still_reads_as_the_event_it_was(name: str) -> None:
    """The fourth layout, as stored before signed rulings: a ruling of then (class_version 1)
    reads with no signature (None: nobody signed it; verify says so)."""
    line = _lines(GOLDEN_V4)[name]
    assert _read(line) == V4[name]
    ruling = _read(_lines(GOLDEN_V4)["RulingRecorded"])
    assert isinstance(ruling, RulingRecorded) and ruling.signature is None


def test_the_v4_golden_file_is_frozen() -> None:
    """Every line of the v4 file but RulingRecorded's is also today's line; today's file only
    adds the types new since (NEW_V5)."""
    older, today = _lines(GOLDEN_V4), _lines(GOLDEN)
    assert sorted(older) == sorted(set(today) - set(NEW_V5))
    today = {n: line for n, line in today.items() if n not in NEW_V5}
    assert [n for n in sorted(today) if older[n] != today[n]] == list(CHANGED_V5)
    assert json.loads(older["RulingRecorded"])["class_version"] == 1
    assert json.loads(today["RulingRecorded"])["class_version"] == 2
    assert json.loads(today["RulingRecorded"])["data"]["signature"] == {
        "key": "5e" * 32, "value": "51" * 64}


if __name__ == "__main__":
    # Regenerate the v5 golden file after adding an event type or a class_version:
    # .venv/bin/python -m tests.projections.store.test_golden, then review the diff.
    GOLDEN.write_text("".join(_stored_line(n) + "\n" for n in sorted(SAMPLES)),
                      encoding="utf-8")

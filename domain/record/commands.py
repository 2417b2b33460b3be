"""What can be asked of a match record. `decide` checks each against the rules and the record.

Seeds travel in commands but only into events when the rules allow: a `DealSmazzata` carries the
seed so the deal can be checked against its commitment; the seed itself is recorded only by
`RevealSeed` (or the reveal that closes a match ended by timeout or abandon).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from domain.cards import Card
from domain.events import PlayEvent
from domain.game import DeclareAccuso, PlayCard
from domain.record.events import LIVE, Provenance, RulingSignature, TableVisibility, TimeControl
from domain.shuffle import Seed


@dataclass(frozen=True, slots=True)
class CreateMatch:
    game: str
    ruleset: Mapping[str, str]
    players: tuple[str, ...]
    match_format: Mapping[str, str]
    time_control: TimeControl = field(default_factory=TimeControl)
    first_dealer: int = 0
    tournament: str | None = None
    round: int | None = None
    table: int | None = None
    provenance: Provenance = LIVE
    visibility: TableVisibility = field(default_factory=TableVisibility)
    match_seed_commitment: str | None = None


@dataclass(frozen=True, slots=True)
class CommitSeed:
    commitment: str


@dataclass(frozen=True, slots=True)
class ContributeSeed:
    """Seat `seat` adds `contribution` (bytes) to the seed of the smazzata about to be dealt."""

    seat: int
    contribution: bytes


@dataclass(frozen=True, slots=True)
class RevealMatchSeed:
    """The match seed, once the match is over: every smazzata seed re-derives from it."""

    seed: Seed


@dataclass(frozen=True, slots=True)
class DealLayout:
    """A deal as people wrote it down: each seat's hand, the table, the stock (top first), the
    Briscola card. UNKNOWN stands for a card nobody saw; the 40 cards are all there."""

    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...] = ()
    stock: tuple[Card, ...] = ()
    briscola: Card | None = None


@dataclass(frozen=True, slots=True)
class TranscribeDeal:
    """A transcribed match's deal, with no seed: `layout`, after the `annulled` attempts that
    went "a monte" (in order). `dealer`, if the record names one, must be the rotation's."""

    layout: DealLayout
    annulled: tuple[DealLayout, ...] = ()
    dealer: int | None = None


@dataclass(frozen=True, slots=True)
class TranscribeAccuso:
    """A transcribed accuso with the cards it showed: they become known."""

    seat: int
    kind: str
    cards: tuple[Card, ...]
    matta_value: int | None = None


@dataclass(frozen=True, slots=True)
class RecordIrregularPlay:
    """A play the rules refuse but the table accepted, recorded as it happened (transcribed
    matches only). `noted_by` noted it; `rule` names the rule broken when the known cards
    cannot show it themselves."""

    play: PlayCard
    noted_by: str
    rule: str | None = None


@dataclass(frozen=True, slots=True)
class DealSmazzata:
    """Deal the next smazzata from `seed`. `claimed`: the deal as recorded elsewhere (an
    import); it must be exactly the deal that follows from the seed."""

    seed: Seed
    claimed: tuple[PlayEvent, ...] | None = None


@dataclass(frozen=True, slots=True)
class RevealSeed:
    seed: Seed


@dataclass(frozen=True, slots=True)
class RecordTimeout:
    """`seat` ran out of time; `seed` is the committed seed of the smazzata it interrupts."""

    seat: int
    seed: Seed | None = None


@dataclass(frozen=True, slots=True)
class RecordAbandon:
    seat: int
    reason: str
    last_seen: datetime | None = None
    seed: Seed | None = None


@dataclass(frozen=True, slots=True)
class RecordRuling:
    """An arbiter's ruling; `signature` (RulingSignature), the arbiter's signature of it, is
    made outside the domain over the ruling and the head of the stream it extends
    (projections/store/signatures.py) and recorded as it is given."""

    arbiter: str
    reason: str
    kind: str
    smazzata: int | None = None
    adjustment: tuple[int, int] = (0, 0)
    refers_to: int | None = None
    signature: RulingSignature | None = None


@dataclass(frozen=True, slots=True)
class TranscribeTags:
    """A transcribed record's header tags and content hash (TagsTranscribed)."""

    tags: tuple[tuple[str, str], ...]
    content_hash: str


@dataclass(frozen=True, slots=True)
class ClaimScore:
    """The score people wrote for an ended smazzata (ScoreClaimed); any provenance."""

    smazzata: int
    rows: tuple[tuple[str, int, int], ...]
    claimed_by: str


MatchCommand = (CreateMatch | CommitSeed | ContributeSeed | DealSmazzata | RevealSeed
                | RevealMatchSeed | TranscribeDeal | TranscribeAccuso | RecordIrregularPlay
                | RecordTimeout | RecordAbandon | RecordRuling | PlayCard | DeclareAccuso
                | TranscribeTags | ClaimScore)

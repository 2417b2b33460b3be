"""Facts of a match beyond the play itself: creation, seeds, clock, arbiter, end.

Each is a past-tense fact carrying what is needed to re-check it (docs/events.md). The play
events of domain/events.py sit between them in a match's stream. Never rename a class or a field:
the store pins their stored JSON and reads old versions through upcasters.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from domain.events import Fact


class TimeControl(Fact, frozen=True):
    """The clock of a match, in seconds; None switches a limit off.

    `per_move`: the longest a seat may think over one move. `bank`: the total thinking time of a
    seat over the whole match. `abandon_after`: the absence after which a seat counts as gone.
    """

    per_move: int | None = 60
    bank: int | None = None
    abandon_after: int = 300


PROVENANCES = ("live", "simulated", "transcribed")


class Provenance(Fact, frozen=True):
    """How a match was recorded. `live`: played at a table whose house seeded every smazzata;
    `simulated`: played by verbale's bots from a seed; `transcribed`: written up by people after
    the fact (`source`: the file it came from, `importer`: the program and version that read
    it), so its deals carry no seed and may hold unknown cards."""

    kind: str
    source: str | None = None
    importer: str | None = None

    @property
    def transcribed(self) -> bool:
        return self.kind == "transcribed"


LIVE = Provenance("live")
SIMULATED = Provenance("simulated")


class TableVisibility(Fact, frozen=True):
    """The optional visibility rules of the table (000, 004 "Regole opzionali")."""

    carte_viste: bool = False
    carte_scoperte: bool = False


class MatchCreated(Fact, frozen=True):
    """A match: game, ruleset with every option, seats, sides, format, clock, place in a
    tournament. `players[s]` sits at seat s; `sides[s]` is that seat's side.

    Since class_version 2: how it was recorded (`provenance`), the table's `visibility` options
    and, when every smazzata seed derives from one match seed (docs/shuffle.md section 2), that
    seed's `match_seed_commitment`. A version-1 record reads with all three None: not recorded.

    `ruleset` and `match_format` hold each option as the text the game's parsers read ("21",
    "false"); since class_version 3 the store writes integer and boolean options as JSON
    numbers and booleans and reads them back as these texts (projections/store/facts.py).
    """

    game: str
    ruleset: Mapping[str, str]
    players: tuple[str, ...]
    sides: tuple[int, ...]
    match_format: Mapping[str, str]
    time_control: TimeControl
    first_dealer: int
    tournament: str | None = None
    round: int | None = None
    table: int | None = None
    provenance: Provenance | None = None
    visibility: TableVisibility | None = None
    match_seed_commitment: str | None = None


class SeedContributed(Fact, frozen=True):
    """Seat `seat`'s contribution (hex bytes) to the seed of smazzata `smazzata`, recorded after
    the house's commitment and before the deal: the deal comes from the mix (docs/shuffle.md
    section 4), in seat order."""

    smazzata: int
    seat: int
    contribution: str


class MatchSeedRevealed(Fact, frozen=True):
    """The match seed, hex, revealed once the match is over: every smazzata seed and the first
    dealer re-derive from it (docs/shuffle.md section 2)."""

    seed: str


class IrregularityNoted(Fact, frozen=True):
    """A play the rules refuse but the table accepted, as it happened: the event at version
    `refers_to` (by `seat`) breaks `rule`, whose source sentence is `source`. `noted_by` says
    who noted it; `verified` whether the known cards show it (False: only the noter says so).
    The arbiter's ruling, a later event, decides what it costs."""

    refers_to: int
    seat: int
    rule: str
    source: str
    message: str
    noted_by: str
    verified: bool


class TagsTranscribed(Fact, frozen=True):
    """What the header of a transcribed record says beyond the match itself (Event, Site, Date,
    Round, Table, Result, ...: `tags`, name and value in the order written), and the SHA-256 of
    the record's strict export form (`content_hash`, docs/notation.md): a second import of the
    same record is recognised by it. Right after MatchCreated, once, transcribed matches only."""

    tags: tuple[tuple[str, str], ...]
    content_hash: str


class ScoreClaimed(Fact, frozen=True):
    """The score of smazzata `smazzata` as people wrote it (a hand record's claimed score, a
    club's score sheet): `rows` of (category, side 0, side 1), categories as in SmazzataEnded's
    breakdown. `claimed_by` says whose claim it is. A claim is a fact about the paper, not the
    game: the audit compares it with the computed breakdown, category by category."""

    smazzata: int
    rows: tuple[tuple[str, int, int], ...]
    claimed_by: str


class SeedCommitted(Fact, frozen=True):
    """The commitment to the shuffle seed of smazzata `smazzata`, recorded before its deal."""

    smazzata: int
    commitment: str


class SeedRevealed(Fact, frozen=True):
    """The seed of smazzata `smazzata`, hex, revealed once that smazzata is over."""

    smazzata: int
    seed: str


class TimeoutRecorded(Fact, frozen=True):
    """`seat` ran out of time. `waiting_since` is the timestamp of the event that gave it the
    move; `elapsed_ms` the wait up to this event; `bank_used_ms` its thinking time before this
    move; `limit` which limit ran out ('per_move' or 'bank'); `awarded` the penalty points
    per side (C12). Since class_version 2, `kept`: the points of the smazzata in progress
    already made per side, which stay in the totals ((0, 0) between smazzate or in a KO
    spareggio; None in a version-1 record: not recorded)."""

    seat: int
    waiting_since: str
    elapsed_ms: int
    bank_used_ms: int
    limit: str
    awarded: tuple[int, int]
    kept: tuple[int, int] | None = None


class Abandoned(Fact, frozen=True):
    """`seat` left the match. `reason` is 'ritiro' (withdrew) or 'assenza' (gone for longer
    than the clock's `abandon_after`: then `last_seen` and `absent_ms` justify it). `awarded`
    and, since class_version 2, `kept` as for TimeoutRecorded."""

    seat: int
    reason: str
    last_seen: str | None
    absent_ms: int | None
    awarded: tuple[int, int]
    kept: tuple[int, int] | None = None


class RulingSignature(Fact, frozen=True):
    """An arbiter's Ed25519 signature of a ruling (docs/events.md, RulingRecorded): `key`, the
    id of the arbiter's registered key (SHA-256 of its raw public key, hex), and `value`, the
    64-byte signature, hex. The domain only carries it: signing and checking happen outside."""

    key: str
    value: str


class RulingRecorded(Fact, frozen=True):
    """An arbiter's decision. `kind` is 'adjust-score' (add `adjustment` per side) or
    'annul-smazzata' (smazzata `smazzata` no longer counts). It never edits an earlier event:
    `refers_to` names the version of the event it is about, if any."""

    arbiter: str
    reason: str
    kind: str
    smazzata: int | None
    adjustment: tuple[int, int]
    refers_to: int | None
    signature: RulingSignature | None = None   # class_version 2; None: nobody signed it


ENDINGS = ("target", "smazzate", "points", "cappotto", "vinco subito", "spareggio",
           "timeout", "abandon")
UNITS = ("punti", "smazzate")


class MatchSettlement(Fact, frozen=True):
    """What read models need of a result without replaying: `how` the match ended (one of
    ENDINGS; a ruling restating the result keeps the original way); `mp`, the MP difference
    (winner's points less the loser's, 0 for a draw; domain.match_format); `unit`, the unit of
    MatchEnded.scores (UNITS: "punti", or "smazzate" won in a Briscola match of smazzate);
    `points`, per side, the MP basis whatever the ending: game points (Cirulla) or card points
    (Briscola) of the regular smazzate, with a forfeit's penalty and an arbiter's adjustment
    (in "punti") included; `mp` is always points[winner] - points[loser], at least 0."""

    how: str
    mp: int
    unit: str
    points: tuple[int, int]


class MatchEnded(Fact, frozen=True):
    """The result: match points per side, the winning side (None: drawn), why it ended.
    A ruling after the end is followed by a new MatchEnded: the last one is the result.
    Since class_version 2, `settlement` (None in a version-1 record: not recorded)."""

    scores: tuple[int, int]
    winner: int | None
    reason: str
    smazzate: int
    settlement: MatchSettlement | None = None


class MatchResumed(Fact, frozen=True):
    """The match goes on after all: a ruling just annulled a smazzata, and without it the match
    is not over (`scores`, the standing then; `smazzate`, how many have ended, annulled ones
    included). The MatchEnded before it no longer holds: the match is in progress again, and a
    later MatchEnded is its result. It follows its ruling in the same action."""

    scores: tuple[int, int]
    smazzate: int


def result_of(events: Iterable[object]) -> MatchEnded | None:
    """A match's result from its events: the last MatchEnded, unless a MatchResumed came after
    it (then none: the match is in progress again)."""
    result = None
    for event in events:
        if isinstance(event, MatchEnded):
            result = event
        elif isinstance(event, MatchResumed):
            result = None
    return result


class DeclaredVpTable(Fact, frozen=True):
    """A VP table a tournament declares instead of the standard one (domain/vp_tables.toml):
    `name`, the file's name as the tournament gave it, and `text`, the file's full text, kept
    whole so the standings read the very table declared (domain/vp_table.py parses it)."""

    name: str
    text: str


class TournamentCreated(Fact, frozen=True):
    """A tournament of `game`. Since class_version 2, `vp_table`: the table it declared, or None
    for the standard table (a version-1 record reads as None: the standard table)."""

    name: str
    game: str
    vp_table: DeclaredVpTable | None = None


class MatchScheduled(Fact, frozen=True):
    """Match `match` (its stream id) is played at `table` in `round` of the tournament."""

    round: int
    table: int
    match: str


class ArbiterKeyRegistered(Fact, frozen=True):
    """Arbiter `arbiter`'s Ed25519 public key (`public_key`, 32 bytes hex; `key` its id, the
    SHA-256 of those bytes, hex): from now on a ruling of theirs signed by it is theirs. In the
    arbiter's own keys stream (domain/record/arbiter_keys.py)."""

    arbiter: str
    key: str
    public_key: str


class ArbiterKeyRevoked(Fact, frozen=True):
    """Arbiter `arbiter`'s key `key` signs nothing from now on (`reason`: why, e.g. the arbiter
    was removed or given a new key); what it signed before stays signed."""

    arbiter: str
    key: str
    reason: str


class TournamentSeedsCommitted(Fact, frozen=True):
    """The tournament's one seed commitment, recorded before any match is scheduled
    (docs/shuffle.md, "Tournament seed commitment"): `root`, the Merkle root (RFC 6962, hex)
    over the commitments of the `sessions` session secrets (session n, its round, is leaf
    n - 1); `reference`, the public value it will mix in, named before it exists (a drand
    round, a lottery draw); `mixing`, the rule that mixes it (the version tag of the
    derivation). The time is the record's timestamp."""

    root: str
    sessions: int
    reference: str
    mixing: str


class SessionSeedRevealed(Fact, frozen=True):
    """Session `session`'s secret (hex), its commitment, its inclusion path to the committed
    root (hex hashes, from the leaf's sibling up) and the public value as published: anyone
    re-derives the session seed and every match seed of the session from them, and no other
    session is exposed."""

    session: int
    secret: str
    commitment: str
    path: tuple[str, ...]
    public_value: str


MatchFact = (MatchCreated | SeedCommitted | SeedContributed | SeedRevealed | TimeoutRecorded
             | Abandoned | RulingRecorded | MatchEnded | MatchResumed | MatchSeedRevealed
             | IrregularityNoted)
TournamentFact = (TournamentCreated | MatchScheduled | TournamentSeedsCommitted
                  | SessionSeedRevealed)
KeyFact = ArbiterKeyRegistered | ArbiterKeyRevoked

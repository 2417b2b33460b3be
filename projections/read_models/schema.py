"""The read-model tables (SQLAlchemy 2 models), in the same database as the events.

Game facts keep the game's words: `rm_partite` one row per match (the match list),
`rm_posti` its seats (who played, for the player filter), `rm_smazzate` one per ended smazzata
with its breakdown, as recorded and as adjusted by rulings, `rm_andamento` the running totals
after each counted smazzata, `rm_decisioni` the arbiter's rulings, `rm_tornei` the tournaments
with the VP table they use, `rm_linee` a tournament's lines (a player, or a pair at a table of
4) with their VP/MP totals, `rm_giocatori` each player's record. `rm_verdetti` holds the
verdicts `verbale verify --record` wrote (not folded from the log: a check's result).
`rm_tracking` is the position in the store's notification log up to which the tables are
folded, `rm_schema` the layout's version.

The tables are never migrated by hand: when SCHEMA_VERSION differs from the stored one, every
`rm_` table is dropped and created again, empty, and the projection (project.py) folds the
whole log once more.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Connection,
    Engine,
    Index,
    MetaData,
    String,
    Table,
    Text,
    insert,
    inspect,
    select,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from projections.read_models.engine import writing

SCHEMA_VERSION = 5   # 5: the Tarocchi tournaments' tables (schema_tarocchi.py)
PREFIX = "rm_"
IN_PROGRESS, ENDED = "in-progress", "ended"   # the states of projections.store.listing
NOT_FOLDED = ("rm_tracking", "rm_schema", "rm_verdetti")
"""Tables that are not a fold of the log: rebuild and incremental runs compare the others."""


class Base(DeclarativeBase):
    pass


class Partita(Base):
    """A match, as the match list shows it.

    `players` and `sides` are JSON lists by seat; `created` the timestamp of its MatchCreated
    (docs/events.md: sorts as text) and `day` its date; the result columns are those of its
    last MatchEnded (null while in progress): `how` the way it ended (a settlement's `how`),
    `ruled` whether that result was restated after a ruling, `points_*` the MP basis
    (MatchSettlement.points), `mp` the MP difference, `vp_*`/`mp_*` per side from the VP table
    `vp_table` (null for a format with no VP column). `penalty_*` the forfeit points awarded,
    `kept_*` the points already made in the smazzata a forfeit interrupted (null: not recorded,
    a version-1 record), `forfeit_version` the version of that timeout or abandon,
    `adjustment_*` the sum of the rulings' adjustments; `dealer` the dealer of the last
    smazzata dealt and `current` its number; `spareggi` the KO tie-break smazzate played;
    `version` the version of the last event of its stream folded or passed over (a verdict
    of verify older than it is stale)."""

    __tablename__ = "rm_partite"

    stream: Mapped[str] = mapped_column(String(36), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    tournament: Mapped[str | None] = mapped_column(String(36))
    round: Mapped[int | None]
    table_number: Mapped[int | None]
    players: Mapped[str] = mapped_column(Text)
    sides: Mapped[str] = mapped_column(Text)
    created: Mapped[str] = mapped_column(String(32))
    day: Mapped[str] = mapped_column(String(10))
    match_format: Mapped[str] = mapped_column(String(64))
    format_options: Mapped[str] = mapped_column(Text)
    ko: Mapped[bool]
    provenance: Mapped[str | None] = mapped_column(String(16))
    state: Mapped[str] = mapped_column(String(16))
    how: Mapped[str | None] = mapped_column(String(16))
    ruled: Mapped[bool]
    score_0: Mapped[int | None]
    score_1: Mapped[int | None]
    unit: Mapped[str | None] = mapped_column(String(16))
    winner: Mapped[int | None]
    points_0: Mapped[int | None]
    points_1: Mapped[int | None]
    mp: Mapped[int | None]
    vp_0: Mapped[int | None]
    vp_1: Mapped[int | None]
    mp_0: Mapped[int | None]
    mp_1: Mapped[int | None]
    vp_table: Mapped[str | None] = mapped_column(String(128))
    penalty_0: Mapped[int]
    penalty_1: Mapped[int]
    kept_0: Mapped[int | None]
    kept_1: Mapped[int | None]
    forfeit_version: Mapped[int | None]
    adjustment_0: Mapped[int]
    adjustment_1: Mapped[int]
    dealer: Mapped[int | None]
    current: Mapped[int | None]
    smazzate: Mapped[int]
    spareggi: Mapped[int]
    rulings: Mapped[int]
    irregularities: Mapped[int]
    version: Mapped[int]
    timeouts: Mapped[int]
    abandons: Mapped[int]

    __table_args__ = (
        # The list's order is (day, created, stream), newest first (day is created's date, so
        # it is created's order); each filter's index ends with it, so a day range narrows any
        # of them and a page is read in order, with no sort.
        Index("ix_rm_partite_day", "day", "created", "stream"),
        Index("ix_rm_partite_game_day", "game", "day", "created", "stream"),
        Index("ix_rm_partite_tournament", "tournament", "round", "table_number"),
        Index("ix_rm_partite_state_day", "state", "day", "created", "stream"),
        Index("ix_rm_partite_how_day", "how", "day", "created", "stream"),
        Index("ix_rm_partite_provenance_day", "provenance", "day", "created", "stream"),
    )


class Posto(Base):
    """A seat of a match: who sat there and on which side (the player filter's index)."""

    __tablename__ = "rm_posti"

    stream: Mapped[str] = mapped_column(String(36), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    player: Mapped[str] = mapped_column(String(128))
    side: Mapped[int]
    created: Mapped[str] = mapped_column(String(32))

    __table_args__ = (Index("ix_rm_posti_player", "player", "created", "stream"),)


class Smazzata(Base):
    """A smazzata (`number` from 0), from its deal (`ended` once it ended): its dealer's
    seat; its scores and breakdown rows `[category, side 0, side 1]` (JSON) as recorded;
    `counted_*` what it counts after the rulings (0 when annulled; an adjustment is the
    match's, in rm_decisioni); the accusi declared in it (JSON `[seat, kind, points]`);
    the side that made cappotto (null: none); `spareggio` the
    KO tie-break it was (0: a regular smazzata)."""

    __tablename__ = "rm_smazzate"

    stream: Mapped[str] = mapped_column(String(36), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    ended: Mapped[bool]
    dealer: Mapped[int | None]
    points_0: Mapped[int]
    points_1: Mapped[int]
    breakdown: Mapped[str] = mapped_column(Text)
    accusi: Mapped[str] = mapped_column(Text)
    cappotto: Mapped[int | None]
    last_capture: Mapped[int | None]
    vinco_subito: Mapped[int | None]
    spareggio: Mapped[int]
    annulled: Mapped[bool]
    counted_0: Mapped[int]
    counted_1: Mapped[int]


class Andamento(Base):
    """The running totals of a match after its counted smazzata `number`: game or card points
    of the regular smazzate so far (annulled ones left out, rulings naming them included), and
    the smazzate won so far (a Briscola match of smazzate counts these)."""

    __tablename__ = "rm_andamento"

    stream: Mapped[str] = mapped_column(String(36), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    total_0: Mapped[int]
    total_1: Mapped[int]
    won_0: Mapped[int]
    won_1: Mapped[int]


class Decisione(Base):
    """An arbiter's ruling, at its version in the match's stream."""

    __tablename__ = "rm_decisioni"

    stream: Mapped[str] = mapped_column(String(36), primary_key=True)
    version: Mapped[int] = mapped_column(primary_key=True)
    arbiter: Mapped[str] = mapped_column(String(128))
    kind: Mapped[str] = mapped_column(String(32))
    smazzata: Mapped[int | None]
    adjustment_0: Mapped[int]
    adjustment_1: Mapped[int]
    reason: Mapped[str] = mapped_column(Text)
    recorded: Mapped[str] = mapped_column(String(32))


class Torneo(Base):
    """A tournament: its name, game and the VP table its standings use (`vp_table_text` the
    declared table's text, null: the standard table)."""

    __tablename__ = "rm_tornei"

    stream: Mapped[str] = mapped_column(String(36), primary_key=True)
    name: Mapped[str] = mapped_column(String(256))
    game: Mapped[str] = mapped_column(String(32))
    created: Mapped[str] = mapped_column(String(32))
    vp_table: Mapped[str] = mapped_column(String(128))
    vp_table_text: Mapped[str | None] = mapped_column(Text)
    matches: Mapped[int]


class Linea(Base):
    """A tournament's line: one player, or a pair sharing a side (`line` their names in seat
    order joined by " e "), with its totals over the tournament's ended matches."""

    __tablename__ = "rm_linee"

    tournament: Mapped[str] = mapped_column(String(36), primary_key=True)
    line: Mapped[str] = mapped_column(String(300), primary_key=True)
    played: Mapped[int]
    won: Mapped[int]
    drawn: Mapped[int]
    lost: Mapped[int]
    vp: Mapped[int]
    mp: Mapped[int]
    points_for: Mapped[int]
    points_against: Mapped[int]


class Giocatore(Base):
    """A player's record over every match stored (`matches` the ones started)."""

    __tablename__ = "rm_giocatori"

    name: Mapped[str] = mapped_column(String(128), primary_key=True)
    matches: Mapped[int]
    ended: Mapped[int]
    won: Mapped[int]
    drawn: Mapped[int]
    lost: Mapped[int]
    smazzate: Mapped[int]
    vp: Mapped[int]
    mp: Mapped[int]
    accusi: Mapped[int]
    accusi_points: Mapped[int]
    scope: Mapped[int]
    timeouts: Mapped[int]
    abandons: Mapped[int]


class Conteggio(Base):
    """A count kept by the fold (`partite`: the matches stored), so that a page of the list
    need not count a whole table."""

    __tablename__ = "rm_conteggi"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[int] = mapped_column(BigInteger)


class Verdetto(Base):
    """What `verbale verify --record` found for a match at `version` (its last event then)."""

    __tablename__ = "rm_verdetti"

    stream: Mapped[str] = mapped_column(String(36), primary_key=True)
    version: Mapped[int]
    verdict: Mapped[str] = mapped_column(String(16))
    findings: Mapped[int]
    checked: Mapped[str] = mapped_column(String(32))


class Tracked(Base):
    """The last notification of `application_name`'s log folded into the tables."""

    __tablename__ = "rm_tracking"

    application_name: Mapped[str] = mapped_column(String(64), primary_key=True)
    notification_id: Mapped[int] = mapped_column(BigInteger)


class SchemaMark(Base):
    __tablename__ = "rm_schema"

    version: Mapped[int] = mapped_column(primary_key=True)


FOLDED_TABLES = tuple(table for name, table in Base.metadata.tables.items()
                      if name not in NOT_FOLDED)


def stored_version(conn: Connection) -> int | None:
    if SchemaMark.__tablename__ not in inspect(conn).get_table_names():
        return None
    return conn.execute(select(SchemaMark.version)).scalar()


def drop_read_models(conn: Connection, keep: frozenset[str] = frozenset()) -> None:
    """Drop every `rm_` table but `keep`, this layout's and any an older layout left."""
    for name in inspect(conn).get_table_names():
        if name.startswith(PREFIX) and name not in keep:
            Table(name, MetaData()).drop(conn)


def ensure_schema(engine: Engine) -> bool:
    """Create the tables, or drop and create them if their layout is another version, in one
    transaction. True if they were (re)created empty."""
    with writing(engine).begin() as conn:
        if stored_version(conn) == SCHEMA_VERSION:
            return False
        reset(conn)
    return True


def reset(conn: Connection) -> None:
    """Empty tables of this layout, marked with SCHEMA_VERSION. The verdicts of verify are kept
    when the layout is this one (they are checks of the events, not folded from them)."""
    current = stored_version(conn) == SCHEMA_VERSION
    drop_read_models(conn, frozenset({Verdetto.__tablename__}) if current else frozenset())
    Base.metadata.create_all(conn)
    conn.execute(insert(SchemaMark).values(version=SCHEMA_VERSION))

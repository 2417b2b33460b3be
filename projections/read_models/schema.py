"""The read-model tables (SQLAlchemy 2 models), in the same database as the events.

`rm_partite` holds one row per match, `rm_smazzate` one per ended smazzata of a match,
`rm_tracking` the position in the store's notification log up to which they are folded, and
`rm_schema` the layout's version. The tables are never migrated by hand: when SCHEMA_VERSION
differs from the stored one, every `rm_` table is dropped and created again, empty, and the
projection (project.py) folds the whole log once more.
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

SCHEMA_VERSION = 1
PREFIX = "rm_"
IN_PROGRESS, ENDED = "in-progress", "ended"   # the states of projections.store.listing


class Base(DeclarativeBase):
    pass


class Partita(Base):
    """A match. `players` and `sides` are JSON lists by seat; `created` the timestamp of its
    MatchCreated (docs/events.md: sorts as text); the result columns are those of its last
    MatchEnded (null while in progress); `dealer` the dealer of the last smazzata dealt."""

    __tablename__ = "rm_partite"

    stream: Mapped[str] = mapped_column(String(36), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    tournament: Mapped[str | None] = mapped_column(String(36))
    round: Mapped[int | None]
    table_number: Mapped[int | None]
    players: Mapped[str] = mapped_column(Text)
    sides: Mapped[str] = mapped_column(Text)
    created: Mapped[str] = mapped_column(String(27))
    match_format: Mapped[str] = mapped_column(String(64))
    provenance: Mapped[str | None] = mapped_column(String(16))
    state: Mapped[str] = mapped_column(String(16))
    how: Mapped[str | None] = mapped_column(String(16))
    score_0: Mapped[int | None]
    score_1: Mapped[int | None]
    unit: Mapped[str | None] = mapped_column(String(16))
    winner: Mapped[int | None]
    mp: Mapped[int | None]
    dealer: Mapped[int | None]
    smazzate: Mapped[int]
    rulings: Mapped[int]
    irregularities: Mapped[int]

    __table_args__ = (
        Index("ix_rm_partite_game_created", "game", "created"),
        Index("ix_rm_partite_tournament", "tournament", "round", "table_number"),
        Index("ix_rm_partite_created", "created"),
        Index("ix_rm_partite_state_created", "state", "created"),
    )


class Smazzata(Base):
    """An ended smazzata (`number` from 0): its dealer's seat, its scores per side, the
    breakdown rows `[category, side 0, side 1]` as JSON, the side that made cappotto (null:
    none) and whether an arbiter's ruling annulled it."""

    __tablename__ = "rm_smazzate"

    stream: Mapped[str] = mapped_column(String(36), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    dealer: Mapped[int | None]
    points_0: Mapped[int]
    points_1: Mapped[int]
    breakdown: Mapped[str] = mapped_column(Text)
    cappotto: Mapped[int | None]
    annulled: Mapped[bool]


class Tracked(Base):
    """The last notification of `application_name`'s log folded into the tables."""

    __tablename__ = "rm_tracking"

    application_name: Mapped[str] = mapped_column(String(64), primary_key=True)
    notification_id: Mapped[int] = mapped_column(BigInteger)


class SchemaMark(Base):
    __tablename__ = "rm_schema"

    version: Mapped[int] = mapped_column(primary_key=True)


def stored_version(conn: Connection) -> int | None:
    if SchemaMark.__tablename__ not in inspect(conn).get_table_names():
        return None
    return conn.execute(select(SchemaMark.version)).scalar()


def drop_read_models(conn: Connection) -> None:
    """Drop every `rm_` table, this layout's and any an older layout left."""
    for name in inspect(conn).get_table_names():
        if name.startswith(PREFIX):
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
    """Empty tables of this layout, marked with SCHEMA_VERSION."""
    drop_read_models(conn)
    Base.metadata.create_all(conn)
    conn.execute(insert(SchemaMark).values(version=SCHEMA_VERSION))

"""Every read-model row, table by table: what "the same tables" means in the read models' tests
(every table of the layout but the tracking position and the schema mark); and a store opened
with its read models' engine."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, select

from projections.read_models.engine import read_model_engine
from projections.read_models.schema import Base
from projections.store.app import MatchStore

BOOKKEEPING = frozenset({"rm_tracking", "rm_schema"})


def table_rows(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Each read-model table's rows, in a stable order (repr: some columns hold nulls)."""
    with engine.connect() as conn:
        return {name: sorted((tuple(row) for row in conn.execute(select(table))), key=repr)
                for name, table in sorted(Base.metadata.tables.items())
                if name not in BOOKKEEPING}


@contextmanager
def opened(url: str) -> Iterator[tuple[MatchStore, Engine]]:
    """The store at `url` and the engine of its read models, closed afterwards."""
    store, engine = MatchStore(url=url), read_model_engine(url)
    try:
        yield store, engine
    finally:
        engine.dispose()
        store.close()

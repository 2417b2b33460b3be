"""Read-model rows changed behind the projection's back, with plain SQL, as someone with write
access to the database would (the read models have no triggers: nothing to get around)."""

from __future__ import annotations

from typing import Any

from tests.projections.conftest import Backend


def _table(backend: Backend, name: str) -> str:
    return name if backend.kind == "sqlite" else f"{backend.schema}.{name}"


def execute(backend: Backend, sql: str, params: tuple[Any, ...] = (),
            *tables: str) -> None:
    """`sql` with `{0}`, `{1}`... the tables `tables` (schema-qualified on PostgreSQL) and `?`
    the placeholders, in one transaction of its own."""
    text = sql.format(*(_table(backend, t) for t in tables)).replace("?", backend.placeholder())
    conn = backend.connect()
    try:
        conn.execute(text, params)
    finally:
        conn.close()


def fetch(backend: Backend, sql: str, params: tuple[Any, ...] = (),
          *tables: str) -> list[tuple[Any, ...]]:
    text = sql.format(*(_table(backend, t) for t in tables)).replace("?", backend.placeholder())
    conn = backend.connect()
    try:
        return [tuple(row) for row in conn.execute(text, params).fetchall()]
    finally:
        conn.close()


def flip_winner(backend: Backend, stream: str) -> tuple[int, int]:
    """The ended match `stream`'s winner given to the other side in rm_partite; (was, now)."""
    [(was,)] = fetch(backend, "SELECT winner FROM {0} WHERE stream = ?", (stream,),
                     "rm_partite")
    assert was in (0, 1), was
    execute(backend, "UPDATE {0} SET winner = ? WHERE stream = ?", (1 - was, stream),
            "rm_partite")
    return was, 1 - was


def raise_score(backend: Backend, stream: str, points: int = 10) -> tuple[int, int]:
    """The first side's score of the ended match `stream` raised by `points` in rm_partite;
    (was, now)."""
    [(was,)] = fetch(backend, "SELECT score_0 FROM {0} WHERE stream = ?", (stream,),
                     "rm_partite")
    assert was is not None
    execute(backend, "UPDATE {0} SET score_0 = ? WHERE stream = ?", (was + points, stream),
            "rm_partite")
    return was, was + points

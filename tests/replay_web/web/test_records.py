"""StoreReplays: a match folded once and kept; folded again when its record grows; safe when
another thread drops it from the LRU meanwhile."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from uuid import UUID

import pytest

from domain.record.commands import RecordRuling
from domain.record.envelope import arbiter
from projections.store.app import MatchStore
from replay_web.web import records
from replay_web.web.records import StoreReplays
from tests.replay_web.demo import run


def _store(tmp_path: Path) -> tuple[MatchStore, list[UUID]]:
    url = f"sqlite:///{tmp_path / 'v.db'}"
    code, out, err = run("simulate", "matches", "--store", "--count", "3", "--database", url)
    assert code == 0, out + err
    store = MatchStore(url=url)
    from domain.record.events import MatchCreated
    matches = [s for s in store.streams()
               if isinstance(store.facts(s)[0].to_domain(), MatchCreated)]
    return store, matches


def test_tenuta_e_riletta_quando_cresce(tmp_path: Path) -> None:
    store, matches = _store(tmp_path)
    try:
        replays = StoreReplays(store, kept=1)
        first = replays.replay(matches[0])
        assert first is not None and replays.replay(matches[0]) is first   # kept
        assert replays.replay(matches[1]) is not None                       # drops the first
        again = replays.replay(matches[0])
        assert again is not None and again is not first and again.head == first.head
        assert replays.replay(UUID(int=0)) is None
    finally:
        store.close()


def test_tolta_da_un_altro_thread_nel_frattempo(tmp_path: Path) -> None:
    """The race the benchmark found: the match dropped between the look-up and the LRU move."""
    store, matches = _store(tmp_path)
    try:
        replays = StoreReplays(store, kept=1)
        kept = replays.replay(matches[0])
        real_grown = replays._grown

        def grown_and_dropped(match_id: UUID, version: int) -> bool:
            replays.forget(match_id)   # as another thread's newer match would
            return real_grown(match_id, version)

        replays._grown = grown_and_dropped   # type: ignore[method-assign]
        assert replays.replay(matches[0]) is kept
    finally:
        store.close()


def test_la_testa_segue_il_registro(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """record_head: the head as stored; a record grown behind the viewer's back (another
    process) is seen once FRESH_SECONDS have passed since the last check (here 0)."""

    store, matches = _store(tmp_path)
    try:
        replays = StoreReplays(store, kept=4)
        head = replays.record_head(matches[0])
        assert head is not None and head.last == len(store.stored(matches[0]))
        assert replays.record_head(matches[0]) == head   # kept
        monkeypatch.setattr(records, "FRESH_SECONDS", 0.0)
        store.execute(matches[0], RecordRuling(arbiter="Rossi", reason="prova",
                                               kind="adjust-score", adjustment=(1, 0)),
                      datetime.now(UTC), arbiter("Rossi"))
        grown = replays.record_head(matches[0])
        assert grown is not None and grown.last > head.last and grown.head != head.head
    finally:
        store.close()

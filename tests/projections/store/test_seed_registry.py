"""The seed registry (projections/store/seed_registry.py): no seed is used twice anywhere in the
store. A match seed, a smazzata's seed, a tournament's root or a session's secret committed a
second time is refused, naming the commitment and the stream that used it first; nothing of the
write is stored, also when two writers race, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from uuid import UUID, uuid4

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.record.tournament_seeds import SessionSecrets
from domain.shuffle import Seed
from projections.store.app import MatchStore
from projections.store.seed_registry import SEEDS_TABLE, SeedReused
from projections.verify.streams import verify_store
from tests.domain.record.toy import TOY_CATALOG
from tests.projections.conftest import Backend
from tests.projections.store.recording import BY, START, record_toy_match, toy_setup
from tests.replacing import replace


def _with_seed(seed: Seed) -> object:
    return replace(toy_setup(), match_seed_commitment=seed.commitment())


def _registry(backend: Backend) -> dict[str, tuple[str, int, str]]:
    table = SEEDS_TABLE if backend.kind == "sqlite" else f"{backend.schema}.{SEEDS_TABLE}"
    conn = backend.connect()
    try:
        rows = conn.execute(f"SELECT commitment, stream_id, version, kind FROM {table}")
        return {r[0]: (r[1], r[2], r[3]) for r in rows.fetchall()}
    finally:
        conn.close()


def test_a_match_seed_used_twice_is_refused_naming_it_and_the_first_match(
        store: MatchStore, backend: Backend) -> None:
    seed = Seed(b"\x11" * 16)
    first = store.create_match(_with_seed(seed), START, BY)   # type: ignore[arg-type]
    second = uuid4()
    with pytest.raises(SeedReused) as refused:
        store.create_match(_with_seed(seed), START, BY, second)   # type: ignore[arg-type]
    message = str(refused.value)
    assert seed.commitment() in message and str(first) in message and "match seed" in message
    assert store.stored(second) == []
    assert _registry(backend)[seed.commitment()] == (str(first), 1, "match seed")


def test_a_deal_seed_used_twice_is_refused_and_the_action_stores_nothing(
        store: MatchStore, backend: Backend) -> None:
    first = record_toy_match(store, 7, stop_after=2)   # created, seed committed, dealt
    with pytest.raises(SeedReused, match=str(first.stream)):
        record_toy_match(store, 7, stop_after=2)
    kinds = sorted(kind for _, _, kind in _registry(backend).values())
    assert kinds == ["smazzata seed"]
    streams = store.streams()
    assert len(streams) == 2   # the second match was created (no seed) but committed nothing
    second = next(s for s in streams if s != first.stream)
    assert store.load(second).version == 1


def test_a_batch_reusing_a_seed_stores_nothing_of_any_stream(store: MatchStore) -> None:
    seed = Seed(b"\x12" * 16)
    actions = [(_with_seed(seed), START, BY)]
    with pytest.raises(SeedReused):
        store.execute_batch([(uuid4(), actions), (uuid4(), actions)])   # type: ignore[list-item]
    assert store.streams() == []


def test_a_tournament_root_and_a_session_secret_are_registered_too(
        store: MatchStore, backend: Backend) -> None:
    director = SessionSecrets((Seed(b"\x21" * 16), Seed(b"\x22" * 16)))
    commitment = director.committed("draw")
    tournaments = [store.create_tournament(f"T{n}", "toy", START, BY) for n in range(2)]
    store.commit_tournament_seeds(tournaments[0], commitment.root, 2, "draw", START, BY)
    with pytest.raises(SeedReused, match=commitment.root):
        store.commit_tournament_seeds(tournaments[1], commitment.root, 2, "draw", START, BY)
    store.reveal_session(tournaments[0], director.revealed(1, "v"), START, BY)
    session = director.secrets[0].commitment()
    assert _registry(backend)[session] == (str(tournaments[0]), 3, "session secret")
    with pytest.raises(SeedReused, match=session):   # the session's secret as a match seed
        store.create_match(_with_seed(director.secrets[0]), START, BY)   # type: ignore[arg-type]


def test_racing_writers_with_one_seed_one_wins(backend: Backend, store: MatchStore) -> None:
    seed = Seed(b"\x13" * 16)
    start = threading.Barrier(4)
    won: list[UUID] = []
    refused: list[str] = []
    errors: list[BaseException] = []

    def writer() -> None:
        app = MatchStore(url=backend.url, catalog=TOY_CATALOG)
        try:
            start.wait()
            stream = uuid4()
            app.create_match(_with_seed(seed), START, BY, stream)   # type: ignore[arg-type]
            won.append(stream)
        except SeedReused as error:
            refused.append(str(error))
        except BaseException as error:  # surfaced below, in the test's thread
            errors.append(error)
        finally:
            app.close()

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(won) == 1 and len(refused) == 3
    assert all(str(won[0]) in message for message in refused)
    assert store.streams() == won


@given(picks=st.lists(st.integers(0, 5), min_size=1, max_size=8))
@settings(max_examples=max(5, settings.default.max_examples // 10),
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_no_seed_is_accepted_twice(backend: Backend, picks: list[int]) -> None:
    """Whatever order seeds come in, a seed is stored once: the first use is accepted, every
    later one refused; the registry holds each accepted seed's first match."""
    namespace = uuid4().bytes   # each example its own seeds: the store outlives examples
    app = MatchStore(url=backend.url, catalog=TOY_CATALOG)
    try:
        accepted: dict[str, UUID] = {}
        for pick in picks:
            seed = Seed(namespace + bytes([pick]))
            stream = uuid4()
            try:
                app.create_match(_with_seed(seed), START, BY, stream)   # type: ignore[arg-type]
                assert seed.commitment() not in accepted
                accepted[seed.commitment()] = stream
            except SeedReused as refused:
                assert str(accepted[seed.commitment()]) in str(refused)
        registry = _registry(backend)
        assert {c: registry[c][0] for c in accepted} == {c: str(s) for c, s in accepted.items()}
    finally:
        app.close()


def test_a_store_written_before_the_registry_is_indexed_when_opened_for_writing(
        backend: Backend) -> None:
    app = MatchStore(url=backend.url, catalog=TOY_CATALOG)
    try:
        first = record_toy_match(app, 9, stop_after=2)
    finally:
        app.close()
    table = SEEDS_TABLE if backend.kind == "sqlite" else f"{backend.schema}.{SEEDS_TABLE}"
    conn = backend.connect()
    try:
        conn.execute(f"DROP TABLE {table}")   # as a store of before the registry
    finally:
        conn.close()
    app = MatchStore(url=backend.url, catalog=TOY_CATALOG)
    try:
        assert [v[0] for v in _registry(backend).values()] == [str(first.stream)]
        with pytest.raises(SeedReused, match=str(first.stream)):
            record_toy_match(app, 9, stop_after=2)
        assert all(v.ok for v in verify_store(app))
    finally:
        app.close()


def test_the_registry_is_append_only(store: MatchStore, backend: Backend) -> None:
    store.create_match(_with_seed(Seed(b"\x14" * 16)), START, BY)   # type: ignore[arg-type]
    table = SEEDS_TABLE if backend.kind == "sqlite" else f"{backend.schema}.{SEEDS_TABLE}"
    conn = backend.connect()
    try:
        for statement in (f"DELETE FROM {table}", f"UPDATE {table} SET kind = 'x'"):
            with pytest.raises(Exception, match="append-only"):
                conn.execute(statement)
    finally:
        conn.close()
    assert len(_registry(backend)) == 1

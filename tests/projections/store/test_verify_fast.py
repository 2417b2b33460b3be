"""verify's fast path (issue 13, projections/store/verify_fast.py) finds exactly what verify
finds without it: the same verdicts, finding for finding, on random recorded matches, sound and
in progress, and after any of the tamperings verify must catch (tampering.py)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from uuid import UUID

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from domain.record.simulate import Incidents
from projections.store.app import MatchStore
from projections.store.canonical import canonical_json
from projections.store.seed_registry import SeedReused
from projections.store.verify import Verdict, verify_store
from projections.store.verify_fast import canonical, enabled, exact
from tests.projections.conftest import Backend
from tests.projections.store.recording import record_toy_match
from tests.projections.store.tampering import TAMPERINGS, Tamperer
from tests.projections.store.test_tamper import GAMES, build

SLOW_EXAMPLES = settings(max_examples=max(3, settings().max_examples // 10),
                         suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                HealthCheck.too_slow])


@pytest.fixture
def games_store(backend: Backend) -> MatchStore:
    """test_tamper's store: real matches of both games, toy ones with every incident, one in
    progress, and the keys of their arbiter."""
    app = MatchStore(url=backend.url, catalog=GAMES)
    build(app)
    yield app  # type: ignore[misc]
    app.close()


@contextmanager
def tampered(backend: Backend, case: int, seed: int) -> Iterator[UUID]:
    """One tampering of the store (TAMPERINGS[case], drawn by `seed`), put back afterwards."""
    tamperer = Tamperer.open(backend)
    rows = tamperer.rows()
    heads = {r[1]: tamperer.head(r[1]) for r in rows}
    longer = [r for r in rows if sum(x[1] == r[1] for x in rows) > 1]   # swap takes two
    try:
        with tamperer.batch():
            stream, _ = TAMPERINGS[case](tamperer, random.Random(seed), longer)
        try:
            yield stream
        finally:
            with tamperer.batch():
                tamperer.restore(stream, [r for r in rows if r[1] == stream], heads[stream])
    finally:
        tamperer.conn.close()


def both_ways(store: MatchStore) -> tuple[list[Verdict], list[Verdict]]:
    fast = verify_store(store)
    with exact():
        assert not enabled()
        slow = verify_store(store)
    assert enabled()
    return fast, slow


@SLOW_EXAMPLES
@given(case=st.integers(0, len(TAMPERINGS) - 1), seed=st.integers(0, 2**32 - 1))
def test_the_fast_path_finds_what_verify_finds_after_any_tampering(
        games_store: MatchStore, backend: Backend, case: int, seed: int) -> None:
    with tampered(backend, case, seed) as stream:
        fast, slow = both_ways(games_store)
        assert stream in [v.stream for v in slow if not v.ok]
        assert fast == slow


@SLOW_EXAMPLES
@given(seed=st.integers(0, 65535), players=st.sampled_from([2, 4]),
       stop_after=st.none() | st.integers(1, 30), timeout_at=st.none() | st.integers(3, 12))
def test_the_fast_path_finds_what_verify_finds_on_random_matches(
        backend: Backend, seed: int, players: int, stop_after: int | None,
        timeout_at: int | None) -> None:
    store = MatchStore(url=backend.url, catalog=GAMES)
    try:
        try:
            record_toy_match(store, seed, players=players, stop_after=stop_after,
                             incidents=Incidents(timeout_at=timeout_at))
        except SeedReused:   # a seed an earlier example of this store dealt with
            reject()
        fast, slow = both_ways(store)
        assert fast == slow and fast
    finally:
        store.close()


def test_a_stamp_that_fails_is_reported_at_every_event_that_has_it(
        games_store: MatchStore, backend: Backend) -> None:
    """A failure is never remembered: the same bad timestamp at two events, two findings."""
    tamperer = Tamperer.open(backend)
    rows = tamperer.rows()
    try:
        stream = rows[0][1]
        mine = [r for r in rows if r[1] == stream]
        head = tamperer.head(stream)
        with tamperer.batch():
            for row in mine[1:3]:
                tamperer.set_state(row[0], row[3], row[4].replace(b'"timestamp":"2',
                                                                  b'"timestamp":"x'))
        fast, slow = both_ways(games_store)
        assert fast == slow
        clock = {p.version for v in fast if v.stream == stream for p in v.problems
                 if p.check == "clock"}
        assert clock >= {2, 3}
        with tamperer.batch():
            tamperer.restore(stream, mine, head)
    finally:
        tamperer.conn.close()


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text()
                     | st.floats(allow_nan=False, allow_infinity=False),
                     lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text(), inner, max_size=4), max_leaves=20)


@given(record=st.dictionaries(st.text(), _JSON, max_size=6))
def test_the_canonical_bytes_are_canonical_json(record: dict[str, object]) -> None:
    """The encoder made once writes exactly canonical_json's bytes, for any JSON value."""
    assert canonical(record) == canonical_json(record, checked=False)
    with exact():
        assert canonical(record) == canonical_json(record, checked=False)

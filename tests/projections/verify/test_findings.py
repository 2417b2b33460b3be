"""verify's findings on recorded matches, sound and in progress, and on a timestamp broken at
several events (the tamperings of every kind: tests/projections/store/test_tamper.py)."""

from __future__ import annotations

from hypothesis import given, reject
from hypothesis import strategies as st

from domain.record.simulate import Incidents
from projections.store.app import MatchStore
from projections.store.seed_registry import SeedReused
from projections.verify.streams import verify_store
from tests.projections.conftest import Backend
from tests.projections.store.recording import record_toy_match
from tests.projections.store.tampering import Tamperer
from tests.projections.store.test_tamper import GAMES
from tests.projections.verify.stores import SLOW_EXAMPLES


@SLOW_EXAMPLES
@given(seed=st.integers(0, 65535), players=st.sampled_from([2, 4]),
       stop_after=st.none() | st.integers(1, 30), timeout_at=st.none() | st.integers(3, 12))
def test_a_recorded_match_is_sound_finished_or_in_progress(
        backend: Backend, seed: int, players: int, stop_after: int | None,
        timeout_at: int | None) -> None:
    store = MatchStore(url=backend.url, catalog=GAMES)
    try:
        try:
            record_toy_match(store, seed, players=players, stop_after=stop_after,
                             incidents=Incidents(timeout_at=timeout_at))
        except SeedReused:   # a seed an earlier example of this store dealt with
            reject()
        verdicts = verify_store(store)
        assert verdicts and all(v.ok for v in verdicts), verdicts
        assert all(v.head is not None and v.events > 0 for v in verdicts)
    finally:
        store.close()


def test_a_stamp_that_fails_is_reported_at_every_event_that_has_it(
        games_store: MatchStore, backend: Backend) -> None:
    """The same bad timestamp at two events, two findings."""
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
        verdicts = verify_store(games_store)
        clock = {p.version for v in verdicts if v.stream == stream for p in v.problems
                 if p.check == "clock"}
        assert clock >= {2, 3}
        assert [v.stream for v in verdicts if not v.ok] == [stream]
        with tamperer.batch():
            tamperer.restore(stream, mine, head)
    finally:
        tamperer.conn.close()

"""Replaying the stored events of random matches rebuilds exactly the state the domain reached
live, on both databases."""

from __future__ import annotations

import itertools
from uuid import UUID

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.demo.matches import BOTS, DemoMatch, demo_set, reseeded
from domain.record.catalog import CATALOG
from domain.record.simulate import Incidents, Table
from domain.shuffle import Seed
from projections.store.app import Loaded, MatchStore
from projections.verify.streams import verify_stream
from tests.projections.conftest import Backend
from tests.projections.store.recording import BY, START, play_into
from tests.replacing import replace

DEMOS = demo_set(Seed(b"\x42" * 16))
_EXAMPLES = itertools.count()


def record(store: MatchStore, demo: DemoMatch, stop_after: int | None,
           match: UUID | None = None) -> Loaded:
    stream = store.create_match(demo.setup, START, BY, match)
    return play_into(store, stream, Table(demo.match_seed, BOTS[demo.setup.game], demo.incidents),
                     stop_after)


@given(index=st.integers(0, len(DEMOS) - 1), seed=st.integers(0, 255),
       trouble=st.sampled_from([Incidents(), Incidents(timeout_at=7), Incidents(abandon_at=11),
                                Incidents(ruling_after=3)]),
       stop_after=st.none() | st.integers(0, 80))
# Each example records a whole match on a real database: a fifth of the profile's count.
@settings(max_examples=max(6, settings.default.max_examples // 5),
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_stored_events_rebuild_the_live_state(backend: Backend, index: int, seed: int,
                                                  trouble: Incidents,
                                                  stop_after: int | None) -> None:
    # Each example its own seed: the store outlives the examples and refuses a seed used twice.
    fresh = Seed(bytes([seed]) * 12 + next(_EXAMPLES).to_bytes(4, "big"))
    demo = replace(reseeded(DEMOS[index], fresh), incidents=trouble)
    store = MatchStore(url=backend.url, catalog=CATALOG)
    try:
        live = record(store, demo, stop_after)
        rebuilt = store.load(live.stream)
        assert rebuilt.state == live.state
        assert (rebuilt.version, rebuilt.head) == (live.version, live.head)
        assert verify_stream(store, live.stream,
                             store.chained.select_head(live.stream)).problems == ()
    finally:
        store.close()

"""1,000 random single tamperings made with plain SQL: verify reports every one, naming the
match and the event; on the untampered store it reports nothing.

One real store is built per database; each tampering is made, verified and put back (rows and
head restored exactly), so the 1,000 cases cost one store.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from uuid import NAMESPACE_URL, UUID, uuid5

import pytest

from domain.demo.matches import demo_set
from domain.record.arbiter_keys import keys_stream
from domain.record.audit import Severity
from domain.record.catalog import CATALOG
from domain.record.simulate import Incidents
from domain.shuffle import Seed
from projections.store.app import MatchStore
from projections.verify.streams import verify_store
from tests.domain.record.toy import TOY_CATALOG
from tests.profile import scaled
from tests.projections.conftest import Backend
from tests.projections.store.recording import record_toy_match
from tests.projections.store.tampering import TAMPERINGS, Row, Tamperer
from tests.projections.store.test_replay import record

GAMES = {**CATALOG, **TOY_CATALOG}
SHORT = [d for d in demo_set(Seed(b"\x7a" * 16)) if d.setup.match_format["length"] == "1"
         and len(d.setup.players) == 2 and not d.incidents.abandon_at]

TAMPERINGS_PER_DATABASE = scaled(dev=200, ci=1000)
"""Random tamperings per database: 1,000 under CI's profile, 200 in a quick `make test`."""


def build(store: MatchStore) -> list[UUID]:
    """Real matches of both games next to toy ones with every incident, one left in progress."""
    ids = [uuid5(NAMESPACE_URL, f"verbale:tamper:{n}") for n in range(6)]  # a fixed store
    return [
        record(store, SHORT[0], None, ids[0]).stream,
        record(store, SHORT[-1], None, ids[1]).stream,
        record_toy_match(store, 102, players=4, incidents=Incidents(ruling_after=4),
                         match=ids[2]).stream,
        record_toy_match(store, 103, incidents=Incidents(timeout_at=9), match=ids[3]).stream,
        record_toy_match(store, 104, players=4, incidents=Incidents(abandon_at=14),
                         match=ids[4]).stream,
        record_toy_match(store, 105, stop_after=12, match=ids[5]).stream,
    ]


@pytest.fixture
def games_store(backend: Backend) -> MatchStore:
    app = MatchStore(url=backend.url, catalog=GAMES)
    yield app  # type: ignore[misc]
    app.close()


@pytest.mark.slow
def test_every_single_tampering_is_reported_naming_match_and_event(
        games_store: MatchStore, backend: Backend) -> None:
    store = games_store
    streams = build(store)
    assert all(v.ok for v in verify_store(store)), "the untampered store must verify"
    rng = random.Random(int(os.environ.get("VERBALE_TAMPER_SEED", "20261122")))
    tamperer = Tamperer.open(backend)
    seen: Counter[str] = Counter()
    try:
        rows = tamperer.rows()   # the same before every tampering: each one is put back
        for case in range(TAMPERINGS_PER_DATABASE):
            tampering = TAMPERINGS[case % len(TAMPERINGS)]
            _one(store, tamperer, rng, tampering, case, rows)
            seen[tampering.__name__] += 1
    finally:
        tamperer.conn.close()
    assert tamperer_rows_now(backend) == rows, "restoring must give the untampered rows"
    assert all(v.ok for v in verify_store(store)), "restoring must give the untampered store"
    assert len(streams) == 6 and sum(seen.values()) == TAMPERINGS_PER_DATABASE


def _one(store: MatchStore, tamperer: Tamperer, rng: random.Random, tampering: object,
         case: int, rows: list[Row]) -> None:
    streams = sorted({r[1] for r in rows}, key=str)
    snapshot = {s: ([r for r in rows if r[1] == s], tamperer.head(s)) for s in streams}
    with tamperer.batch():
        stream, versions = tampering(tamperer, rng, rows)  # type: ignore[operator]
    try:
        failed = [v for v in verify_store(store) if not v.ok]
        named = {p.version for v in failed if v.stream == stream for p in v.problems}
        assert stream in [v.stream for v in failed], (case, tampering, failed)
        # A tampered keys stream also fails the rulings its keys signed, and nothing else.
        others = [v for v in failed if v.stream != stream]
        assert not others or stream == keys_stream("arbitro"), (case, tampering, failed)
        assert all(p.check == "signature" for v in others for p in v.problems
                   if p.severity is Severity.FAILURE), (case, tampering, failed)
        assert named & versions, (case, tampering, versions, failed)
    finally:
        with tamperer.batch():
            tamperer.restore(stream, *snapshot[stream])


def test_an_untampered_store_reports_no_problem(games_store: MatchStore) -> None:
    build(games_store)
    verdicts = verify_store(games_store)
    assert len(verdicts) == 7   # the six matches and the keys of their arbiter
    assert [v.problems for v in verdicts] == [()] * 7
    assert [v.category for v in verdicts].count("keys") == 1


def test_other_stores_are_not_touched(backend: Backend) -> None:
    """The tamper fixture writes only into its own database or schema."""
    app = MatchStore(url=backend.url, catalog=TOY_CATALOG)
    try:
        assert verify_store(app) == []
    finally:
        app.close()


def tamperer_rows_now(backend: Backend) -> list[Row]:
    again = Tamperer(backend, backend.connect())
    try:
        return again.rows()
    finally:
        again.conn.close()

"""What verify's tests share: a tampering of the store put back afterwards, and hypothesis'
settings for tests that build stores."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from uuid import UUID

from hypothesis import HealthCheck, settings

from tests.projections.conftest import Backend
from tests.projections.store.tampering import TAMPERINGS, Tamperer

SLOW_EXAMPLES = settings(max_examples=max(3, settings().max_examples // 10),
                         suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                HealthCheck.too_slow])


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

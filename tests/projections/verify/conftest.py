"""The store verify's tests share: test_tamper's matches of both games."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from projections.store.app import MatchStore
from tests.projections.conftest import Backend
from tests.projections.store.test_tamper import GAMES, build


@pytest.fixture
def games_store(backend: Backend) -> Iterator[MatchStore]:
    """test_tamper's store: real matches of both games, toy ones with every incident, one in
    progress, and the keys of their arbiter."""
    app = MatchStore(url=backend.url, catalog=GAMES)
    build(app)
    yield app
    app.close()

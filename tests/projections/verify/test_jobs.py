"""`verify --jobs N` (issue 13, verify at scale): the streams verified by worker processes give
the same verdicts, in the same order, as verify in one process, on a sound store and after any
of the tamperings verify must catch (tests/projections/store/tampering.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from projections.store.app import MatchStore
from projections.verify.jobs import jobs_wanted, verify_parallel
from projections.verify.streams import verify_store
from tests.projections.conftest import Backend
from tests.projections.store.tampering import TAMPERINGS
from tests.projections.verify.stores import SLOW_EXAMPLES, tampered


def test_every_core_is_zero_jobs() -> None:
    assert jobs_wanted(0) >= 1 and jobs_wanted(3) == 3


def test_workers_give_the_verdicts_of_one_process(games_store: MatchStore,
                                                  backend: Backend) -> None:
    alone = verify_store(games_store)
    assert len(alone) == 7 and all(v.ok for v in alone)
    shown: list[tuple[int, list[int]]] = []

    def bar(total: int):  # type: ignore[no-untyped-def]
        from contextlib import contextmanager

        @contextmanager
        def drawn():  # type: ignore[no-untyped-def]
            done: list[int] = []
            shown.append((total, done))
            yield done.append
        return drawn()

    assert verify_parallel(backend.url, 2, bar, games_store) == alone
    (total, done), = shown
    assert total == 7 and done[-1] == 7 and done == sorted(done)


@SLOW_EXAMPLES
@given(case=st.integers(0, len(TAMPERINGS) - 1), seed=st.integers(0, 2**32 - 1),
       jobs=st.integers(2, 3))
def test_a_tampered_store_gets_the_same_findings_with_workers(
        games_store: MatchStore, backend: Backend, case: int, seed: int, jobs: int) -> None:
    with tampered(backend, case, seed) as stream:
        alone = verify_store(games_store)
        assert stream in [v.stream for v in alone if not v.ok]
        assert verify_parallel(backend.url, jobs, store=games_store) == alone

"""`verbale verify --jobs N`: the streams of the store verified by N worker processes.

The streams are taken in verify's own order and cut into runs of neighbours; each worker opens
the store itself, read-only, and verifies its runs with `verify_stream`, the very check
`verify_store` makes, stream by stream. The verdicts come back in stream order and the
tournaments are checked against their matches in this process, as `verify_store` does: what is
reported is the same, verdict for verdict, as with one process.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from contextlib import AbstractContextManager, contextmanager
from uuid import UUID

from domain.record.games import GameRules
from projections.store.app import MatchStore
from projections.store.recorders import Head
from projections.store.signatures import KeyringCache
from projections.verify.links import linked
from projections.verify.streams import verify_stream
from projections.verify.verdicts import Verdict

RUNS_PER_JOB = 8
"""Runs of streams handed to each worker: enough for the bar to move and the load to even out."""

_worker: dict[str, MatchStore | KeyringCache] = {}


def jobs_wanted(jobs: int) -> int:
    """--jobs: 0 is every core."""
    return (os.cpu_count() or 1) if jobs == 0 else jobs


Shown = Callable[[int], AbstractContextManager[Callable[[int], None]]]
"""A progress bar: given the number of streams, a context whose callback takes how many are
done (replay_web/progress.py's `bar`)."""


def verify_parallel(url: str, jobs: int, shown: Shown | None = None,
                    store: MatchStore | None = None) -> list[Verdict]:
    """Every stream of the store at `url` by `jobs` workers, shown by `shown` as the runs of
    streams come back. `store` (opened at `url`, read-only) is used here for the list of
    streams and the cross-checks; without it one is opened."""
    own = store is None
    parent = store or MatchStore(url=url, read_only=True)
    try:
        heads = {h[0]: h for h in parent.heads()}
        streams = sorted(set(parent.streams()) | set(heads), key=str)
        work = [(s, heads.get(s)) for s in streams]
        with (shown or _unseen)(len(work)) as done:
            verdicts = _in_workers(url, parent.catalog, jobs, work, done)
        return linked(parent, verdicts)
    finally:
        if own:
            parent.close()


def _in_workers(url: str, catalog: Mapping[str, GameRules], jobs: int,
                work: list[tuple[UUID, Head | None]],
                done: Callable[[int], None]) -> list[Verdict]:
    size = max(1, -(-len(work) // (jobs * RUNS_PER_JOB)))
    runs = [work[i:i + size] for i in range(0, len(work), size)]
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["projections.verify.jobs"])
    results: list[list[Verdict]] = [[] for _ in runs]
    finished = 0
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_open,
                             initargs=(url, dict(catalog))) as pool:
        futures: dict[Future[list[Verdict]], int] = {
            pool.submit(_verify_run, run): index for index, run in enumerate(runs)}
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            finished += len(results[futures[future]])
            done(finished)
    return [verdict for run in results for verdict in run]


@contextmanager
def _unseen(_total: int) -> Iterator[Callable[[int], None]]:
    yield lambda _done: None


def _open(url: str, catalog: Mapping[str, GameRules]) -> None:
    """A worker's own store, read-only, with the games of the parent's, for all its runs."""
    store = MatchStore(url=url, catalog=catalog, read_only=True)
    _worker["store"] = store
    _worker["keyrings"] = KeyringCache(store)


def _verify_run(run: Sequence[tuple[UUID, Head | None]]) -> list[Verdict]:
    store = _worker["store"]
    keyrings = _worker["keyrings"]
    assert isinstance(store, MatchStore) and isinstance(keyrings, KeyringCache)
    return [verify_stream(store, stream, head, keyrings) for stream, head in run]

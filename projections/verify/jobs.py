"""`verbale verify --jobs N`: the streams of the store verified by N processes, this one and
N - 1 workers.

The streams are taken in verify's own order and cut into runs of neighbours; each worker opens
the store itself, read-only, and verifies runs from the front with `verify_stream`, the very
check `verify_store` makes, stream by stream; this process verifies runs from the back (no
process waits for the workers to start: the forkserver imports the modules meanwhile) until
it meets the runs the workers have taken. The verdicts come back in stream order and the
tournaments are checked against their matches in this process, as `verify_store` does: what is
reported is the same, verdict for verdict, as with one process.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from uuid import UUID

from domain.record.games import GameRules
from projections.store.app import MatchStore
from projections.store.recorders import Head
from projections.store.signatures import KeyringCache
from projections.verify.links import linked
from projections.verify.streams import verify_stream
from projections.verify.verdicts import Verdict

RUNS_PER_JOB = 32
"""Runs of streams per process. Where this process meets the workers, it waits for what they
hold: the run each is verifying and the one queued behind it, which can no longer be cancelled
(the pool's call queue). Short runs keep that wait short; each costs a hand-over (about a
millisecond)."""

_worker: dict[str, MatchStore | KeyringCache] = {}


def jobs_wanted(jobs: int) -> int:
    """--jobs: 0 is every core."""
    return (os.cpu_count() or 1) if jobs == 0 else jobs


Shown = Callable[[int], AbstractContextManager[Callable[[int], None]]]
"""A progress bar: given the number of streams, a context whose callback takes how many are
done (replay_web/progress.py's `bar`)."""


def verify_parallel(url: str, jobs: int, shown: Shown | None = None,
                    store: MatchStore | None = None) -> list[Verdict]:
    """Every stream of the store at `url` by `jobs` processes, shown by `shown` as the runs of
    streams come back. `store` (opened at `url`, read-only) is used here for the list of
    streams, for the runs this process takes and for the cross-checks; without it one is
    opened."""
    own = store is None
    parent = store or MatchStore(url=url, read_only=True)
    try:
        heads = {h[0]: h for h in parent.heads()}
        streams = sorted(set(parent.streams()) | set(heads), key=str)
        work = [(s, heads.get(s)) for s in streams]
        with (shown or _unseen)(len(work)) as done:
            verdicts = _in_workers(parent, url, jobs, work, done)
        return linked(parent, verdicts)
    finally:
        if own:
            parent.close()


def _in_workers(parent: MatchStore, url: str, jobs: int, work: list[tuple[UUID, Head | None]],
                done: Callable[[int], None]) -> list[Verdict]:
    """The runs of `work` by `jobs - 1` workers and this process: a thread hands the runs to
    the workers from the front (its first hand-over waits for the forkserver to import the
    modules), this process verifies them from the back meanwhile, and after, as long as the
    run it comes to is not taken (or its hand-over can still be cancelled)."""
    size = max(1, -(-len(work) // (jobs * RUNS_PER_JOB)))
    runs = _Runs([work[i:i + size] for i in range(0, len(work), size)])
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["projections.verify.jobs"])
    keyrings = KeyringCache(parent)
    with ProcessPoolExecutor(max_workers=max(1, jobs - 1), mp_context=context,
                             initializer=_open, initargs=(url, dict(parent.catalog))) as pool:
        feeder = threading.Thread(target=runs.feed, args=(pool,), daemon=True)
        feeder.start()
        for index in reversed(range(len(runs.runs))):
            if not runs.take(index):
                break   # the workers have come this far
            runs.results[index] = [verify_stream(parent, stream, head, keyrings)
                                   for stream, head in runs.runs[index]]
            done(runs.shown())
        feeder.join()
        if runs.failed is not None:
            raise runs.failed
        for index, future in sorted(runs.futures.items()):
            if not future.cancelled():
                runs.results[index] = future.result()
                done(runs.shown())
    return [verdict for run in runs.results for verdict in run or ()]


class _Runs:
    """The runs of streams, each taken once: from the front by the thread that hands them to
    the workers, from the back by this process; `front` is the first run not handed over,
    `back` the last run this process took."""

    def __init__(self, runs: list[list[tuple[UUID, Head | None]]]) -> None:
        self.runs = runs
        self.results: list[list[Verdict] | None] = [None] * len(runs)
        self.futures: dict[int, Future[list[Verdict]]] = {}
        self.front, self.back = 0, len(runs)
        self.lock = threading.Lock()
        self.failed: BaseException | None = None

    def feed(self, pool: ProcessPoolExecutor) -> None:
        try:
            while True:
                with self.lock:
                    if self.front >= self.back:
                        return
                    index, self.front = self.front, self.front + 1
                self.futures[index] = pool.submit(_verify_run, self.runs[index])
        except BaseException as error:  # raised in the caller's thread
            self.failed = error

    def take(self, index: int) -> bool:
        """Run `index` for this process: not handed over yet, or its hand-over cancelled."""
        with self.lock:
            if index >= self.front:
                self.back = index
                return True
        future = self.futures.get(index)
        return future is not None and future.cancel()

    def shown(self) -> int:
        """How many streams are verified so far, here or by a worker."""
        return sum(len(r) if r is not None else len(f.result())
                   if (f := self.futures.get(i)) is not None and f.done() and not f.cancelled()
                   else 0 for i, r in enumerate(self.results))


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

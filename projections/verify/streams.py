"""`verbale verify`: re-check every stream of the store from its stored bytes up.

For each stream, its stored record (structure.py), then its rules (rules.py); then tournaments
and matches against each other (links.py). A match still in progress is told apart from a
finished one, with the commitments it has not yet revealed. `verify_store(store, match)` reads
that stream only (and what it links to). `verify --jobs N` (jobs.py) runs `verify_stream` in
worker processes: one route, the same checks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from uuid import UUID

from domain.text import say
from projections.store.app import MatchStore
from projections.store.recorders import Head
from projections.store.signatures import KeyringCache
from projections.verify.links import linked, linked_one
from projections.verify.rules import audited, signed_rulings
from projections.verify.structure import category_of, kind_of, read_stream
from projections.verify.verdicts import Problem, Verdict


def verify_store(store: MatchStore, only: UUID | None = None,
                 each: Callable[[Sequence[UUID]], Iterable[UUID]] | None = None) -> list[Verdict]:
    """Every stream of the store, or only the stream `only` (read by its key: no other stream
    is read, except the tournament it names or the matches it schedules, for the cross-check).
    `each` wraps the streams' loop (a progress bar)."""
    if only is not None:
        verdict = verify_stream(store, only, store.chained.select_head(only))
        return [linked_one(store, verdict)]
    heads = {h[0]: h for h in store.heads()}
    streams = sorted(set(store.streams()) | set(heads), key=str)
    keyrings = KeyringCache(store)
    verdicts = [verify_stream(store, s, heads.get(s), keyrings)
                for s in (streams if each is None else each(streams))]
    return linked(store, verdicts)


def verify_stream(store: MatchStore, stream: UUID, head: Head | None,
                  keyrings: KeyringCache | None = None) -> Verdict:
    stored = store.stored(stream)
    read = read_stream(store, stream, stored, head)
    if not stored:
        return Verdict(stream, "?", 0,
                       read.problems or (Problem(None, "stream", say("no events")),))
    category = category_of(stored[0])
    if read.problems:
        return Verdict(stream, kind_of(stored[0]), len(stored), read.problems,
                       say("rules not checked: the stored record is broken"), category,
                       head=read.last_hash)
    if read.broken is not None:
        return Verdict(stream, kind_of(stored[0]), len(stored), (read.broken,),
                       category=category, head=read.last_hash)
    verdict = audited(store, stream, read.decoded)
    if verdict.category in ("match", "tarocchi"):
        verdict = signed_rulings(verdict, stored, read.decoded, keyrings or KeyringCache(store))
    return replace(verdict, head=read.last_hash)

"""The projection: the store's notification log folded into the read-model tables.

`catch_up` reads the log in batches after the last tracked notification and, for each batch,
folds its events into the rows and moves the tracking position (the library's `Tracking`: the
store's name and the batch's last notification id) in ONE transaction of the read models'
database, which is the store's own. A batch is either wholly folded and tracked, or not at all:
a process killed or failing mid-way resumes exactly after the last committed batch, so no event
is folded twice or missed. The position only moves forward: it is moved from the value the batch
started from (compare and set), so two catch-ups racing cannot both fold the same batch: the one
that loses finds the position moved, drops its batch and goes on after the winner's.
`rebuild` drops the tables and folds the whole log again: the same rows, row for row.
`fold_tracked` folds ONE event the same way (the library's ProjectionRunner on PostgreSQL,
follow.py): the runner and the batches share the one position, so an event is folded by whichever
moves the position past it first, and only once. Every event passes, folded or not: the rows
keep the last version of their stream, and the position is the log's last event.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from eventsourcing.persistence import Notification, Tracking
from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from projections.read_models.engine import writing
from projections.read_models.fold import FOLDED, At, fold, passed_over
from projections.read_models.fold_tarocchi import TAROCCHI_FOLDED
from projections.read_models.schema import Tracked, ensure_schema, reset
from projections.store.app import MatchStore
from projections.store.facts import TOPIC_OF, StoredFact

BATCH = 1000
TOPICS = tuple(sorted(TOPIC_OF[name] for name in (*FOLDED, *TAROCCHI_FOLDED)))
"""The stored topics of the events that change a row (a subscription's filter)."""
_TOPICS, _FOLDED = frozenset(TOPICS), frozenset((*FOLDED, *TAROCCHI_FOLDED))

Each = Callable[[Tracking], None]
"""Called with each batch's tracking, inside its transaction, before the commit (a progress
bar); raising there abandons that batch whole."""


class TrackingMoved(RuntimeError):
    """Another catch-up moved the tracking position during this one's batch: nothing of the
    batch was kept; run it again."""


def _nothing(_tracking: Tracking) -> None:
    return None


def catch_up(store: MatchStore, engine: Engine, batch: int = BATCH,
             each: Each = _nothing, stop: int | None = None) -> int:
    """Fold every event recorded after the tracked position (up to notification `stop`
    included, when given); return how many notifications this call folded (0: the tables
    were up to date)."""
    ensure_schema(engine)
    done = 0
    while True:
        start = position(engine, store.name)
        try:
            read = _one_batch(store, engine, batch, each, stop)
        except (TrackingMoved, IntegrityError):
            if position(engine, store.name) == start:
                raise   # not a race with another catch-up: a real problem
            continue    # another catch-up folded that batch first: go on after it
        if read == 0:
            return done
        done += read


def rebuild(store: MatchStore, engine: Engine, batch: int = BATCH,
            each: Each = _nothing) -> int:
    """Drop the read models and fold the whole log from its start."""
    with writing(engine).begin() as conn:
        reset(conn)
    return catch_up(store, engine, batch, each)


def position(engine: Engine, application_name: str) -> int | None:
    """The last notification id folded from `application_name`'s log, None before any."""
    with Session(engine) as session:
        return _position(session, application_name)


def _position(session: Session, application_name: str) -> int | None:
    found = session.execute(select(Tracked.notification_id).where(
        Tracked.application_name == application_name)).scalar()
    return None if found is None else int(found)


def _one_batch(store: MatchStore, engine: Engine, batch: int, each: Each,
               stop: int | None = None) -> int:
    with Session(writing(engine)) as session, session.begin():
        start = _position(session, store.name)
        if stop is not None and (start or 0) >= stop:
            return 0
        notifications = store.recorder.select_notifications(start, batch, stop,
                                                            inclusive_of_start=False)
        if not notifications:
            return 0
        _fold_all(store, session, notifications)
        tracking = Tracking(store.name, notifications[-1].id)
        advance(session, start, tracking)
        each(tracking)
    return len(notifications)


def _fold_all(store: MatchStore, session: Session,
              notifications: Sequence[Notification]) -> None:
    versions: dict[str, int] = {}
    for notification in notifications:
        versions[str(notification.originator_id)] = notification.originator_version
        if notification.topic not in _TOPICS or _no_scopa(notification):
            continue   # no row depends on it: not even decoded
        fact = cast(StoredFact, store.mapper.to_domain_event(notification))
        fold(fact.to_domain(), session, at(fact))
    passed_over(session, versions)


_CARD_PLAYED = TOPIC_OF["CardPlayed"]
_NO_SCOPA = b'"scopa":false'


def _no_scopa(notification: Notification) -> bool:
    """A card played without a scopa: it changes no row (fold.py), and it is most of the log,
    so it is told by its stored bytes, the canonical JSON of docs/events.md, without decoding
    it. `"scopa":false` can only be the data's key there (a quote inside a JSON string is
    escaped); bytes not in that form (another encoding, compressed) are decoded and folded."""
    return notification.topic == _CARD_PLAYED and _NO_SCOPA in notification.state


def at(fact: StoredFact) -> At:
    """Where a stored event stands: its stream, the timestamp it was recorded at, its version."""
    return At(stream=str(fact.originator_id), timestamp=fact.timestamp,
              version=fact.originator_version)


def fold_tracked(engine: Engine, fact: StoredFact, tracking: Tracking) -> bool:
    """Fold one event at `tracking` and move the position to it, in one transaction; False,
    with nothing changed, if the position is already at or past it (a catch-up folded it)."""
    while True:
        start = position(engine, tracking.application_name)
        if start is not None and start >= tracking.notification_id:
            return False
        try:
            with Session(writing(engine)) as session, session.begin():
                if fact.type in _FOLDED:
                    fold(fact.to_domain(), session, at(fact))
                passed_over(session, {str(fact.originator_id): fact.originator_version})
                advance(session, start, tracking)
        except (TrackingMoved, IntegrityError):
            if position(engine, tracking.application_name) == start:
                raise   # not a race with a catch-up: a real problem
            continue    # a catch-up moved the position meanwhile: it may have folded this one
        return True


def advance(session: Session, start: int | None, tracking: Tracking) -> None:
    """Move the position from `start` (the position the batch began from, None before any)
    forward to the tracking's id, in the batch's transaction; TrackingMoved if it is no longer
    at `start` or the move would not be forward."""
    session.flush()
    if start is None:
        # A second catch-up inserting the same first row fails on the primary key.
        session.execute(insert(Tracked).values(application_name=tracking.application_name,
                                               notification_id=tracking.notification_id))
        return
    moved = session.execute(update(Tracked).where(
        Tracked.application_name == tracking.application_name,
        Tracked.notification_id == start,
        Tracked.notification_id < tracking.notification_id,
    ).values(notification_id=tracking.notification_id))
    if getattr(moved, "rowcount", 0) != 1:
        raise TrackingMoved(f"the read models of {tracking.application_name} were moved past "
                            f"notification {start} by another catch-up; run it again")

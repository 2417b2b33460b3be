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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from eventsourcing.persistence import Notification, Tracking
from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from projections.read_models.engine import writing
from projections.read_models.fold import FOLDED, At, fold
from projections.read_models.schema import Tracked, ensure_schema, reset
from projections.store.app import MatchStore
from projections.store.facts import TOPIC_OF, StoredFact

BATCH = 1000
_TOPICS = frozenset(TOPIC_OF[name] for name in FOLDED)

Each = Callable[[Tracking], None]
"""Called with each batch's tracking, inside its transaction, before the commit (a progress
bar); raising there abandons that batch whole."""


class TrackingMoved(RuntimeError):
    """Another catch-up moved the tracking position during this one's batch: nothing of the
    batch was kept; run it again."""


def _nothing(_tracking: Tracking) -> None:
    return None


def catch_up(store: MatchStore, engine: Engine, batch: int = BATCH,
             each: Each = _nothing) -> int:
    """Fold every event recorded after the tracked position; return how many notifications
    this call folded (0: the tables were up to date)."""
    ensure_schema(engine)
    done = 0
    while True:
        start = position(engine, store.name)
        try:
            read = _one_batch(store, engine, batch, each)
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


def _one_batch(store: MatchStore, engine: Engine, batch: int, each: Each) -> int:
    with Session(writing(engine)) as session, session.begin():
        start = _position(session, store.name)
        notifications = store.recorder.select_notifications(start, batch,
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
    for notification in notifications:
        if notification.topic not in _TOPICS:
            continue   # no row depends on it: not even decoded
        fact = cast(StoredFact, store.mapper.to_domain_event(notification))
        fold(fact.to_domain(), session, At(str(notification.originator_id), fact.timestamp))


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

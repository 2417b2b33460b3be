"""Issue 10, acceptance point 2: properties of the read models over random recorded matches.

Random plans (tests/projections/read_models/match_plans.py: Cirulla and Briscola, 2 and 4 players,
targets, smazzate, KO, cappotto, timeouts, abandons during play and between smazzate, rulings that
adjust a score or annul a smazzata, before and after the end, transcribed deals, matches left in
progress, some in a tournament) are recorded into a fresh store, and:

A. the tables folded incrementally, with catch-ups of random batch sizes at random points between
   the appends, equal a rebuild from scratch row for row (every table of FOLDED_TABLES);
B. each match's totals from its events (each Cirulla smazzata's scores the sum of its breakdown
   rows, a Briscola one's its `punti` row): the counted regular smazzate's scores plus the
   rulings' adjustments where they are points; a timeout or abandon settles what the events
   before it give (each side at least 0 with the points it kept, plus the penalty), and a ruling
   after it adjusts that result. They equal the settlement's points of the last MatchEnded and
   the read models' `match_scores(...).totals` (the three cases once found apart are pinned by
   their own tests at the end);
C. VP: 20 in all for an ended match whose format has a VP column (10-10 for a draw, the column's
   top row for a cappotto), except after a timeout or abandon: the guilty line 0, the other at
   least 14 (C13); MP zero-sum but after a forfeit; each tournament line's VP and MP are the sums
   over its ended matches.

The hypothesis properties run on SQLite; the deterministic run of A runs on both databases.
Examples: the hypothesis profile's max_examples (tests/conftest.py) divided by EXAMPLES_DIVISOR,
at least MIN_EXAMPLES (dev: 12, ci: 30, deep: 400): each example records a few whole matches.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import cycle
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, select

from domain.events import SmazzataEnded
from domain.match_format import MatchFormat, SmazzataResult, match_status, missing_vp_column
from domain.record.catalog import parse_format, unit_of
from domain.record.events import (
    Abandoned,
    MatchCreated,
    MatchEnded,
    RulingRecorded,
    TimeoutRecorded,
    result_of,
)
from domain.record.simulate import Incidents
from domain.vp_table import FORFEIT_MIN_VP, VP_TOTAL, cappotto_vp, settled_vp
from projections.read_models.project import catch_up, rebuild
from projections.read_models.schema import FOLDED_TABLES, Linea, Partita
from projections.read_models.scores import match_scores
from projections.read_models.tallies import LINE_JOIN
from projections.store.app import MatchStore
from tests.projections.conftest import Backend
from tests.projections.read_models.match_plans import (
    FIXED_PLANS,
    MatchPlan,
    Recording,
    RulingPlan,
    match_plans,
    match_streams,
)
from tests.projections.read_models.rows import opened

EXAMPLES_DIVISOR = 5
MIN_EXAMPLES = 4
EXAMPLES = max(MIN_EXAMPLES, settings().max_examples // EXAMPLES_DIVISOR)
Steps = list[tuple[int, int, int | None]]
"""(which unfinished match, how many of its actions, then a catch-up of this batch size or
none): the order the appends and the catch-ups take, repeated until every match is recorded."""

# Each match its own seed: the store refuses a seed used twice (the seed registry).
plan_lists = st.lists(match_plans(), min_size=1, max_size=4, unique_by=lambda plan: plan.seed)
steps = st.lists(st.tuples(st.integers(0, 7), st.integers(1, 150),
                           st.one_of(st.none(), st.integers(1, 90))), min_size=1, max_size=10)




@contextmanager
def _fresh_sqlite() -> Iterator[tuple[MatchStore, Engine]]:
    """A new SQLite store per example (pytest's tmp_path is one per test, not per example)."""
    with tempfile.TemporaryDirectory() as folder, \
            opened(f"sqlite:///{Path(folder) / 'verbale.db'}") as both:
        yield both


def folded_rows(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Every folded table's rows, in a stable order (repr: some columns hold nulls)."""
    with engine.connect() as conn:
        return {table.name: sorted((tuple(row) for row in conn.execute(select(table))), key=repr)
                for table in FOLDED_TABLES}


def record_interleaved(store: MatchStore, engine: Engine, plans: list[MatchPlan],
                       order: Steps) -> None:
    """Record the plans chunk by chunk, streams interleaved, catching up where `order` says."""
    recording = Recording(store, plans)
    recording.start()
    for pick, size, batch in cycle(order):
        if not recording.append(pick, size):
            break
        if batch is not None:
            catch_up(store, engine, batch=batch)


def check_incremental_equals_rebuild(store: MatchStore, engine: Engine, last_batch: int,
                                     rebuild_batch: int) -> None:
    catch_up(store, engine, batch=last_batch)
    incremental = folded_rows(engine)
    assert rebuild(store, engine, batch=rebuild_batch) == store.recorder.max_notification_id()
    assert folded_rows(engine) == incremental


# ---- A: incremental equals rebuild --------------------------------------------------------------

@settings(max_examples=EXAMPLES)
@given(plans=plan_lists, order=steps, last_batch=st.integers(1, 400),
       rebuild_batch=st.integers(1, 400))
def test_incremental_read_models_equal_a_rebuild(plans: list[MatchPlan], order: Steps,
                                                 last_batch: int, rebuild_batch: int) -> None:
    with _fresh_sqlite() as (store, engine):
        record_interleaved(store, engine, plans, order)
        check_incremental_equals_rebuild(store, engine, last_batch, rebuild_batch)


# ---- B: totals -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class MatchFacts:
    """A match's events, with what its totals and VP depend on picked out."""

    created: MatchCreated
    fmt: MatchFormat
    events: tuple[object, ...]
    forfeit: TimeoutRecorded | Abandoned | None
    result: MatchEnded | None

    @property
    def guilty_side(self) -> int | None:
        return None if self.forfeit is None else self.created.sides[self.forfeit.seat]

    @property
    def rulings(self) -> list[RulingRecorded]:
        return [e for e in self.events if isinstance(e, RulingRecorded)]

    @property
    def ruled_after_forfeit(self) -> bool:
        if self.forfeit is None:
            return False
        after = self.events[self.events.index(self.forfeit):]
        return any(isinstance(e, RulingRecorded) for e in after)


def match_facts(store: MatchStore, stream: UUID) -> MatchFacts:
    events = tuple(fact.to_domain() for fact in store.facts(stream))
    created = events[0]
    assert isinstance(created, MatchCreated)
    forfeits = [e for e in events if isinstance(e, TimeoutRecorded | Abandoned)]
    assert len(forfeits) <= 1
    return MatchFacts(created, parse_format(created.game, created.match_format), events,
                      forfeits[0] if forfeits else None, result_of(events))


def regular_points(fmt: MatchFormat, events: Sequence[object]) -> tuple[int, int]:
    """The counted regular smazzate's scores in `events`: those annulled by a ruling among
    them left out, and the KO spareggi (a smazzata played when the counted ones before it call
    for a spareggio)."""
    annulled = {e.smazzata for e in events
                if isinstance(e, RulingRecorded) and e.kind == "annul-smazzata"}
    counted: list[SmazzataResult] = []
    points = [0, 0]
    for ended in (e for e in events if isinstance(e, SmazzataEnded)):
        if ended.number in annulled:
            continue
        outcome = ended.outcome
        assert outcome is not None
        if match_status(fmt, counted).next_tiebreak == 0:
            points = [points[0] + ended.scores[0], points[1] + ended.scores[1]]
        counted.append(SmazzataResult(ended.scores, outcome.last_capture, outcome.cappotto,
                                      outcome.vinco_subito))
    return points[0], points[1]


def adjustments(fmt: MatchFormat, events: Sequence[object]) -> tuple[int, int]:
    """The rulings' adjustments in `events`, where they are points: in a Briscola match of
    smazzate they count smazzate won (domain/record/catalog.py `_standing`)."""
    if unit_of(fmt) != "punti":
        return (0, 0)
    rulings = [e for e in events if isinstance(e, RulingRecorded)]
    return (sum(r.adjustment[0] for r in rulings), sum(r.adjustment[1] for r in rulings))


def expected_totals(facts: MatchFacts) -> tuple[int, int]:
    """The regular points plus the rulings' adjustments. A timeout or abandon settles what the
    events before it give: each side at least 0 with the points it kept of the interrupted
    smazzata, plus the penalty; a ruling after it adjusts that result (decide.py `_restated`:
    an annulment after a forfeit changes no points)."""
    fmt, events = facts.fmt, facts.events
    if facts.forfeit is None:
        regular, adjusted = regular_points(fmt, events), adjustments(fmt, events)
        return regular[0] + adjusted[0], regular[1] + adjusted[1]
    cut = events.index(facts.forfeit)
    regular, adjusted = regular_points(fmt, events[:cut]), adjustments(fmt, events[:cut])
    kept, awarded = facts.forfeit.kept, facts.forfeit.awarded
    later = adjustments(fmt, events[cut:])
    assert kept is not None
    settled = [max(regular[side] + adjusted[side] + kept[side], 0) + awarded[side]
               + later[side] for side in (0, 1)]
    return settled[0], settled[1]


def check_smazzate_sum_their_breakdowns(facts: MatchFacts) -> None:
    for ended in (e for e in facts.events if isinstance(e, SmazzataEnded)):
        rows = ended.breakdown
        if facts.created.game == "cirulla":
            assert ended.scores == (sum(r[1] for r in rows), sum(r[2] for r in rows))
        else:
            assert [tuple(r[1:]) for r in rows if r[0] == "punti"] == [ended.scores]


def check_totals(store: MatchStore, engine: Engine, stream: UUID) -> None:
    """The events' totals are the settlement's points; the read models' are too (but where a
    known gap is)."""
    facts = match_facts(store, stream)
    check_smazzate_sum_their_breakdowns(facts)
    expected = expected_totals(facts)
    if facts.result is not None:
        assert facts.result.settlement is not None
        assert facts.result.settlement.points == expected, (stream, facts)
    scores = match_scores(engine, str(stream))
    assert scores is not None
    assert scores.totals == expected, (stream, facts)


@settings(max_examples=EXAMPLES)
@given(plans=plan_lists)
def test_totals_are_the_smazzate_plus_rulings_and_penalties(plans: list[MatchPlan]) -> None:
    with _fresh_sqlite() as (store, engine):
        recording = Recording(store, plans)
        recording.start()
        recording.finish()
        catch_up(store, engine)
        for stream in match_streams(store):
            check_totals(store, engine, stream)


# ---- C: VP and MP --------------------------------------------------------------------------------

def _partite(engine: Engine) -> dict[str, Any]:
    """rm_partite's rows by stream (plain rows: columns by name)."""
    with engine.connect() as conn:
        return {row.stream: row for row in conn.execute(select(Partita.__table__))}


def check_vp(facts: MatchFacts, row: Any) -> None:
    """C13, C11 and the draw: VP and MP per side of one match's row, as its events settle."""
    vp, mp = (row.vp_0, row.vp_1), (row.mp_0, row.mp_1)
    result = facts.result
    if result is None or missing_vp_column(facts.fmt) is not None:
        assert vp == (None, None) and mp == (None, None)
        return
    settlement = result.settlement
    assert settlement is not None
    settled = settled_vp(facts.fmt, result.winner, settlement.how, settlement.mp)
    assert settled is not None and (vp, mp) == (settled.vp, settled.mp)
    guilty = facts.guilty_side
    if settlement.how in ("timeout", "abandon"):
        assert guilty is not None and result.winner == 1 - guilty
        assert vp[guilty] == 0 and vp[1 - guilty] >= FORFEIT_MIN_VP
        return
    assert guilty is None
    assert vp[0] + vp[1] == VP_TOTAL and mp[0] + mp[1] == 0
    if result.winner is None:
        assert vp == (10, 10) and mp == (0, 0)
    elif settlement.how == "cappotto":
        assert vp[result.winner] == cappotto_vp(facts.fmt)[0]


def line_names(created: MatchCreated) -> tuple[str, str]:
    names = [LINE_JOIN.join(n for n, s in zip(created.players, created.sides, strict=True)
                            if s == side) for side in (0, 1)]
    return names[0], names[1]


def check_lines(engine: Engine, ended: list[tuple[MatchFacts, Any]]) -> None:
    """Each tournament line's VP and MP: the sums over its ended matches."""
    expected: dict[tuple[str, str], list[int]] = {}
    for facts, row in ended:
        if facts.created.tournament is None:
            continue
        vps, mps = (row.vp_0, row.vp_1), (row.mp_0, row.mp_1)
        for side, line in enumerate(line_names(facts.created)):
            total = expected.setdefault((facts.created.tournament, line), [0, 0, 0])
            total[0] += 1
            total[1] += vps[side] or 0
            total[2] += mps[side] or 0
    with engine.connect() as conn:
        stored = {(r.tournament, r.line): [r.played, r.vp, r.mp]
                  for r in conn.execute(select(Linea))}
    # A line whose result was taken back (its match resumed) is kept, with nothing played;
    # the standings leave it out.
    assert {key: row for key, row in stored.items() if row != [0, 0, 0]} == expected


@settings(max_examples=EXAMPLES)
@given(plans=plan_lists)
def test_vp_sum_to_20_but_after_a_forfeit(plans: list[MatchPlan]) -> None:
    with _fresh_sqlite() as (store, engine):
        recording = Recording(store, plans)
        recording.start()
        recording.finish()
        catch_up(store, engine)
        rows = _partite(engine)
        ended = []
        for stream in match_streams(store):
            facts = match_facts(store, stream)
            row = rows[str(stream)]
            check_vp(facts, row)
            event(f"{facts.created.game} {len(facts.created.players)}p: {row.state} "
                  f"{row.how or ''}{' (ruled)' if row.ruled else ''}")
            if facts.result is not None:
                ended.append((facts, row))
        check_lines(engine, ended)


# ---- A on both databases, deterministic ----------------------------------------------------------

def test_incremental_equals_rebuild_on_both_databases(backend: Backend) -> None:
    """One fixed set of plans covering every kind of match, recorded with catch-ups between the
    appends: the folded tables equal a rebuild, on SQLite and PostgreSQL."""
    with opened(backend.url) as (store, engine):
        record_interleaved(store, engine, list(FIXED_PLANS),
                           [(0, 37, None), (1, 11, 23), (2, 90, None), (5, 7, 64), (3, 120, 5)])
        check_incremental_equals_rebuild(store, engine, 17, 101)
        assert sum(1 for _ in match_streams(store)) == len(FIXED_PLANS)


# ---- B's cases once found apart: a ruling in a match of smazzate, and after a forfeit --------

GAPS = {
    "adjustment in a match of smazzate": MatchPlan(
        "briscola", 2, MatchFormat.parse("1smazzate", "briscola"), 21,
        rulings=(RulingPlan(999, False, (1, 0)),)),
    "adjustment below 0 after a forfeit": MatchPlan(
        "cirulla", 2, MatchFormat.parse("7pt", "cirulla"), 22,
        incidents=Incidents(timeout_at=1), rulings=(RulingPlan(999, False, (-7, -7)),)),
    "annulment after a forfeit": MatchPlan(
        "cirulla", 2, MatchFormat.parse("3smazzate", "cirulla"), 23,
        incidents=Incidents(abandon_between=(1, "commit", 0)), rulings=(RulingPlan(999, True),)),
}


@pytest.mark.parametrize("gap", sorted(GAPS))
def test_a_ruling_s_totals_follow_the_domain_s_order(gap: str, tmp_path: Path) -> None:
    """In a Briscola match of smazzate an adjustment changes the smazzate won, not the card
    points; after a forfeit a later adjustment adds after the floor at 0 and the penalty, and a
    later annulment leaves the forfeit's settlement as it was (domain/record/decide.py
    `_restated`, docs/read-models.md)."""
    with opened(f"sqlite:///{tmp_path / 'verbale.db'}") as (store, engine):
        recording = Recording(store, [GAPS[gap]])
        recording.start()
        recording.finish()
        catch_up(store, engine)
        (stream,) = match_streams(store)
        facts = match_facts(store, stream)
        assert facts.result is not None and facts.rulings
        assert facts.result.settlement is not None
        scores = match_scores(engine, str(stream))
        assert scores is not None
        assert scores.totals == facts.result.settlement.points

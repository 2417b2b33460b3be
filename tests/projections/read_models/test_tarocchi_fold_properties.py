"""Property of the Tarocchi read models (fold_tarocchi.py): whatever transactions the events are
folded in (the state read back from the rows at each new one, carried in the session within
it), after any prefix of a tournament's stream the rows give back the domain's own state, and
the standings rows after each seated turn are the domain's art. 9 standings, row for row.

The stream is an example tournament's (docs/examples/tarocchi: 13 places with a team, a
penalty, standings recomposition) with random arbiters' penalties added at random places. The
fold is run on an in-memory SQLite database (the SQL is the same as the stored tests', which run
on both databases: test_tarocchi_read_models.py). Examples: the hypothesis profile's
max_examples divided by 6, at least 8 (each folds a whole tournament).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from domain.tarocchi.commands import ImposePenalty
from domain.tarocchi.decide import decide
from domain.tarocchi.events import TarocchiEvent
from domain.tarocchi.penalties import CATALOGUE
from domain.tarocchi.standings import standings
from domain.tarocchi.state import TarocchiState, evolve, fold
from importers.sheets.tarocchi_import import import_sheets
from projections.read_models import fold_tarocchi  # noqa: F401  (registers the fold)
from projections.read_models.fold import At
from projections.read_models.fold import fold as fold_event
from projections.read_models.schema import Base
from projections.read_models.schema_tarocchi import TarocchiClassifica
from projections.read_models.state_tarocchi import state_of

EXAMPLES = Path(__file__).parents[3] / "docs" / "examples" / "tarocchi"
STREAM = "5eed0000-0000-4000-8000-00000000a003"
_FILES = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(EXAMPLES.glob("torneo-13*"))]
BASE_EVENTS = import_sheets(_FILES).events
_EXAMPLES = max(8, (settings().max_examples or 60) // 6)


def _with_penalties(events: Sequence[TarocchiEvent], picks: list[tuple[int, int, int, int, str]]
                    ) -> list[TarocchiEvent]:
    """The stream with each pick (position, player, turn, smazzata, code) ruled where the
    domain accepts it (a turn not seated yet at that place: the pick is dropped)."""
    state, out = TarocchiState(), []
    wanted = sorted(picks)
    for index, event in enumerate(events):
        while wanted and wanted[0][0] <= index:
            _, player, turn, smazzata, code = wanted.pop(0)
            kind = CATALOGUE[code]
            try:
                made = decide(state, ImposePenalty(player, turn, smazzata, code,
                                                   kind.fates[0].value, "Arbitro", "prova"))
            except ValueError:
                continue
            for fact in made:
                state = evolve(state, fact)
                out.append(fact)
        state = evolve(state, event)
        out.append(event)
    return out


def _standings_rows(session: Session, turn: int) -> list[tuple[int, int, int, int, int, int,
                                                                  int, int | None]]:
    rows = session.scalars(select(TarocchiClassifica).where(
        TarocchiClassifica.stream == STREAM, TarocchiClassifica.turn == turn).order_by(
        TarocchiClassifica.rank, TarocchiClassifica.number))
    return [(r.rank, r.number, r.points, r.difference, r.plus, r.solita, r.extra, r.lot)
            for r in rows]


@settings(max_examples=_EXAMPLES)
@given(picks=st.lists(st.tuples(st.integers(0, len(BASE_EVENTS)), st.integers(1, 12),
                                st.integers(1, 4), st.integers(1, 4),
                                st.sampled_from(sorted(CATALOGUE))), max_size=4),
       cuts=st.lists(st.integers(1, len(BASE_EVENTS) + 4), max_size=6),
       prefix=st.integers(1, len(BASE_EVENTS) + 4))
def test_any_prefix_folded_in_any_transactions_is_the_domains_state_and_standings(
        picks: list[tuple[int, int, int, int, str]], cuts: list[int], prefix: int) -> None:
    events = _with_penalties(BASE_EVENTS, picks)[:prefix]
    engine = create_engine("sqlite://")
    Base.metadata.create_all(engine)
    bounds = sorted({0, len(events), *(c for c in cuts if c < len(events))})
    for start, end in pairwise(bounds):
        with Session(engine) as session, session.begin():
            for version in range(start, end):
                fold_event(events[version], session, At(STREAM, "2026-11-29T09:00:00.000000Z",
                                                        version + 1))
    expected = fold(events)
    with Session(engine) as session:
        assert state_of(session, STREAM) == expected
        for turn in range(1, len(expected.turns) + 1):
            assert _standings_rows(session, turn) == [
                (line.rank, line.number, line.points, line.difference, line.plus, line.solita,
                 line.extra, line.lot) for line in standings(expected, turn)]
        assert _standings_rows(session, len(expected.turns) + 1) == []
    engine.dispose()

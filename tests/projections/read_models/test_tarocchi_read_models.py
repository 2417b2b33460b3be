"""The Tarocchi tournaments' read models (schema_tarocchi.py), folded from the log on both
databases: the state read back from the rows is the stream's own, the standings after each turn
are the domain's (art. 9), a later penalty changes them, and a rebuild gives every row back."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import cast

import pytest

from domain.record.envelope import RecordedBy
from domain.tarocchi.commands import ImposePenalty
from domain.tarocchi.standings import standings
from domain.tarocchi.state import TarocchiState
from importers.sheets.tarocchi_import import import_sheets
from projections.read_models.project import catch_up, rebuild
from projections.read_models.queries_tarocchi import (
    tarocchi_standings,
    tarocchi_state,
    tarocchi_tournament,
    tarocchi_tournaments,
    tarocchi_turns,
)
from projections.store.app import Loaded, MatchStore
from projections.store.tarocchi import (
    execute_tarocchi,
    imported_id,
    load_tarocchi,
    record_tarocchi,
)
from tests.projections.conftest import Backend
from tests.projections.read_models.rows import opened, table_rows

EXAMPLES = Path(__file__).parents[3] / "docs" / "examples" / "tarocchi"
AT = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
BY = RecordedBy("importer", "test")


def store_example(store: MatchStore, pattern: str) -> Loaded:
    files = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(EXAMPLES.glob(pattern))]
    imported = import_sheets(files)
    return record_tarocchi(store, load_tarocchi(store, imported_id(files), must_exist=False),
                           imported.events, AT, BY)


def ranked(state: TarocchiState, turn: int) -> list[tuple[int, int, str, int, int, int, int,
                                                          int, int | None]]:
    return [(line.rank, line.number, line.name, line.points, line.difference, line.plus,
             line.solita, line.extra, line.lot) for line in standings(state, turn)]


@pytest.mark.parametrize("pattern", ["torneo-12.txt", "torneo-13*"])
def test_the_rows_give_back_the_stream_and_its_standings_after_each_turn(
        backend: Backend, pattern: str) -> None:
    with opened(backend.url) as (store, engine):
        loaded = store_example(store, pattern)
        catch_up(store, engine)
        stream = str(loaded.stream)
        state = cast(TarocchiState, loaded.state)
        assert tarocchi_state(engine, stream) == state
        [listed] = tarocchi_tournaments(engine)
        assert listed == tarocchi_tournament(engine, stream)
        assert (listed.places, listed.turns) == (state.places, 4)
        assert [t.turn for t in tarocchi_turns(engine, stream)] == [1, 2, 3, 4]
        for turn in range(1, 5):
            rows = tarocchi_standings(engine, stream, turn)
            assert [(r.rank, r.number, r.name, r.points, r.difference, r.plus, r.solita,
                     r.extra, r.lot) for r in rows] == ranked(state, turn)
        assert tarocchi_standings(engine, stream, 5) == []


def test_a_penalty_after_the_catch_up_changes_the_standings_and_rebuild_agrees(
        backend: Backend) -> None:
    with opened(backend.url) as (store, engine):
        loaded = store_example(store, "torneo-12.txt")
        catch_up(store, engine)
        stream = str(loaded.stream)
        before = {r.number: r.points for r in tarocchi_standings(engine, stream, 4)}
        ruled = execute_tarocchi(store, loaded.stream, [ImposePenalty(
            5, 2, 3, "renonce", "conteggiata", "Arbitro Rossi", "renonce a coppe")], AT,
            RecordedBy("arbiter", "Arbitro Rossi"))
        assert catch_up(store, engine) == 1
        after = {r.number: r.points for r in tarocchi_standings(engine, stream, 4)}
        assert after[5] == before[5] - 3
        assert {n: p for n, p in after.items() if n != 5} == {
            n: p for n, p in before.items() if n != 5}
        assert [r.points for r in tarocchi_standings(engine, stream, 1)] == [
            r.points for r in tarocchi_standings(engine, stream, 1)]
        assert tarocchi_state(engine, stream) == ruled.state
        folded = table_rows(engine)
        rebuild(store, engine)
        assert table_rows(engine) == folded
        assert folded["rm_tarocchi_penalita"] and folded["rm_tarocchi_classifica"]

"""The standings' order (projections/read_models/standings.py): VP, then MP, then the tie-break
keys one at a time; lines level after every key share their rank (docs/read-models.md)."""

from __future__ import annotations

import json
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from projections.read_models.schema import Linea, Partita
from projections.read_models.standings import _ranked


def _line(name: str, vp: int, mp: int, *, won: int = 0, made: int = 0,
          conceded: int = 0) -> Linea:
    return Linea(tournament="t", line=name, played=3, won=won, drawn=0, lost=3 - won, vp=vp,
                 mp=mp, points_for=made, points_against=conceded)


def _match(a: str, b: str, vp: tuple[int, int]) -> Partita:
    return Partita(stream=f"{a}-{b}", players=json.dumps([a, b]), sides=json.dumps([0, 1]),
                   vp_0=vp[0], vp_1=vp[1], state="ended")


def test_vp_then_mp_decide_first() -> None:
    rows = [_line("Anna", 30, 5), _line("Bruno", 31, -20), _line("Carla", 30, 9)]
    ranked = _ranked(rows, [], ("scontri",))
    assert [(r.rank, r.line, r.level) for r in ranked] == [
        (1, "Bruno", False), (2, "Carla", False), (3, "Anna", False)]


def test_scontri_counts_only_the_matches_between_the_level_lines() -> None:
    rows = [_line("Anna", 30, 5), _line("Bruno", 30, 5), _line("Carla", 12, -10)]
    ended = [_match("Anna", "Bruno", (6, 14)), _match("Anna", "Carla", (20, 0))]
    ranked = _ranked(rows, ended, ("scontri", "differenza"))
    assert [(r.rank, r.line, r.head_to_head) for r in ranked] == [
        (1, "Bruno", 14), (2, "Anna", 6), (3, "Carla", None)]


def test_the_next_key_breaks_what_the_one_before_left_level() -> None:
    rows = [_line("Anna", 30, 5, made=40, conceded=35, won=2),
            _line("Bruno", 30, 5, made=50, conceded=45, won=1),
            _line("Carla", 30, 5, made=41, conceded=30, won=1)]
    ranked = _ranked(rows, [], ("differenza", "vittorie"))
    assert [r.line for r in ranked] == ["Carla", "Anna", "Bruno"]
    assert [r.rank for r in ranked] == [1, 2, 3]


def test_lines_level_after_every_key_share_their_rank() -> None:
    rows = [_line("Anna", 30, 5, won=1), _line("Bruno", 30, 5, won=1), _line("Carla", 20, 0)]
    ranked = _ranked(rows, [], ("vittorie",))
    assert [(r.rank, r.level) for r in ranked] == [(1, True), (1, True), (3, False)]


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(-3, 3), st.integers(0, 3)),
                min_size=1, max_size=8))
def test_the_order_never_contradicts_vp_then_mp(keys: list[tuple[int, int, int]]) -> None:
    rows = [_line(f"L{i}", vp, mp, won=won) for i, (vp, mp, won) in enumerate(keys)]
    ranked = _ranked(rows, [], ("vittorie",))
    assert sorted(r.line for r in ranked) == sorted(r.line for r in rows)
    pairs = [(r.vp, r.mp, r.won) for r in ranked]
    assert pairs == sorted(pairs, key=lambda k: (-k[0], -k[1], -k[2]))
    for before, after in pairwise(ranked):
        level = (before.vp, before.mp, before.won) == (after.vp, after.mp, after.won)
        assert (after.rank == before.rank) == level
        assert after.rank <= ranked.index(after) + 1

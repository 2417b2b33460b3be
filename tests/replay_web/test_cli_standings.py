"""`verbale standings --tournament ID-or-name`: ranked lines, rounds and tables, from the read
models, checked against the store's own events, on both databases."""

from __future__ import annotations

from typing import Any

from domain.record.events import MatchScheduled
from projections.read_models.standings import DEFAULT_TIEBREAK, TIEBREAKS
from tests.replay_web.demo import Demo, json_of, run

LINE_KEYS = {"rank", "level", "line", "played", "won", "drawn", "lost", "vp", "mp",
             "points_for", "points_against", "head_to_head"}


def _tournament(demo: Demo, game: str) -> tuple[str, str]:
    (found,) = [(s, t.name) for s, t in demo.tournaments().items() if t.game == game]
    return found


def test_standings_add_up_the_tournament_s_results(demo: Demo) -> None:
    for game in ("cirulla", "briscola"):
        stream, name = _tournament(demo, game)
        ranked = json_of(demo.backend, "standings", "--tournament", stream[:8])
        assert ranked["tournament"] == {"id": stream, "name": name, "game": game}
        assert ranked["tiebreak"] == ["scontri", "differenza", "vittorie"]
        assert ranked["vp_table"]
        scheduled = {e.match: (e.round, e.table) for e in demo.events[stream]
                     if isinstance(e, MatchScheduled)}
        assert ranked["matches"] == len(scheduled)
        assert {t["match"]["id"]: (t["round"], t["table"]) for t in ranked["tables"]} \
            == scheduled
        ended = [t["match"] for t in ranked["tables"] if t["match"]["state"] == "ended"]
        assert ranked["ended"] == len(ended) == sum(
            demo.result(s) is not None for s in scheduled)
        lines = ranked["lines"]
        assert all(set(line) == LINE_KEYS for line in lines)
        assert sum(line["vp"] for line in lines) == sum(sum(m["vp"] or [0]) for m in ended)
        assert sum(line["played"] for line in lines) == 2 * len(ended)
        for line in lines:
            assert line["played"] == line["won"] + line["drawn"] + line["lost"]


def test_lines_are_ranked_by_vp_then_mp(demo: Demo) -> None:
    stream, _name = _tournament(demo, "cirulla")
    lines = json_of(demo.backend, "standings", "--tournament", stream)["lines"]
    keys = [(-line["vp"], -line["mp"]) for line in lines]
    assert keys == sorted(keys)
    for index, line in enumerate(lines):   # a rank is shared only by lines level (ex aequo)
        shared = index > 0 and line["rank"] == lines[index - 1]["rank"]
        assert line["rank"] == index + 1 or (shared and line["level"]
                                              and lines[index - 1]["level"])
        if line["level"]:
            assert sum(other["rank"] == line["rank"] for other in lines) > 1
    assert lines[0]["rank"] == 1


def test_the_tie_break_order_is_the_one_asked_for(demo: Demo) -> None:
    stream, _name = _tournament(demo, "cirulla")
    ranked = json_of(demo.backend, "standings", "--tournament", stream[:8], "--tiebreak",
                     "vittorie,fatti")
    assert ranked["tiebreak"] == ["vittorie", "fatti"]
    code, out, err = run("standings", "--tournament", stream[:8], "--tiebreak",
                         "vittorie,fatti", "--database", demo.url)
    assert code == 0 and err == ""
    assert "order: VP, MP, then vittorie, fatti" in out.splitlines()


def test_standings_as_tables(demo: Demo) -> None:
    stream, name = _tournament(demo, "briscola")
    code, out, err = run("standings", "--tournament", "briscola", "--database", demo.url)
    assert code == 0 and err == "", err
    lines = out.splitlines()
    assert lines[0] == f"{name} ({stream}), briscola"
    assert lines[1].startswith("VP table: ")
    header = next(line for line in lines if line.startswith("rank"))
    assert header.split() == ["rank", "line", "played", "W", "D", "L", "VP", "MP", "for",
                              "against"]
    assert "rounds and tables" in lines
    ranked: dict[str, Any] = json_of(demo.backend, "standings", "--tournament", "briscola")
    for table in ranked["tables"]:
        assert any(line.split()[:3] == [str(table["round"]), str(table["table"]),
                                        table["match"]["prefix"]] for line in lines)


def test_a_tournament_that_is_unknown_or_ambiguous_and_a_bad_tie_break(demo: Demo) -> None:
    code, out, err = run("standings", "--tournament", "no such tournament", "--database",
                         demo.url)
    assert (code, out) == (2, "") and "none has that id or name" in err
    code, out, err = run("standings", "--tournament", "dimostrativo", "--database", demo.url)
    assert (code, out) == (2, "") and "several match" in err and len(err.splitlines()) == 1
    code, out, err = run("standings", "--tournament", "cirulla", "--tiebreak", "scontri,age",
                         "--database", demo.url)
    assert (code, out) == (2, "") and err.startswith("verbale: --tiebreak: ")
    code, out, err = run("standings", "--tournament", "cirulla", "--tiebreak",
                         "fatti,fatti", "--database", demo.url)
    assert code == 2 and "distinct keys" in err


def test_the_help_names_every_tie_break_key() -> None:
    code, out, _err = run("standings", "--help")
    help_text = " ".join(out.split())
    assert code == 0
    assert all(f"{key} (" in help_text for key in TIEBREAKS)
    assert f"Default: {','.join(DEFAULT_TIEBREAK)}." in help_text

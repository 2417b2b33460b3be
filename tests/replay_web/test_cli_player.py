"""`verbale player NAME`: a player's record from the read models, checked against the store's
own events, on both databases."""

from __future__ import annotations

from domain.events import SmazzataEnded
from domain.record.events import Abandoned, TimeoutRecorded
from tests.replay_web.demo import Demo, json_of, run

COUNTS = {"matches", "ended", "won", "drawn", "lost", "smazzate", "vp", "mp", "accusi",
          "accusi_points", "scope", "timeouts", "abandons"}


def _names(demo: Demo) -> set[str]:
    return {name for stream in demo.matches() for name in demo.created(stream).players}


def test_each_record_counts_the_player_s_events(demo: Demo) -> None:
    for name in sorted(_names(demo)):
        record = json_of(demo.backend, "player", name)
        assert set(record) == COUNTS | {"player", "recent"} and record["player"] == name
        theirs = [s for s in demo.matches() if name in demo.created(s).players]
        assert record["matches"] == len(theirs)
        results = [(s, demo.result(s)) for s in theirs]
        assert record["ended"] == sum(r is not None for _s, r in results)
        assert record["won"] + record["drawn"] + record["lost"] == record["ended"]
        won = drawn = 0
        for stream, result in results:
            if result is None:
                continue
            created = demo.created(stream)
            side = created.sides[created.players.index(name)]
            won += result.winner == side
            drawn += result.winner is None
        assert (record["won"], record["drawn"]) == (won, drawn), name
        assert record["smazzate"] == sum(
            len({e.number for e in demo.events[s] if isinstance(e, SmazzataEnded)})
            for s in theirs)
        for kind, key in ((TimeoutRecorded, "timeouts"), (Abandoned, "abandons")):
            assert record[key] == sum(
                1 for s in theirs for e in demo.events[s]
                if isinstance(e, kind) and demo.created(s).players[e.seat] == name), key


def test_the_player_s_latest_matches(demo: Demo) -> None:
    record = json_of(demo.backend, "player", "Anna", "--recent", "3")
    assert len(record["recent"]) == 3
    assert all("Anna" in m["players"] for m in record["recent"])
    created = [m["created"] for m in record["recent"]]
    assert created == sorted(created, reverse=True)
    code, out, err = run("player", "anna", "--recent", "2", "--database", demo.url)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["player", "Anna"]
    assert ["matches", str(record["matches"])] == lines[1].split()
    assert "latest matches" in lines
    assert sum(line[:8] in {m["prefix"] for m in record["recent"]} for line in lines) == 2


def test_a_player_unknown_or_ambiguous(demo: Demo) -> None:
    code, out, err = run("player", "Zorro", "--database", demo.url)
    assert (code, out) == (2, "") and "nobody of that name has played" in err
    code, out, err = run("player", "a", "--database", demo.url)
    assert (code, out) == (2, "") and "several players match" in err
    assert len(err.splitlines()) == 1

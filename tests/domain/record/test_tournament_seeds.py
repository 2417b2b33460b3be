"""The tournament seed commitment (docs/shuffle.md, "Tournament seed commitment"): one root over
the sessions' commitments, any session revealed alone, checked against the root; the match seeds
of a revealed session re-derived."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.record.events import SessionSeedRevealed
from domain.record.tournament import (
    ScheduleMatch,
    TournamentRefused,
    TournamentState,
    decide_creation,
    decide_schedule,
    decide_seed_commitment,
    decide_session_reveal,
    evolve_tournament,
)
from domain.record.tournament_seeds import (
    MIXING,
    SessionSecrets,
    match_seed_of,
    reveal_problem,
    seed_findings,
    session_seed,
    table_seed,
)
from domain.shuffle import Seed

AT = datetime(2026, 11, 22, 18, 0, tzinfo=UTC)
secrets = st.lists(st.binary(min_size=16, max_size=40), min_size=1, max_size=40,
                   unique=True).map(lambda raw: SessionSecrets(tuple(Seed(r) for r in raw)))


def committed_tournament(director: SessionSecrets) -> TournamentState:
    state = TournamentState()
    for event in decide_creation(state, "Torneo", "cirulla"):
        state = evolve_tournament(state, event)
    commitment = director.committed("drand quicknet round 1000")
    for event in decide_seed_commitment(state, commitment.root, commitment.sessions,
                                        commitment.reference):
        state = evolve_tournament(state, event)
    return state


@given(director=secrets, pick=st.integers(0, 10**6),
       public=st.text(min_size=1).filter(str.strip))
def test_any_session_revealed_alone_checks_against_the_root(
        director: SessionSecrets, pick: int, public: str) -> None:
    session = pick % len(director.secrets) + 1
    commitment = director.committed("a draw")
    reveal = director.revealed(session, public)
    assert reveal_problem(commitment, reveal) is None
    state = committed_tournament(director)
    assert decide_session_reveal(state, reveal) == (reveal,)


@given(director=secrets, pick=st.integers(0, 10**6), other=st.binary(min_size=16, max_size=32))
def test_a_wrong_secret_fails(director: SessionSecrets, pick: int, other: bytes) -> None:
    session = pick % len(director.secrets) + 1
    reveal = director.revealed(session, "x")
    if other == director.secrets[session - 1].value:
        return
    forged = SessionSeedRevealed(session, other.hex(), reveal.commitment, reveal.path, "x")
    assert "does not give the commitment" in str(reveal_problem(director.committed("r"),
                                                                forged))
    with pytest.raises(TournamentRefused, match="does not give the commitment"):
        decide_session_reveal(committed_tournament(director), forged)


@given(director=secrets, pick=st.integers(0, 10**6), hop=st.integers(0, 10**6),
       bit=st.integers(0, 255))
def test_a_wrong_path_fails(director: SessionSecrets, pick: int, hop: int, bit: int) -> None:
    session = pick % len(director.secrets) + 1
    reveal = director.revealed(session, "x")
    commitment = director.committed("r")
    if reveal.path:   # one bit of one hash of the path flipped
        index = hop % len(reveal.path)
        raw = bytearray(bytes.fromhex(reveal.path[index]))
        raw[bit % 32] ^= 1 << (bit % 8)
        path = (*reveal.path[:index], raw.hex(), *reveal.path[index + 1:])
    else:             # a lone session: any path is too long
        path = ("00" * 32,)
    forged = SessionSeedRevealed(session, reveal.secret, reveal.commitment, path, "x")
    assert "inclusion path" in str(reveal_problem(commitment, forged))


@given(director=secrets.filter(lambda d: len(d.secrets) > 1), pick=st.integers(0, 10**6))
def test_a_session_revealed_as_another_fails(director: SessionSecrets, pick: int) -> None:
    """The leaf binds the session number: session n's secret and path do not pass as m's."""
    session = pick % len(director.secrets) + 1
    reveal = director.revealed(session, "x")
    other = session % len(director.secrets) + 1
    forged = SessionSeedRevealed(other, reveal.secret, reveal.commitment, reveal.path, "x")
    assert reveal_problem(director.committed("r"), forged) is not None


def test_the_public_value_is_mixed_and_one_value_serves_every_session() -> None:
    director = SessionSecrets((Seed(b"\x01" * 16), Seed(b"\x02" * 16)))
    state = committed_tournament(director)
    first = director.revealed(1, "draw 42")
    state = evolve_tournament(state, decide_session_reveal(state, first)[0])
    with pytest.raises(TournamentRefused, match="was revealed with 'draw 42'"):
        decide_session_reveal(state, director.revealed(2, "draw 43"))
    with pytest.raises(TournamentRefused, match="revealed already"):
        decide_session_reveal(state, first)
    with pytest.raises(TournamentRefused, match="its seeds are public"):
        decide_schedule(state, ScheduleMatch(1, 1, "m"))
    assert session_seed(director.secrets[0], 1, "draw 42") != session_seed(
        director.secrets[0], 1, "draw 43")
    assert match_seed_of(first, 3) == table_seed(session_seed(director.secrets[0], 1,
                                                              "draw 42"), 3)


def test_the_commitment_comes_before_play_and_bounds_the_rounds() -> None:
    director = SessionSecrets((Seed(b"\x01" * 16), Seed(b"\x02" * 16)))
    state = committed_tournament(director)
    with pytest.raises(TournamentRefused, match="committed its seeds already"):
        decide_seed_commitment(state, "0" * 64, 2, "r")
    with pytest.raises(TournamentRefused, match="seeds of 2 rounds only"):
        decide_schedule(state, ScheduleMatch(3, 1, "m"))
    scheduled = TournamentState()
    for event in decide_creation(scheduled, "T", "cirulla"):
        scheduled = evolve_tournament(scheduled, event)
    scheduled = evolve_tournament(scheduled, decide_schedule(scheduled,
                                                             ScheduleMatch(1, 1, "m"))[0])
    with pytest.raises(TournamentRefused, match="before play"):
        decide_seed_commitment(scheduled, "0" * 64, 2, "r")
    with pytest.raises(TournamentRefused, match="name the public value"):
        decide_seed_commitment(TournamentState(created=state.created), "0" * 64, 2, " ")


@given(public=st.text(min_size=1).filter(str.strip), wrong=st.text(min_size=1).filter(str.strip),
       table=st.integers(1, 8))
def test_verify_finds_a_match_seed_the_revealed_session_does_not_give(
        public: str, wrong: str, table: int) -> None:
    director = SessionSecrets((Seed(b"\x05" * 16),))
    commitment = director.committed("r")
    reveal = director.revealed(1, public)
    promised = match_seed_of(reveal, table).commitment()
    scheduled = [(3, 1, table, "m")]
    clean = seed_findings((2, AT, commitment), {1: reveal}, scheduled,
                          {"m": (AT + timedelta(minutes=1), promised)})
    assert clean == []
    if wrong != public:   # the session revealed with another public value than the one mixed
        other = director.revealed(1, wrong)
        found = seed_findings((2, AT, commitment), {1: other}, scheduled,
                              {"m": (AT + timedelta(minutes=1), promised)})
        assert [m for _, m in found] and "revealed session 1 gives" in found[0][1]


def test_verify_finds_a_match_created_before_the_commitment_and_an_unknown_rule() -> None:
    director = SessionSecrets((Seed(b"\x05" * 16),))
    commitment = director.committed("r")
    found = seed_findings((2, AT, commitment), {}, [(1, 1, 1, "m")],
                          {"m": (AT - timedelta(seconds=1), None)})
    assert [v for v, _ in found] == [1, 2]
    assert "scheduled before" in found[0][1] and "created before" in found[1][1]
    odd = msgspec.structs.replace(commitment, mixing="xor")
    assert "mixing rule" in seed_findings((1, AT, odd), {}, [], {})[0][1]
    assert commitment.mixing == MIXING
    unbound = seed_findings((1, AT, commitment), {1: director.revealed(1, "p")},
                            [(2, 1, 1, "m")], {"m": (AT, None)})
    assert "commits to no match seed" in unbound[0][1]


def test_the_vector_of_docs_shuffle_md_section_15() -> None:
    """docs/shuffle.md section 15's vector and tag table, recomputed."""
    import re
    from pathlib import Path

    from domain.record.tournament_seeds import LEAF_TAG, SESSION_TAG, TABLE_TAG, table_seed
    doc = (Path(__file__).parents[3] / "docs" / "shuffle.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"^```tournament-seed-vector\n(.*?)^```", doc, flags=re.S | re.M)
    director = SessionSecrets(tuple(Seed(bytes([n]) * 16) for n in (1, 2, 3)))
    public = re.findall(r"public value:\s+(\S+)", block)[0]
    reveal = director.revealed(2, public)
    seed = session_seed(director.secrets[1], 2, public)
    tables = [(table_seed(seed, t).hex, table_seed(seed, t).commitment()) for t in (1, 2)]
    expected = [*director.commitments, director.committed("r").root, public, *reveal.path,
                seed.hex, *(h for pair in tables for h in pair)]
    assert re.findall(r"[0-9a-f]{64}", block) == expected
    for tag in (LEAF_TAG, SESSION_TAG, TABLE_TAG):
        assert f"`{tag[:-1].decode()}` `00` | `{tag.hex()}`" in doc

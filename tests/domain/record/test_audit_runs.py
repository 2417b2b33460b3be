"""`confirm` (domain/record/audit_runs.py) is `audit` for a record with nothing to report, and
None for any other: over random live matches of both games, matches a cappotto cuts short, and
random tamperings of the events or their moments."""

from __future__ import annotations

import random
from dataclasses import replace
from dataclasses import replace as dataclass_replace
from datetime import datetime, timedelta

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from domain.cards import DECK
from domain.cirulla.ruleset import STANDARD, Accuso
from domain.demo.matches import BOTS, NAMES, seeded_match
from domain.events import CardPlayed
from domain.match_format import MatchFormat
from domain.record.audit import Audit, audit
from domain.record.audit_runs import confirm
from domain.record.catalog import CATALOG, format_options
from domain.record.commands import CreateMatch
from domain.record.events import MatchCreated, TimeControl
from domain.record.match import MatchEvent
from domain.record.simulate import Incidents, Table, play_locally
from domain.shuffle import Seed
from tests.domain.cirulla.helpers import rulesets
from tests.domain.record.live import START, LiveMatch, live_matches, random_bot

Stream = list[tuple[MatchEvent, datetime]]


def agrees(stream: Stream) -> Audit | None:
    """confirm's answer, checked against audit's: the same Audit when the record is finished and
    clean, None otherwise."""
    exact = audit(CATALOG, stream)
    confirmed = confirm(CATALOG, stream)
    clean = not exact.findings and exact.pending is None
    assert confirmed == (exact if clean else None)
    return confirmed


@settings(deadline=None)
@given(match=live_matches())
def test_confirm_is_audit_on_random_live_matches(match: LiveMatch) -> None:
    agrees(list(match.recorded))


@settings(deadline=None)
@given(match=live_matches(), cut=st.integers(1, 400))
def test_confirm_leaves_a_match_in_progress_to_audit(match: LiveMatch, cut: int) -> None:
    stream = list(match.recorded)
    assert agrees(stream[:max(1, len(stream) - cut)]) is None


def _tampered(stream: Stream, rng: random.Random) -> Stream:
    """One change a forger (or a broken disk) could make to a match's events or moments."""
    changed = list(stream)
    plays = [i for i, (e, _) in enumerate(changed) if isinstance(e, CardPlayed)]
    at = rng.choice(plays) if plays else rng.randrange(len(changed))
    event, moment = changed[at]
    kind = rng.randrange(7)
    if kind == 0 and isinstance(event, CardPlayed):     # another card
        changed[at] = (replace(event, card=rng.choice(DECK)), moment)
    elif kind == 1 and isinstance(event, CardPlayed):   # another capture
        changed[at] = (replace(event, capture=tuple(rng.sample(DECK, rng.randrange(3)))), moment)
    elif kind == 2 and isinstance(event, CardPlayed):   # another seat, or scopa flipped
        changed[at] = (replace(event, seat=event.seat ^ 1, scopa=not event.scopa), moment)
    elif kind == 3:                                     # an event removed
        del changed[at]
    elif kind == 4 and at + 1 < len(changed):           # two events swapped
        changed[at], changed[at + 1] = changed[at + 1], changed[at]
    elif kind == 5:                                     # back in time, or one event later
        changed[at] = (event, moment - timedelta(hours=1) * rng.choice((1, -1)))
    else:                                               # a play's matta value written down
        changed[at] = (replace(event, matta_value=rng.randrange(1, 11))
                       if isinstance(event, CardPlayed) else event, moment)
    return changed


@settings(deadline=None)
@given(match=live_matches(), seed=st.integers(0, 2**32 - 1))
def test_confirm_is_audit_after_random_tamperings(match: LiveMatch, seed: int) -> None:
    stream = list(match.recorded)
    changed = _tampered(stream, random.Random(seed))
    confirmed = agrees(changed)
    if confirmed is not None:   # a change the rules cannot tell (a timestamp still in order)
        assert audit(CATALOG, changed).ok


@pytest.mark.parametrize("players,seed", [(2, 896), (4, 2023)])
def test_confirm_is_audit_when_a_cappotto_ends_the_match(players: int, seed: int) -> None:
    fmt = MatchFormat.parse("1smazzate", "cirulla", cappotto_ends=True)
    demo = seeded_match("cirulla", fmt, STANDARD, NAMES[:players], Seed(seed.to_bytes(16, "big")))
    table = Table(demo.match_seed, BOTS["cirulla"], Incidents())
    stream = [(event, at) for events, at, _ in play_locally(CATALOG, demo.setup, table, START)
              for event in events]
    assert agrees(stream) is not None


@st.composite
def facoltativo_matches(draw: st.DrawFn) -> Stream:
    """A live Cirulla match under C8 "accuso facoltativo", 2 or 4 players, random moves."""
    ruleset = draw(rulesets.map(lambda r: dataclass_replace(r, accuso=Accuso.FACOLTATIVO)))
    players = draw(st.sampled_from((2, 4)))
    setup = CreateMatch(game="cirulla", ruleset=ruleset.options(),
                        players=("Anna", "Bruno", "Carla", "Dario")[:players],
                        match_format=format_options(MatchFormat.parse("1smazzate", "cirulla")),
                        time_control=TimeControl(per_move=60, bank=1800, abandon_after=300),
                        first_dealer=0)
    table = Table(Seed(draw(st.binary(min_size=16, max_size=16))),
                  random_bot("cirulla", random.Random(draw(st.integers(0, 2**32)))), Incidents())
    return [(event, at) for events, at, _ in play_locally(CATALOG, setup, table, START)
            for event in events]


@settings(deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                HealthCheck.too_slow])
@given(stream=facoltativo_matches())
def test_a_play_that_had_to_declare_first_is_left_to_audit(stream: Stream) -> None:
    """The lean replay takes a live Cirulla play by the transcriber's `advance`, which leaves a
    hand of three with an accuso and nothing declared to `decide` (C8 "accuso obbligatorio").
    A match played under "facoltativo", where a seat may play a
    hand that makes an accuso without declaring it, then written down as "obbligatorio": every
    event is what the rules give but for that play, which `decide` refuses; confirm must not
    confirm it."""
    created, at = stream[0]
    assert isinstance(created, MatchCreated)
    forged = [(replace(created, ruleset={**created.ruleset, "accuso": "obbligatorio"}), at),
              *stream[1:]]
    assume(not audit(CATALOG, forged).ok)
    assert agrees(stream) is not None
    assert agrees(forged) is None

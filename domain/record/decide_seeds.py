"""`decide` for the seeds of a match: commitments, players' contributions, the deal from a
committed seed, the reveals (of a smazzata's seed and of the match seed).

A deal is accepted only from the seed committed before it, mixed with the contributions in seat
order (docs/shuffle.md sections 3-4); a seed is revealed only once its smazzata is over, the
match seed once the match is over, and it must give every smazzata seed (section 2).
"""

from __future__ import annotations

import re
from typing import Any

from msgspec import structs

from domain.events import PlayEvent, SmazzataDealt
from domain.match_seed import first_dealer, smazzata_seed
from domain.record.commands import (
    CommitSeed,
    ContributeSeed,
    DealSmazzata,
    RevealMatchSeed,
    RevealSeed,
)
from domain.record.events import MatchSeedRevealed, SeedCommitted, SeedContributed, SeedRevealed
from domain.record.match import MatchEvent, MatchState, Phase
from domain.record.outcomes import settled
from domain.record.refusal import RecordRefused, need
from domain.shuffle import Seed, SeedError, check_commitment, commitment, mix_seeds
from domain.text import Said, said_of, say

HEX64 = re.compile(r"[0-9a-f]{64}")


def format_of(state: MatchState) -> Any:
    """The match format, parsed once when MatchCreated was folded (the game's own type)."""
    assert state.setup is not None
    return state.setup.match_format


def commit(state: MatchState, command: CommitSeed) -> SeedCommitted:
    need(state, Phase.COMMIT, say("commit the seed of smazzata {smazzata}",
                                  smazzata=state.smazzata + 1))
    if not HEX64.fullmatch(command.commitment):
        raise RecordRefused("seed-commitment", say("commitment {commitment!r} is not 64 "
                                                   "lowercase hex digits (SHA-256)",
                                                   commitment=command.commitment))
    if state.match_seed is not None and command.commitment == commitment(
            smazzata_seed(Seed.from_hex(state.match_seed), state.smazzata)):
        # A match resumed by a ruling after its match seed was revealed (MatchResumed).
        raise RecordRefused("seed-commitment", say(
            "the match seed is public: smazzata {smazzata} is dealt from a fresh seed, not the "
            "one the match seed gives", smazzata=state.smazzata + 1))
    return SeedCommitted(smazzata=state.smazzata, commitment=command.commitment)


def check_seed(state: MatchState, seed: Seed | None) -> Seed:
    if seed is None or state.commitment is None:
        raise RecordRefused("seed-commitment", say("smazzata {smazzata} needs its seed",
                                                   smazzata=state.smazzata + 1))
    try:
        check_commitment(seed, state.commitment)
    except SeedError as error:
        raise RecordRefused("seed-commitment", say("smazzata {smazzata}: {error}",
                                                   smazzata=state.smazzata + 1,
                                                   error=said_of(error) or str(error))) from None
    return seed


def contribute(state: MatchState, command: ContributeSeed) -> SeedContributed:
    need(state, Phase.DEAL, say("contribute to the seed of smazzata {smazzata}",
                                smazzata=state.smazzata + 1))
    assert state.seating is not None
    if not 0 <= command.seat < state.seating.players:
        raise RecordRefused("seed-contribution", say("seat {seat} does not exist",
                                                     seat=command.seat + 1))
    if state.contributions and command.seat <= state.contributions[-1][0]:
        raise RecordRefused("seed-contribution", say("seat {seat} contributes after seat "
                                                     "{previous}: contributions are mixed once "
                                                     "each, in seat order",
                                                     seat=command.seat + 1,
                                                     previous=state.contributions[-1][0] + 1))
    if len(command.contribution) >= 2**32:
        raise RecordRefused("seed-contribution", say("a contribution is shorter than 2^32 "
                                                     "bytes"))
    return SeedContributed(smazzata=state.smazzata, seat=command.seat,
                           contribution=command.contribution.hex())


def _effective(state: MatchState, house: Seed) -> Seed:
    """docs/shuffle.md section 4: the house seed mixed with the contributions, in seat order."""
    if not state.contributions:
        return house
    return mix_seeds(house, [bytes.fromhex(c) for _, c in state.contributions])


def deal(state: MatchState, command: DealSmazzata) -> tuple[MatchEvent, ...]:
    need(state, Phase.DEAL, say("deal smazzata {smazzata}", smazzata=state.smazzata + 1))
    seed = check_seed(state, command.seed)
    assert state.seating is not None
    events = state.engine.deal(state.ruleset, state.seating, state.dealer, state.smazzata,
                               _effective(state, seed))
    if state.contributions:
        # The deal names the house's commitment, the one published before the contributions.
        events = tuple(structs.replace(e, seed_commitment=state.commitment)
                       if isinstance(e, SmazzataDealt) else e for e in events)
    if command.claimed is not None and tuple(command.claimed) != events:
        raise RecordRefused("deal-from-seed", _deal_difference(command.claimed, events))
    return tuple(events)


def _deal_difference(claimed: tuple[PlayEvent, ...], derived: tuple[PlayEvent, ...]) -> Said:
    for index, (mine, theirs) in enumerate(zip(claimed, derived, strict=False)):
        if mine != theirs:
            return say("deal event {number} does not follow from the seed: recorded {recorded}, "
                       "the seed gives {derived}", number=index + 1, recorded=mine,
                       derived=theirs)
    return say("the deal has {recorded} events; the seed gives {derived}",
               recorded=len(claimed), derived=len(derived))


def reveal(state: MatchState, command: RevealSeed) -> tuple[MatchEvent, ...]:
    if state.phase is not Phase.REVEAL:
        raise RecordRefused("seed-reveal", say("the seed of smazzata {smazzata} is revealed "
                                               "only once the smazzata is over",
                                               smazzata=state.smazzata + 1))
    seed = check_seed(state, command.seed)
    revealed = SeedRevealed(smazzata=state.smazzata, seed=seed.hex)
    standing = state.rules.standing(format_of(state), state.counted(), state.adjustment)
    if not standing.over:
        return (revealed,)
    return (revealed, settled(standing, standing.reason, len(state.ended)))


def reveal_after_cappotto(state: MatchState, command: RevealSeed) -> SeedRevealed:
    """The seed of a smazzata a cappotto cut short (C11): the match ended at the play, so the
    seed is revealed after the MatchEnded, in an action of its own."""
    return SeedRevealed(smazzata=state.smazzata, seed=check_seed(state, command.seed).hex)


def reveal_match_seed(state: MatchState, command: RevealMatchSeed) -> MatchSeedRevealed:
    """The match seed, once the match is over: it must be the one committed at creation and
    give every smazzata seed revealed and the first dealer (docs/shuffle.md section 2)."""
    assert state.created is not None
    promise = state.created.match_seed_commitment
    if state.phase is not Phase.ENDED:
        raise RecordRefused("seed-reveal", say("the match seed is revealed once the match is "
                                               "over"))
    if promise is None or state.match_seed is not None:
        raise RecordRefused("seed-reveal", say("this match has no match seed to reveal (none "
                                               "committed, or already revealed)"))
    if state.commitment is not None:
        raise RecordRefused("seed-reveal", say("the seed of smazzata {smazzata} is revealed "
                                               "before the match seed",
                                               smazzata=state.smazzata + 1))
    try:
        check_commitment(command.seed, promise)
    except SeedError as error:
        raise RecordRefused("seed-commitment", say("match seed: {error}",
                                                   error=said_of(error) or str(error))) from None
    for number, seed in state.revealed:
        if smazzata_seed(command.seed, number).hex != seed:
            raise RecordRefused("match-seed", say("the seed revealed for smazzata {smazzata} is "
                                                  "not the one the match seed gives "
                                                  "(docs/shuffle.md §2)",
                                                  smazzata=number + 1))
    if first_dealer(command.seed, len(state.created.players)) != state.created.first_dealer:
        raise RecordRefused("match-seed", say("the first dealer is not the one the match seed "
                                              "gives"))
    return MatchSeedRevealed(seed=command.seed.hex)

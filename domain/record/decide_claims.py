"""`decide` for what people wrote about a match beside the play: a transcribed record's header
(TranscribeTags -> TagsTranscribed) and a claimed score (ClaimScore -> ScoreClaimed); and what the
audit finds when a claim disagrees with the computed score.

Both are facts about the paper, not the game: they never change the game state, its phase or
its result. The header comes once, right after MatchCreated, in a transcribed match only (the
importer records it before the first deal). A score may be claimed for any smazzata that has
ended, in any match, also after the match ended: a club's score sheet arrives later.
"""

from __future__ import annotations

import re

from domain.events import SmazzataEnded
from domain.record.commands import ClaimScore, TranscribeTags
from domain.record.decide_seeds import HEX64
from domain.record.events import ScoreClaimed, TagsTranscribed
from domain.record.match import MatchState
from domain.record.refusal import RecordRefused
from domain.text import Said, say

TAGS_VERSION = 2
"""The version of a TagsTranscribed: the event right after MatchCreated."""
RESULT_TAG = "Result"
_RESULT = re.compile(r"\s*(\d+)\s*[-–]\s*(\d+)\s*")
_UNDECIDED = ("", "*")   # as in PGN: no result written (yet)


def tags(state: MatchState, command: TranscribeTags) -> TagsTranscribed:
    if not state.transcribed:
        raise RecordRefused("provenance", say("a record's header tags: only a transcribed match "
                                              "records them"))
    if state.version != TAGS_VERSION - 1:
        raise RecordRefused("tags", say("the header's tags come right after the match's "
                                        "creation, before any deal, and once"))
    if not HEX64.fullmatch(command.content_hash):
        raise RecordRefused("tags", say("content hash {content_hash!r} is not 64 lowercase hex "
                                        "digits (SHA-256)", content_hash=command.content_hash))
    names = [name for name, _ in command.tags]
    for name in names:
        if not name.strip() or name != name.strip():
            raise RecordRefused("tags", say("tag name {name!r}: a tag needs a name without "
                                            "surrounding spaces", name=name))
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise RecordRefused("tags", say("tag {name} is written more than once",
                                        name=repeated[0]))
    return TagsTranscribed(tags=tuple(command.tags), content_hash=command.content_hash)


def claim(state: MatchState, command: ClaimScore) -> ScoreClaimed:
    if not command.claimed_by.strip():
        raise RecordRefused("claim", say("a claimed score names whose claim it is"))
    ended = ended_smazzata(state, command.smazzata)
    if ended is None:
        raise RecordRefused("claim", say("smazzata {smazzata} has not ended: a score is claimed "
                                         "only for an ended smazzata",
                                         smazzata=command.smazzata + 1))
    if not command.rows:
        raise RecordRefused("claim", say("a claimed score has at least one category"))
    categories = [name for name, _, _ in ended.breakdown]
    seen: set[str] = set()
    for name, first, second in command.rows:
        if name not in categories:
            raise RecordRefused("claim", say("category {category!r} is not one of smazzata "
                                             "{smazzata}'s: {known}", category=name,
                                             smazzata=command.smazzata + 1,
                                             known=", ".join(categories)))
        if name in seen:
            raise RecordRefused("claim", say("category {category} is claimed twice",
                                             category=name))
        seen.add(name)
        if first < 0 or second < 0:
            raise RecordRefused("claim", say("{category} {first}-{second}: a claimed score is "
                                             "never negative", category=name, first=first,
                                             second=second))
    return ScoreClaimed(smazzata=command.smazzata, rows=tuple(command.rows),
                        claimed_by=command.claimed_by)


def ended_smazzata(state: MatchState, number: int) -> SmazzataEnded | None:
    return next((e for e in state.ended if e.number == number), None)


def claim_differences(state: MatchState, claimed: ScoreClaimed) -> tuple[Said, ...]:
    """One message per category whose claimed score is not the computed one (the breakdown of
    that smazzata's SmazzataEnded, as folded)."""
    ended = ended_smazzata(state, claimed.smazzata)
    if ended is None:
        return ()
    computed = {name: (first, second) for name, first, second in ended.breakdown}
    return tuple(
        say("smazzata {smazzata}: claimed {category} {claimed}, computed {computed} (claimed by "
            "{claimed_by})", smazzata=claimed.smazzata + 1, category=name,
            claimed=_pair((first, second)), computed=_pair(computed[name]),
            claimed_by=claimed.claimed_by)
        for name, first, second in claimed.rows
        if name in computed and (first, second) != computed[name])


def result_difference(state: MatchState) -> Said | None:
    """The header's `Result` ("A-B", side 1 - side 2 as people count sides) against the result
    of the ended match: the scores of its last MatchEnded (the match totals as the format counts
    them, what `verbale simulate` and `verbale matches` print, after any ruling). None when they
    agree, when there is no Result or no result written ("*"), or the match has not ended."""
    written = dict(state.tags).get(RESULT_TAG)
    if written is None or written.strip() in _UNDECIDED or state.result is None:
        return None
    scores = state.result.scores
    found = _RESULT.fullmatch(written)
    if found is None:
        return say("the Result tag {written!r} is not a result A-B; the match ended {computed}",
                   written=written, computed=_pair(scores))
    claimed = (int(found.group(1)), int(found.group(2)))
    if claimed == scores:
        return None
    return say("the Result tag says {claimed}, the match ended {computed} (the final scores, "
               "side 1 - side 2)", claimed=_pair(claimed), computed=_pair(scores))


def _pair(scores: tuple[int, int]) -> str:
    return f"{scores[0]}–{scores[1]}"

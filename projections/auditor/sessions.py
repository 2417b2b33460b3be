"""The outside auditor's check of a tournament's seeds (docs/shuffle.md section 15), written
again from the documents with the standard library only, like the rest of this package.

Given a tournament's export (`verbale export --match TOURNAMENT -o FILE`): the commitment comes
before any MatchScheduled, names the known mixing rule, and every SessionSeedRevealed checks:
its secret gives its commitment, its inclusion path leads from its leaf to the root (RFC 9162
section 2.1.3.2), every reveal names the same public value. For each revealed session, the match
seed commitment of every table scheduled in that round is derived and, when the match's export is
given too, compared with its MatchCreated; without it the derived commitment is a note to compare
by hand.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import Any

from .chain import check_chain
from .merkle import inclusion_root, leaf_hash
from .report import N_, Check, Findings, Line, Report, say
from .shuffle import commit

MIXING = "verbale/session-v1"


def session_leaf(session: int, commitment: str) -> bytes:
    """The leaf hash of a session's commitment in the tournament's tree."""
    return leaf_hash(b"verbale/session-leaf-v1\x00" + session.to_bytes(4, "big")
                     + bytes.fromhex(commitment))


def table_seed_commitment(secret: bytes, session: int, public_value: str, table: int) -> str:
    message = b"verbale/session-v1\x00" + session.to_bytes(4, "big") + public_value.encode()
    session_seed = hmac.new(secret, message, hashlib.sha256).digest()
    match_seed = hashlib.sha256(b"verbale/table-v1\x00" + len(session_seed).to_bytes(4, "big")
                                + session_seed + table.to_bytes(4, "big")).digest()
    return commit(match_seed)


def audit_tournament(lines: Sequence[Line], source: str = "export",
                     matches: Sequence[Sequence[Line]] = ()) -> Report:
    """The report on a card-game tournament's export (its first line `TournamentCreated`): its
    chain, and its sessions against the commitment; `matches`, exports of its matches."""
    return Report(source, len(lines), (check_chain(lines), check_sessions(lines, matches)))


def check_sessions(lines: Sequence[Line], matches: Sequence[Sequence[Line]] = ()) -> Check:
    """The `sessions` check of a tournament's export; `matches`, exports of its matches."""
    found = Findings()
    committed = next((line for line in lines if line.type == "TournamentSeedsCommitted"), None)
    if committed is None:
        return found.check(N_("sessions"), say(N_("no tournament seed commitment")), True)
    data = committed.data
    if data.get("mixing") != MIXING:
        found.problem(N_("line {line}: mixing rule {mixing} is not {known}"),
                      line=committed.number, mixing=data.get("mixing"), known=MIXING)
    for line in lines:
        if line.type == "MatchScheduled" and line.number < committed.number:
            found.problem(N_("line {line}: a match is scheduled before the seeds are committed"),
                          line=line.number)
    created = {str(m[0].record.get("stream")): m[0].data for m in matches if m}
    publics = set()
    revealed = 0
    for line in lines:
        if line.type == "SessionSeedRevealed":
            try:
                if _reveal(line, data, lines, created, found):
                    revealed += 1
                    publics.add(line.data["public_value"])
            except (KeyError, ValueError, TypeError, AttributeError) as error:
                found.malformed(line, error)
    if len(publics) > 1:
        found.problem(N_("the sessions are revealed with {count} different public values"),
                      count=len(publics))
    return found.check(N_("sessions"), say(N_("{sessions} sessions committed, {revealed} "
                                              "revealed"), sessions=data.get("sessions"),
                                           revealed=revealed))


def _reveal(line: Line, committed: dict[str, Any], lines: Sequence[Line],
            created: dict[str, dict[str, Any]], found: Findings) -> bool:
    reveal = line.data
    session, secret = int(reveal["session"]), bytes.fromhex(reveal["secret"])
    if commit(secret) != reveal["commitment"]:
        found.problem(N_("line {line}: the secret of session {session} does not give its "
                         "commitment"), line=line.number, session=session)
        return False
    path = [bytes.fromhex(h) for h in reveal["path"]]
    root = inclusion_root(session_leaf(session, reveal["commitment"]), session - 1,
                          int(committed["sessions"]), path)
    if root is None or root.hex() != committed["root"]:
        found.problem(N_("line {line}: the inclusion path of session {session} does not lead "
                         "to the committed root"), line=line.number, session=session)
        return False
    for scheduled in lines:
        if scheduled.type != "MatchScheduled" or scheduled.data.get("round") != session:
            continue
        table, match = int(scheduled.data["table"]), str(scheduled.data["match"])
        expected = table_seed_commitment(secret, session, reveal["public_value"], table)
        if match not in created:
            found.note(N_("round {round}, table {table}: match {match} must commit to match "
                          "seed {commitment}"), round=session, table=table, match=match,
                       commitment=expected)
        elif created[match].get("match_seed_commitment") != expected:
            found.problem(N_("round {round}, table {table}: match {match} commits to {found}, "
                             "the revealed session gives {commitment}"), round=session,
                          table=table, match=match,
                          found=created[match].get("match_seed_commitment"),
                          commitment=expected)
    return True

"""The tournament seed commitment (docs/shuffle.md, "Tournament seed commitment").

A session is a round of the tournament. Each session n (1 .. sessions) has a secret of at least
128 bits; its commitment is a seed's commitment (docs/shuffle.md section 3). Before play the
tournament records one root: the RFC 6962 Merkle root (domain/merkle.py) over the leaves

    "verbale/session-leaf-v1" 00 || BE32(n) || commitment_n (32 bytes)        leaf n - 1

with the public value it will mix in named by a reference. Once the value is published:

    session seed n = HMAC-SHA256(key = secret_n,
                                 msg = "verbale/session-v1" 00 || BE32(n) || UTF-8(public value))
    match seed of table t in round n = SHA-256("verbale/table-v1" 00 || BE32(32)
                                               || session seed n || BE32(t))

so revealing session n (its secret, commitment, inclusion path and the public value) proves the
match seed of every table of round n, and nothing about another round.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from domain.merkle import MerkleTree, leaf_hash, verify_inclusion
from domain.record.events import SessionSeedRevealed, TournamentSeedsCommitted
from domain.shuffle import Seed, SeedError
from domain.text import Said, said_of, say

MIXING = "verbale/session-v1"
"""The `mixing` of TournamentSeedsCommitted: the derivation above, version 1."""
LEAF_TAG = b"verbale/session-leaf-v1\x00"
SESSION_TAG = b"verbale/session-v1\x00"
TABLE_TAG = b"verbale/table-v1\x00"
HEX64 = re.compile(r"[0-9a-f]{64}")
MAX_SESSIONS = 2**32 - 1


def session_leaf(session: int, commitment: str) -> bytes:
    """The leaf data of session `session` (counted from 1) whose secret's commitment is
    `commitment` (64 hex digits)."""
    return LEAF_TAG + session.to_bytes(4, "big") + bytes.fromhex(commitment)


def seeds_root(commitments: Sequence[str]) -> str:
    """The root over the sessions' commitments, session 1 first (hex)."""
    return _tree(commitments).root.hex()


def inclusion_path(commitments: Sequence[str], session: int) -> tuple[str, ...]:
    """Session `session`'s inclusion path in the tree of `commitments` (hex, sibling first)."""
    return tuple(h.hex() for h in _tree(commitments).inclusion(session - 1))


def _tree(commitments: Sequence[str]) -> MerkleTree:
    return MerkleTree.of(leaf_hash(session_leaf(n, c))
                         for n, c in enumerate(commitments, start=1))


def session_seed(secret: Seed, session: int, public_value: str) -> Seed:
    """Session `session`'s seed: its secret mixed with the published public value."""
    message = SESSION_TAG + session.to_bytes(4, "big") + public_value.encode("utf-8")
    return Seed(hmac.new(secret.value, message, hashlib.sha256).digest())


def table_seed(session: Seed, table: int) -> Seed:
    """The match seed of table `table` (counted from 1) in the session whose seed is given."""
    if not 1 <= table <= MAX_SESSIONS:
        raise ValueError(say("table {table} out of range 1..2^32-1", table=table))
    return Seed(hashlib.sha256(TABLE_TAG + len(session.value).to_bytes(4, "big")
                               + session.value + table.to_bytes(4, "big")).digest())


def match_seed_of(reveal: SessionSeedRevealed, table: int) -> Seed:
    """The match seed of table `table` in the revealed session."""
    secret = Seed.from_hex(reveal.secret)
    return table_seed(session_seed(secret, reveal.session, reveal.public_value), table)


@dataclass(frozen=True, slots=True)
class SessionSecrets:
    """A director's secrets, session 1 first: what the commitment and every reveal come from.
    Kept private until a session is revealed."""

    secrets: tuple[Seed, ...]

    @property
    def commitments(self) -> tuple[str, ...]:
        return tuple(s.commitment() for s in self.secrets)

    def committed(self, reference: str) -> TournamentSeedsCommitted:
        return TournamentSeedsCommitted(root=seeds_root(self.commitments),
                                        sessions=len(self.secrets), reference=reference,
                                        mixing=MIXING)

    def revealed(self, session: int, public_value: str) -> SessionSeedRevealed:
        if not 1 <= session <= len(self.secrets):
            raise ValueError(say("session {session} is not among the {sessions} sessions",
                                 session=session, sessions=len(self.secrets)))
        secret = self.secrets[session - 1]
        return SessionSeedRevealed(session=session, secret=secret.hex,
                                   commitment=secret.commitment(),
                                   path=inclusion_path(self.commitments, session),
                                   public_value=public_value)


def reveal_problem(committed: TournamentSeedsCommitted,
                   reveal: SessionSeedRevealed) -> Said | None:
    """What is wrong with `reveal` against the commitment, None when it checks: the session
    exists, the secret gives the commitment, the path leads from its leaf to the root, the
    public value is given."""
    if not 1 <= reveal.session <= committed.sessions:
        return say("session {session} is not among the {sessions} committed sessions",
                   session=reveal.session, sessions=committed.sessions)
    try:
        secret = Seed.from_hex(reveal.secret)
    except SeedError as error:
        return say("session {session}: the secret is not a seed ({error})",
                   session=reveal.session, error=said_of(error) or str(error))
    if secret.commitment() != reveal.commitment:
        return say("session {session}: the secret does not give the commitment {commitment}",
                   session=reveal.session, commitment=reveal.commitment)
    if not _hashes(reveal.path) or not HEX64.fullmatch(reveal.commitment):
        return say("session {session}: the inclusion path holds a hash that is not 64 lowercase "
                   "hex digits", session=reveal.session)
    leaf = leaf_hash(session_leaf(reveal.session, reveal.commitment))
    if not verify_inclusion(leaf, reveal.session - 1, committed.sessions,
                            [bytes.fromhex(h) for h in reveal.path],
                            bytes.fromhex(committed.root)):
        return say("session {session}: the inclusion path does not lead from the session's "
                   "commitment to the committed root {root}", session=reveal.session,
                   root=committed.root)
    if not reveal.public_value.strip():
        return say("session {session}: the public value is empty", session=reveal.session)
    return None


def _hashes(path: Sequence[str]) -> bool:
    return all(HEX64.fullmatch(h) for h in path)


Finding = tuple[int | None, str]
"""A tournament seed finding: the tournament event it is about (None: the stream), the message."""


def seed_findings(commitment: tuple[int, datetime, TournamentSeedsCommitted],
                  reveals: Mapping[int, SessionSeedRevealed],
                  scheduled: Sequence[tuple[int, int, int, str]],
                  created: Mapping[str, tuple[datetime, str | None]]) -> list[Finding]:
    """What `verbale verify` finds wrong with a tournament's seeds beyond its own stream
    (whose every event the aggregate re-decides): `commitment` is (event version, time, event);
    `scheduled` (event version, round, table, match) of every MatchScheduled; `created` each
    scheduled match's creation time and match seed commitment (absent: not stored, which the
    schedule's own check reports). The commitment must name the known mixing rule and precede
    every match, and every match of a revealed session must commit to the seed the session
    gives its table."""
    version, at, committed = commitment
    found: list[Finding] = []
    if committed.mixing != MIXING:
        found.append((version, say("mixing rule {mixing!r} is not one verbale knows ({known})",
                                   mixing=committed.mixing, known=MIXING)))
    for scheduled_at, round_, table, match in scheduled:
        if scheduled_at < version:
            found.append((scheduled_at, say("match {match} was scheduled before the seeds were "
                                            "committed", match=match)))
        made = created.get(match)
        if made is None:
            continue
        if made[0] < at:
            found.append((version, say("match {match} (round {round}, table {table}) was "
                                       "created before the seeds were committed",
                                       match=match, round=round_, table=table)))
        reveal = reveals.get(round_)
        if reveal is not None and committed.mixing == MIXING:
            found.extend(_match_finding(reveal, round_, table, match, made[1]))
    return found


def _match_finding(reveal: SessionSeedRevealed, round_: int, table: int, match: str,
                   promised: str | None) -> list[Finding]:
    try:
        expected = match_seed_of(reveal, table).commitment()
    except ValueError:
        return []   # a secret that is not a seed: the reveal's own check reports it
    if promised == expected:
        return []
    if promised is None:
        return [(None, say("round {round}, table {table}: match {match} commits to no match "
                           "seed, so its deals are not bound to session {round}",
                           round=round_, table=table, match=match))]
    return [(None, say("round {round}, table {table}: match {match} commits to match seed "
                       "{promised}, but revealed session {round} gives {expected}",
                       round=round_, table=table, match=match, promised=promised,
                       expected=expected))]

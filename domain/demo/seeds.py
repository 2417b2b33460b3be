"""The seeds of the demo tournaments (`verbale simulate matches --store`): each demo tournament
commits to its sessions before play, every demo match's seed derives from the session of its
round (docs/shuffle.md, "Tournament seed commitment"), and the sessions played are revealed.

Demo match `index` is played at round index // 4 + 1, table index % 4 + 1 of its game's
tournament. Session r's secret is SHA-256("verbale/demo-v1" 00 || demo seed || game || 00 ||
BE32(r)): anyone who knows the demo seed knows every secret, so the demo shows the procedure and
proves nothing. Its public value is the fixed string DEMO_PUBLIC_VALUE, not a draw.
"""

from __future__ import annotations

import hashlib

from domain.record.tournament_seeds import SessionSecrets, session_seed, table_seed
from domain.shuffle import Seed

DEMO_PUBLIC_VALUE = "verbale demo: a fixed public value, not a draw"
DEMO_REFERENCE = ("the demo's fixed public value, the text 'verbale demo: a fixed public value, "
                  "not a draw' (docs/shuffle.md, Tournament seed commitment)")
TABLES = 4
DEMO_SESSIONS = 2500
"""The rounds each demo tournament commits to: every round `--count` (at most 10,000 matches,
4 tables a round) can use, so a run with any count finds its rounds committed."""
_TAG = b"verbale/demo-v1\x00"


def demo_place(index: int) -> tuple[int, int]:
    """The round and table of demo match `index` in its tournament."""
    return index // TABLES + 1, index % TABLES + 1


def demo_secret(seed: Seed, game: str, session: int) -> Seed:
    return Seed(hashlib.sha256(_TAG + seed.value + game.encode() + b"\x00"
                               + session.to_bytes(4, "big")).digest())


def demo_secrets(seed: Seed, game: str) -> SessionSecrets:
    """The director's secrets of the demo tournament of `game`."""
    return SessionSecrets(tuple(demo_secret(seed, game, n)
                                for n in range(1, DEMO_SESSIONS + 1)))


def demo_match_seed(seed: Seed, game: str, index: int) -> Seed:
    """The match seed of demo match `index`: its table's seed in the session of its round."""
    round_, table = demo_place(index)
    secret = demo_secret(seed, game, round_)
    return table_seed(session_seed(secret, round_, DEMO_PUBLIC_VALUE), table)

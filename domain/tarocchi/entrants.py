"""Who plays: single players and teams sharing one player's place (003 art. 2)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.events import Fact
from domain.text import say


class EntrantError(ValueError):
    """An entrant list that cannot make a 003 tournament."""


class Entrant(Fact, frozen=True):   # stored inside Tarocchi events: strict like them
    """One place in the tournament: a player (`members` empty) or a team.

    003 art. 2: "alcuni giocatori potranno anche associarsi in squadra e decidere di partecipare
    come unico giocatore dividendo tra loro a piacimento il numero di turni o smazzate cui
    partecipare". A team has one number, one sheet and one line in the standings; each line of
    its sheet may say which member sat.
    """

    name: str
    members: tuple[str, ...] = ()

    @property
    def is_team(self) -> bool:
        return bool(self.members)


def check_entrants(entrants: Sequence[Entrant]) -> tuple[Entrant, ...]:
    """Names unique and non-empty, teams of two or more distinct members, nobody twice, a
    multiple of 4 places (art. 2)."""
    people: list[str] = []
    for entrant in entrants:
        if not entrant.name.strip():
            raise EntrantError(say("an entrant needs a name"))
        if entrant.is_team and len(set(entrant.members)) < 2:
            raise EntrantError(say("team {team}: a team has two or more different members",
                                   team=entrant.name))
        people.extend(entrant.members or (entrant.name,))
    names = [e.name for e in entrants]
    for name in names:
        if names.count(name) > 1:
            raise EntrantError(say("entrant {name} is listed twice", name=name))
    for person in people:
        if people.count(person) > 1:
            raise EntrantError(say("{person} plays in two places", person=person))
    if len(entrants) < 4 or len(entrants) % 4:
        raise EntrantError(say(
            "{count} places: a 003 tournament needs a multiple of 4, at least 4 (art. 2): "
            "{fewer} fewer places, by pairing players up as teams, or {more} more players",
            count=len(entrants), fewer=len(entrants) % 4, more=4 - len(entrants) % 4))
    return tuple(entrants)

"""The penalties of 003 art. 7-8: what each costs, in punti partita, and what it does to the
smazzata. An arbiter imposes them (events.PenaltyImposed); the player's sheet must show them
(art. 8: "essa deve comunque essere segnalata nella Scheda Punteggio del giocatore interessato").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from domain.text import say


class Fate(Enum):
    """What becomes of the smazzata."""

    PROSEGUE = "prosegue"            # play goes on, the smazzata counts
    RIDISTRIBUITA = "ridistribuita"  # dealt again before play: nothing to score
    RIPETUTA = "ripetuta"            # annulled and played again: the line holds the repetition
    ANNULLATA = "annullata"          # annulled: it counts zero for everyone, the penalty stays
    CONTEGGIATA = "conteggiata"      # counted as it stands (or as played to the end)


class PenaltyError(ValueError):
    """A penalty that the catalogue does not allow as asked."""


@dataclass(frozen=True, slots=True)
class PenaltyKind:
    code: str
    article: str
    name: str
    points: int
    fates: tuple[Fate, ...]
    extra_allowed: bool = False
    """8.a only: "più eventuali punti partita già maturati in negativo"."""
    needs_important_card: bool = False
    """8.c and 8.d: the point is due only for a Re, an Aria or the Picciotti, and never for the
    Solista."""
    source: str = ""


CATALOGUE: dict[str, PenaltyKind] = {k.code: k for k in (
    PenaltyKind("distribuzione", "7.a", "numero di carte errato alla distribuzione", 0,
                (Fate.RIDISTRIBUITA, Fate.PROSEGUE),
                source="La distribuzione deve essere rieseguita se: a. a fine distribuzione un "
                       "giocatore ha un numero di carte errato"),
    PenaltyKind("carta-girata", "7.b", "carta importante girata durante la distribuzione", 0,
                (Fate.RIDISTRIBUITA, Fate.PROSEGUE),
                source="per errore del mazziere o casualità si è girata ed è stata vista da 1 o "
                       "più giocatori una carta importante (Re, Arie o Picciotti)"),
    PenaltyKind("numero-carte", "8.a", "numero di carte errato", 1,
                (Fate.CONTEGGIATA, Fate.RIPETUTA), extra_allowed=True,
                source="il giocatore è punito con una penalità di 1 punto partita più eventuali "
                       "punti partita già maturati in negativo"),
    PenaltyKind("scarto-errato", "8.b", "scarto errato", 2, (Fate.RIPETUTA,),
                source="il giocatore è punito con una penalità di 2 punti partita; la smazzata "
                       "viene quindi annullata e ripetuta"),
    PenaltyKind("carta-esposta", "8.c", "esposizione di carta o gioco fuori turno", 1,
                (Fate.PROSEGUE,), needs_important_card=True,
                source="Nel caso il giocatore non sia Solista, se la carta esposta è un Re, "
                       "un'Aria o i Picciotti, egli viene penalizzato di 1 punto partita."),
    PenaltyKind("comunicazione", "8.d", "comunicazione vietata di possesso di carte", 1,
                (Fate.PROSEGUE,), needs_important_card=True,
                source="viene penalizzato, esponendo la carta, e seguendo regole e penalità come "
                       "da punto 8.c."),
    PenaltyKind("associazione", "8.e", "dichiarazione di associazione", 2, (Fate.PROSEGUE,),
                source="detta occorrenza è punita con una penalità di 2 punti gioco"),
    PenaltyKind("renonce", "8.f", "renonce", 3, (Fate.ANNULLATA, Fate.CONTEGGIATA),
                source="In entrambi i casi il giocatore che ha commesso la renonce viene "
                       "penalizzato di 3 punti partita."),
)}


def penalty_points(code: str, *, extra: int = 0, important_card: bool = True,
                   solista: bool = False) -> int:
    """The points a penalty of kind `code` costs. `extra` (8.a only): the punti partita already
    lost that the error adds; `important_card`, `solista` (8.c, 8.d): whether the card shown was
    a Re, an Aria or the Picciotti, and whether the player was the Solista."""
    kind = kind_of(code)
    if extra < 0 or (extra and not kind.extra_allowed):
        raise PenaltyError(say("penalty {code} (art. {article}): no extra points of {extra}",
                               code=code, article=kind.article, extra=extra))
    if kind.needs_important_card and (solista or not important_card):
        return 0
    return kind.points + extra


def kind_of(code: str) -> PenaltyKind:
    try:
        return CATALOGUE[code]
    except KeyError:
        raise PenaltyError(say("penalty {code!r}: expected one of {known}", code=code,
                               known=", ".join(CATALOGUE))) from None


def fate_of(code: str, fate: str) -> Fate:
    """The fate `fate` (a Fate value), checked against what the article allows for `code`."""
    kind = kind_of(code)
    allowed = ", ".join(f.value for f in kind.fates)
    try:
        chosen = Fate(fate)
    except ValueError:
        raise PenaltyError(say("fate {fate!r}: expected one of {allowed}", fate=fate,
                               allowed=allowed)) from None
    if chosen not in kind.fates:
        raise PenaltyError(say("penalty {code} (art. {article}): the smazzata is {allowed}, "
                               "not {fate}", code=code, article=kind.article, allowed=allowed,
                               fate=fate))
    return chosen

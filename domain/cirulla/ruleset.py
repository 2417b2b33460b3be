"""The Cirulla ruleset: every reading where the sources conflict or are silent is a named option.

`STANDARD` is source 000. docs/rules-interpretations.md lists each option with the sentences
involved (rules-notes C1-C18) and the test that pins it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from enum import Enum, StrEnum
from functools import lru_cache
from typing import Any

from domain.seating import Direction
from domain.text import say

# Option enums are StrEnums: their members hash at C speed, and the engine's caches key on them.


class RulesetError(ValueError):
    """An option name or value that the Cirulla ruleset does not have."""


class Redeal(StrEnum):
    """C1: when the initial deal goes 'a monte'."""

    DUE_ASSI = "due-assi"       # 000: two or more aces among the 4 table cards
    TRE_RE = "tre-re"           # 001: at least 3 of the 4 table cards are kings
    MAI = "mai"                 # 002: never


class DealOrder(StrEnum):
    """C2: the order of the initial distribution."""

    UNO_ALLA_VOLTA = "uno-alla-volta"   # 000: 3 each one at a time, then 4 to the table
    ALTERNATA = "alternata"             # 002: table, one each, three times; then a 4th table card


class AssoSuAsso(StrEnum):
    """C3: an ace played when an ace is on the table."""

    PRENDE_ASSO = "prende-asso"   # 000: it takes the ace, nothing else
    LIBERO = "libero"             # 002: it takes that ace, or makes 15 with table cards


class Primiera(StrEnum):
    """C5: how primiera is won."""

    SOMMA = "somma"         # 000: best card per suit, sum of primiera values, all 4 suits needed
    CONTEGGIO = "conteggio"  # 002: most sevens, then most sixes, then most aces


class MattaDurata(StrEnum):
    """C6: how long the matta keeps the value it took for an accuso."""

    MANO = "mano"           # 000: dropped on the table, back to 7 at the next mano
    SMAZZATA = "smazzata"   # 002: it keeps the value for the rest of the smazzata


class Accuso(StrEnum):
    """C8: who declares a player's cirulla or decino."""

    AUTOMATICO = "automatico"      # 000 default: the system declares it for the player
    FACOLTATIVO = "facoltativo"    # 000 with the automatism off: the player may declare it
    OBBLIGATORIO = "obbligatorio"  # 002: the player must declare it before playing


class PresaObbligata(StrEnum):
    """C16: what 'costretto a prendere' forbids."""

    CARTA = "carta"   # 000: a card that can capture cannot be discarded
    MANO = "mano"     # alternative: no discard at all while any card in hand can capture


@dataclass(frozen=True, slots=True)
class Ruleset:
    redeal: Redeal = Redeal.DUE_ASSI
    deal_order: DealOrder = DealOrder.UNO_ALLA_VOLTA
    direction: Direction = Direction.COUNTERCLOCKWISE
    asso_su_asso: AssoSuAsso = AssoSuAsso.PRENDE_ASSO
    piccola_fino_al: int = 6
    primiera: Primiera = Primiera.SOMMA
    matta_durata: MattaDurata = MattaDurata.MANO
    decino_tre_assi: int = 10
    accuso: Accuso = Accuso.AUTOMATICO
    presa_obbligata: PresaObbligata = PresaObbligata.CARTA

    def __post_init__(self) -> None:
        if self.piccola_fino_al not in (6, 7):
            raise RulesetError(say("piccola goes up to the 6 or the 7, not {value}",
                                   value=self.piccola_fino_al))
        if self.decino_tre_assi not in (10, 11):
            raise RulesetError(say("decino of three aces is 10 or 11, not {value}",
                                   value=self.decino_tre_assi))

    def options(self) -> dict[str, str]:
        """Every option with its value, as stored in a match record."""
        return dict(_options_of(self))

    def differences(self) -> dict[str, str]:
        standard = STANDARD.options()
        return {k: v for k, v in self.options().items() if standard[k] != v}


STANDARD = Ruleset()
"""Source 000, the reference ruleset."""

TAVERNA = Ruleset(redeal=Redeal.MAI, deal_order=DealOrder.ALTERNATA,
                  direction=Direction.CLOCKWISE, asso_su_asso=AssoSuAsso.LIBERO,
                  piccola_fino_al=7, primiera=Primiera.CONTEGGIO,
                  matta_durata=MattaDurata.SMAZZATA, decino_tre_assi=11,
                  accuso=Accuso.OBBLIGATORIO)
"""The tavern variants of source 002, all together."""


@lru_cache(maxsize=64)
def _options_of(ruleset: Ruleset) -> tuple[tuple[str, str], ...]:
    """`Ruleset.options` of an immutable ruleset, computed once: every match created or folded
    reads them (a handful of rulesets in a whole import)."""
    return tuple((f.name, _option_text(getattr(ruleset, f.name))) for f in fields(ruleset))


def _option_text(value: object) -> str:
    return value.value if isinstance(value, Enum) else str(value)


def _field_types() -> dict[str, type]:
    return {"redeal": Redeal, "deal_order": DealOrder, "direction": Direction,
            "asso_su_asso": AssoSuAsso, "piccola_fino_al": int, "primiera": Primiera,
            "matta_durata": MattaDurata, "decino_tre_assi": int, "accuso": Accuso,
            "presa_obbligata": PresaObbligata}


def option_help() -> str:
    parts = []
    for name, kind in _field_types().items():
        if issubclass(kind, Enum):
            choices = "|".join(str(m.value) for m in kind)
        else:
            choices = "6|7" if name == "piccola_fino_al" else "10|11"
        parts.append(f"{name}={choices}")
    return ", ".join(parts)


def parse_option(ruleset: Ruleset, text: str) -> Ruleset:
    """Apply one `name=value` option (names with '-' or '_'), e.g. `redeal=tre-re`."""
    name, sep, raw = text.partition("=")
    key = name.strip().replace("-", "_")
    kinds = _field_types()
    if not sep or key not in kinds:
        raise RulesetError(say("unknown Cirulla option {option}; options are: {options}",
                               option=repr(text), options=option_help()))
    kind = kinds[key]
    value: Any
    try:
        value = int(raw) if kind is int else kind(raw.strip())
    except ValueError:
        raise RulesetError(say("bad value for {option}: {value}; options are: {options}",
                               option=key, value=repr(raw), options=option_help())) from None
    return replace(ruleset, **{key: value})


def ruleset_from_options(options: Iterable[str], base: Ruleset = STANDARD) -> Ruleset:
    return _from_options(tuple(options), base)


@lru_cache(maxsize=64)
def _from_options(options: tuple[str, ...], base: Ruleset) -> Ruleset:
    """The options applied in order, once per distinct list: a ruleset is immutable, and every
    match created or folded rebuilds its own from the same few texts (an error is not kept)."""
    ruleset = base
    for option in options:
        if option.strip() == "taverna":
            ruleset = TAVERNA
            continue
        ruleset = parse_option(ruleset, option)
    return ruleset


def ruleset_from_dict(options: dict[str, str]) -> Ruleset:
    """Rebuild a ruleset from `Ruleset.options()` (as stored in a record)."""
    return ruleset_from_options(f"{k}={v}" for k, v in options.items())

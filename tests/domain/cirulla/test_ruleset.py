"""The Cirulla ruleset: every reading of C1-C8 and C16 is a named option."""

from __future__ import annotations

import pytest
from hypothesis import given

from domain.cirulla.ruleset import (
    STANDARD,
    TAVERNA,
    Accuso,
    AssoSuAsso,
    DealOrder,
    MattaDurata,
    PresaObbligata,
    Primiera,
    Redeal,
    Ruleset,
    RulesetError,
    parse_option,
    ruleset_from_dict,
    ruleset_from_options,
)
from domain.seating import Direction
from tests.domain.cirulla.helpers import rulesets


def test_standard_is_source_000() -> None:
    """The reference ruleset is 000: due assi (C1), one at a time counterclockwise (C2), the ace
    takes the ace (C3), piccola to the 6 (C4), primiera by sums (C5), the matta back to 7 at
    the next mano (C6), decino of aces 10 (C7), automatic accuso (C8), forced capture of the
    card (C16)."""
    reference = Ruleset(Redeal.DUE_ASSI, DealOrder.UNO_ALLA_VOLTA, Direction.COUNTERCLOCKWISE,
                        AssoSuAsso.PRENDE_ASSO, 6, Primiera.SOMMA, MattaDurata.MANO, 10,
                        Accuso.AUTOMATICO, PresaObbligata.CARTA)
    assert reference == STANDARD
    assert STANDARD.differences() == {}


def test_taverna_is_every_variant_of_002() -> None:
    """`--option taverna`: all the house variants of 002 at once (C1-C8)."""
    assert ruleset_from_options(["taverna"]) == TAVERNA
    assert TAVERNA.differences() == {
        "redeal": "mai", "deal_order": "alternata", "direction": "clockwise",
        "asso_su_asso": "libero", "piccola_fino_al": "7", "primiera": "conteggio",
        "matta_durata": "smazzata", "decino_tre_assi": "11", "accuso": "obbligatorio"}


@pytest.mark.parametrize("text, field, value", [
    ("redeal=tre-re", "redeal", Redeal.TRE_RE),
    ("redeal=mai", "redeal", Redeal.MAI),
    ("deal-order=alternata", "deal_order", DealOrder.ALTERNATA),
    ("direction=clockwise", "direction", Direction.CLOCKWISE),
    ("asso_su_asso=libero", "asso_su_asso", AssoSuAsso.LIBERO),
    ("piccola_fino_al=7", "piccola_fino_al", 7),
    ("primiera=conteggio", "primiera", Primiera.CONTEGGIO),
    ("matta_durata=smazzata", "matta_durata", MattaDurata.SMAZZATA),
    ("decino_tre_assi=11", "decino_tre_assi", 11),
    ("accuso=facoltativo", "accuso", Accuso.FACOLTATIVO),
    ("accuso=obbligatorio", "accuso", Accuso.OBBLIGATORIO),
    ("presa_obbligata=mano", "presa_obbligata", PresaObbligata.MANO),
])
def test_every_option_is_set_by_name(text: str, field: str, value: object) -> None:
    """The CLI's `--option name=value` (names with '-' or '_')."""
    ruleset = parse_option(STANDARD, text)
    assert getattr(ruleset, field) == value
    assert set(ruleset.differences()) == {field}


@pytest.mark.parametrize("text, words", [
    ("colore=rosso", "unknown Cirulla option"),
    ("redeal", "unknown Cirulla option"),
    ("redeal=sempre", "bad value for redeal"),
    ("piccola_fino_al=8", "piccola goes up to the 6 or the 7"),
    ("decino_tre_assi=12", "decino of three aces is 10 or 11"),
    ("piccola_fino_al=sei", "bad value for piccola_fino_al"),
])
def test_a_bad_option_is_refused_naming_it(text: str, words: str) -> None:
    with pytest.raises(RulesetError, match=words):
        parse_option(STANDARD, text)


@given(rulesets)
def test_options_round_trip_through_a_record(ruleset: Ruleset) -> None:
    """A match record stores `options()`; reading them back gives the same ruleset."""
    assert ruleset_from_dict(ruleset.options()) == ruleset

"""The inline SVG cards: well-formed, named, distinct, escaped and byte-for-byte stable."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from markupsafe import Markup

from domain.cards import DECK, SETTEBELLO, UNKNOWN, Card
from replay_web.svg_cards import SuitStyle, back_svg, card_svg, unknown_svg

NS = "{http://www.w3.org/2000/svg}"
STYLES: tuple[SuitStyle, ...] = ("italian", "french")


def parse(svg: Markup) -> ET.Element:
    root = ET.fromstring(str(svg))
    assert root.tag == f"{NS}svg"
    return root


def title_of(root: ET.Element) -> str | None:
    title = root.find(f"{NS}title")
    assert title is not None
    return title.text


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("card", DECK, ids=lambda c: c.code)
def test_every_card_is_well_formed_with_its_name(card: Card, style: SuitStyle) -> None:
    root = parse(card_svg(card, style))
    assert root.get("viewBox") == "0 0 60 90"
    assert root.get("role") == "img"
    expected = card.render("french") if style == "french" else card.italian_name
    assert title_of(root) in (expected, f"{expected} (settebello)")
    assert not any(el.tag.endswith("script") for el in root.iter())


@pytest.mark.parametrize("style", STYLES)
def test_every_card_looks_different(style: SuitStyle) -> None:
    drawings = {str(card_svg(c, style, title="same")) for c in DECK}
    assert len(drawings) == 40


def test_the_two_styles_draw_differently() -> None:
    for c in DECK:
        assert card_svg(c, "italian", title="x") != card_svg(c, "french", title="x")


def test_default_titles_follow_the_domain_names() -> None:
    assert title_of(parse(card_svg(SETTEBELLO, "italian"))) == "sette di denari (settebello)"
    assert title_of(parse(card_svg(SETTEBELLO, "french"))) == "7♦"
    assert title_of(parse(card_svg(DECK[39], "italian"))) == "re di spade"
    assert title_of(parse(card_svg(DECK[39], "french"))) == "K♠"


def test_rank_letters_in_the_corners() -> None:
    def texts(c: Card, style: SuitStyle) -> set[str | None]:
        return {el.text for el in parse(card_svg(c, style)).iter(f"{NS}text")}

    assert texts(DECK[7], "italian") == {"F"}
    assert texts(DECK[8], "italian") == {"C"}
    assert texts(DECK[9], "french") == {"K"}
    assert texts(DECK[0], "french") == {"A"}


def test_hostile_title_and_class_are_escaped() -> None:
    hostile = '</title><script>alert("x")</script>&'
    svg = card_svg(DECK[0], "italian", title=hostile, css_class='card" onload="x')
    root = parse(svg)
    assert title_of(root) == hostile
    assert root.get("class") == 'card" onload="x'
    assert "<script>" not in svg
    for other in (back_svg(hostile), unknown_svg(hostile)):
        assert title_of(parse(other)) == hostile
        assert "<script>" not in other


def test_output_is_deterministic() -> None:
    for style in STYLES:
        first = [str(card_svg(c, style)) for c in DECK]
        assert first == [str(card_svg(c, style)) for c in DECK]
    assert back_svg("coperta") == back_svg("coperta")


def test_back_and_unknown_cards() -> None:
    back = parse(back_svg("carta coperta"))
    assert title_of(back) == "carta coperta"
    assert back.get("class") == "card back"
    unknown = parse(unknown_svg("carta sconosciuta"))
    assert unknown.get("class") == "card unknown"
    assert "??" in {el.text for el in unknown.iter(f"{NS}text")}


def test_the_unknown_card_through_card_svg() -> None:
    root = parse(card_svg(UNKNOWN, "italian"))
    assert title_of(root) == "??"
    assert card_svg(UNKNOWN, "french", title="nessuno l'ha vista") == unknown_svg(
        "nessuno l'ha vista", css_class="card")


def test_drawings_are_small_and_self_contained() -> None:
    for style in STYLES:
        for c in DECK:
            svg = str(card_svg(c, style))
            assert len(svg) < 3000
            assert "href" not in svg and "url(" not in svg and " id=" not in svg
    assert len(back_svg("x")) < 2000

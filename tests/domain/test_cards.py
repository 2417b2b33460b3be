"""The 40-card deck: order, values, notation, parsing and rendering (domain/cards.py)."""

from __future__ import annotations

import copy
import pickle
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.cards import (
    DECK,
    EXPECTED,
    MATTA,
    RANKS,
    SETTEBELLO,
    SUITS,
    Card,
    CardParseError,
    Rank,
    Style,
    Suit,
    card,
    card_at,
    deck_sorted,
    excerpt,
    format_cards,
    parse_card,
    parse_cards,
    parse_suit,
    split_cards,
)

cards = st.sampled_from(DECK)
styles = st.sampled_from(["italian", "french"])


def test_forty_distinct_cards_indexed_in_deck_order() -> None:
    assert len(DECK) == 40
    assert len(set(DECK)) == 40
    assert [c.index for c in DECK] == list(range(40))
    assert all(card_at(i) is c for i, c in enumerate(DECK))


def test_deck_order_is_suit_times_ten_plus_rank_minus_one() -> None:
    """docs/shuffle.md, section 9: suits d c b s, ranks A 2..7 F C R."""
    assert [s.value for s in SUITS] == ["d", "c", "b", "s"]
    for s_number, suit in enumerate(SUITS):
        for rank in RANKS:
            c = DECK[s_number * 10 + int(rank) - 1]
            assert (c.suit, c.rank) == (suit, rank)
            assert card(suit, rank) is c
    assert [c.code for c in DECK[:10]] == ["Ad", "2d", "3d", "4d", "5d", "6d", "7d", "Fd", "Cd",
                                           "Rd"]


def test_capture_values_re_10_cavallo_9_fante_8() -> None:
    """000, "Il valore delle carte": "Re (K) 10, Cavallo (Q) 9, Fante (J) 8, 7 7, ..., Asso 1"."""
    assert [c.value for c in DECK[10:20]] == list(range(1, 11))
    assert (Rank.RE.value, Rank.CAVALLO.value, Rank.FANTE.value, Rank.ASSO.value) == (10, 9, 8, 1)


@pytest.mark.parametrize(("suit", "italian", "french", "symbol"), [
    (Suit.DENARI, "denari", "quadri", "♦"), (Suit.COPPE, "coppe", "cuori", "♥"),
    (Suit.BASTONI, "bastoni", "fiori", "♣"), (Suit.SPADE, "spade", "picche", "♠")])
def test_suit_correspondence_denari_quadri_coppe_cuori(suit: Suit, italian: str, french: str,
                                                       symbol: str) -> None:
    """000: "denari = quadri ♦, coppe = cuori ♥, bastoni = fiori ♣, spade = picche ♠"."""
    assert (suit.italian, suit.french, suit.symbol) == (italian, french, symbol)


def test_settebello_and_matta() -> None:
    """000: "Sette bello il sette di denari"; "Il 7 di cuori (coppe) diventa una matta"."""
    assert SETTEBELLO.italian_name == "sette di denari"
    assert MATTA.italian_name == "sette di coppe"


@given(cards)
def test_codes_and_italian_names_round_trip(c: Card) -> None:
    assert parse_card(c.code) is c
    assert parse_card(str(c)) is c
    assert parse_card(c.italian_name) is c
    assert parse_card(c.italian_name.upper()) is c
    assert repr(c) == f"Card({c.code})"


@pytest.mark.parametrize(("text", "suit", "rank"), [
    ("7d", Suit.DENARI, Rank.SETTE), ("Rc", Suit.COPPE, Rank.RE),
    ("Fb", Suit.BASTONI, Rank.FANTE), ("Cs", Suit.SPADE, Rank.CAVALLO),
    ("Ad", Suit.DENARI, Rank.ASSO), ("sette di denari", Suit.DENARI, Rank.SETTE),
    ("re di coppe", Suit.COPPE, Rank.RE), ("K♥", Suit.COPPE, Rank.RE),
    ("A♠", Suit.SPADE, Rank.ASSO), ("J♣", Suit.BASTONI, Rank.FANTE),
    ("Q♦", Suit.DENARI, Rank.CAVALLO), ("asso di picche", Suit.SPADE, Rank.ASSO),
    ("2 di spade", Suit.SPADE, Rank.DUE), ("  Cavallo di Fiori ", Suit.BASTONI, Rank.CAVALLO),
    ("7♦\ufe0f", Suit.DENARI, Rank.SETTE)])
def test_parser_accepts(text: str, suit: Suit, rank: Rank) -> None:
    assert parse_card(text) is card(suit, rank)


@pytest.mark.parametrize("text", ["Xd", "", "7z", "sette di tazze", "7", "d", "7dd",
                                  "sette di", "undici di denari"])
def test_parser_rejects_with_what_it_expected(text: str) -> None:
    with pytest.raises(CardParseError) as error:
        parse_card(text)
    assert f"{text!r} is not a card" in str(error.value)
    assert EXPECTED in str(error.value)
    assert "7d, Rc, Fb, Cs, Ad" in EXPECTED


@pytest.mark.parametrize("text", ["8d", "9c", "10s"])
def test_parser_rejects_eight_nine_ten(text: str) -> None:
    """000: 'carte francesi senza i Jolly, gli 8, i nove e i dieci'."""
    with pytest.raises(CardParseError, match="is not a card"):
        parse_card(text)


def test_parse_cards_reads_a_list_in_order() -> None:
    assert parse_cards("7d, Rc Fb,Cs  Ad") == tuple(
        parse_card(t) for t in ["7d", "Rc", "Fb", "Cs", "Ad"])
    assert parse_cards("   ") == ()


def test_parse_cards_rejects_duplicates() -> None:
    with pytest.raises(CardParseError, match="card 7d is listed twice in '7d Rc 7♦'"):
        parse_cards("7d Rc 7♦")


def test_parse_cards_names_the_bad_token_and_its_place() -> None:
    with pytest.raises(CardParseError, match="item 2 of 3 in the list, '7z', is not a card"):
        parse_cards("7d 7z Rc")


@pytest.mark.parametrize(("text", "codes"), [
    ("sette di denari, re di coppe", ["7d", "Rc"]),
    ("asso di spade,re di coppe ,  7d", ["As", "Rc", "7d"]),
    ("sette di denari", ["7d"]),
    ("4c 7b 2s", ["4c", "7b", "2s"]),
    ("4c, 7b 2s", ["4c", "7b", "2s"]),
    ("K♥ A♠, cavallo di fiori", ["Rc", "As", "Cb"]),
    ("2 di spade, 7 di denari", ["2s", "7d"]),
])
def test_parse_cards_reads_words_separated_by_commas(text: str, codes: list[str]) -> None:
    """README: "Italian and French words and the symbols ♦♥♣♠ are read too"."""
    assert [c.code for c in parse_cards(text)] == codes


def test_split_cards_keeps_a_suffix_for_the_caller() -> None:
    assert split_cards("7c=1 Ad") == ("7c=1", "Ad")
    assert split_cards("sette di coppe=1, asso di denari") == ("sette di coppe=1",
                                                               "asso di denari")
    assert split_cards(" , ,") == ()


def test_words_without_commas_are_refused_with_a_hint() -> None:
    with pytest.raises(CardParseError) as error:
        parse_cards("sette di denari re di coppe")
    message = str(error.value)
    assert message.startswith("item 1 of 6 in the list, 'sette', is not a card")
    assert message.endswith("separate cards written in words with commas: "
                            "'sette di denari, re di coppe'")


def test_a_long_bad_input_is_quoted_in_an_excerpt() -> None:
    long = "sette di tazze " * 20
    for call in (lambda: parse_card(long), lambda: parse_cards(long.replace(" ", "-"))):
        with pytest.raises(CardParseError) as error:
            call()
        assert "…" in str(error.value)
        assert len(str(error.value)) < len(EXPECTED) + 120
    assert excerpt("x" * 41) == repr("x" * 40 + "…")
    assert excerpt("x" * 40) == repr("x" * 40)
    listed = "7d " + " ".join(c.code for c in DECK[20:39]) + " 7d"
    with pytest.raises(CardParseError) as twice:
        parse_cards(listed)
    assert str(twice.value) == f"card 7d is listed twice in {listed[:40] + '…'!r}"


@pytest.mark.parametrize(("text", "suit"), [
    ("d", Suit.DENARI), ("Denari", Suit.DENARI), ("♦", Suit.DENARI), ("quadri", Suit.DENARI),
    ("coppe", Suit.COPPE), ("♥\ufe0f", Suit.COPPE), ("fiori", Suit.BASTONI),
    ("picche", Suit.SPADE), (" s ", Suit.SPADE)])
def test_parse_suit(text: str, suit: Suit) -> None:
    assert parse_suit(text) is suit


@pytest.mark.parametrize("text", ["", "x", "tazze", "7d"])
def test_parse_suit_refuses_what_is_not_a_suit(text: str) -> None:
    with pytest.raises(CardParseError, match="is not a suit: expected a suit: d c b s"):
        parse_suit(text)


@pytest.mark.parametrize(("code", "italian", "french"), [
    ("7d", "7d", "7♦"), ("Rc", "Rc", "K♥"), ("Fb", "Fb", "J♣"), ("Cs", "Cs", "Q♠"),
    ("Ad", "Ad", "A♦")])
def test_rendering_italian_and_french(code: str, italian: str, french: str) -> None:
    c = parse_card(code)
    assert c.render("italian") == c.render() == italian
    assert c.render("french") == french


def test_format_cards_joins_renderings() -> None:
    hand = parse_cards("7d Rc Fb")
    assert format_cards(hand) == "7d Rc Fb"
    assert format_cards(hand, "french") == "7♦ K♥ J♣"


@given(cards, styles)
def test_parse_of_render_is_the_card(c: Card, style: Style) -> None:
    assert parse_card(c.render(style)) is c


@given(st.lists(cards, unique=True), styles)
def test_parse_cards_of_format_cards_round_trips(hand: list[Card], style: Style) -> None:
    assert parse_cards(format_cards(hand, style)) == tuple(hand)


@given(cards)
def test_pickle_and_copy_give_the_same_singleton(c: Card) -> None:
    assert pickle.loads(pickle.dumps(c)) is c
    assert copy.copy(c) is c
    assert copy.deepcopy(c) is c
    assert copy.deepcopy((c, [c]))[0] is c


@given(cards)
def test_cards_are_immutable(c: Card) -> None:
    with pytest.raises(AttributeError, match="immutable"):
        setattr(c, "index", 3)  # noqa: B010 (mypy knows the field is read-only)


@given(st.lists(cards, unique=True))
def test_ordering_and_deck_sorted_follow_the_index(hand: list[Card]) -> None:
    ordered = deck_sorted(hand)
    assert [x.index for x in ordered] == sorted(x.index for x in hand)
    assert list(ordered) == sorted(hand)
    assert all(a < b and a <= b and b > a and b >= a for a, b in pairwise(ordered))
    assert len({hash(x) for x in hand}) == len(hand)

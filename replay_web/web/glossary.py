"""The game's Italian words, shown in Italian in both languages with the English of
docs/glossary.md in a tooltip."""

from __future__ import annotations

from markupsafe import Markup, escape

ENGLISH = {
    "smazzata": "a deal, played out", "smazzate": "deals, played out",
    "mano": "a round of play: one card from each seat", "mani": "rounds of play",
    "presa": "a capture", "prese": "captures", "accuso": "a declaration that scores",
    "accusi": "declarations that score", "scopa": "a sweep: the table cleared",
    "scope": "sweeps", "mazziere": "the dealer", "mazzo": "the stock (deck)",
    "briscola": "the trump suit; the trump card", "carte viste": "cards seen stay shown",
    "carte scoperte": "partners see each other's hands", "denari": "coins (diamonds ♦)",
    "coppe": "cups (hearts ♥)", "bastoni": "batons (clubs ♣)", "spade": "swords (spades ♠)",
    "settebello": "the seven of coins", "primiera": "the best four-suit set",
    "cappotto": "all ten coins taken", "matta": "the wild card (7 of cups)",
    "cirulla": "an accuso: a hand worth 9 or less", "decino": "an accuso: three of a kind",
    "spareggio": "a tie-break deal", "verbale": "the arbiter's official record",
    "vinco subito": "'I win now': claiming 61 points mid-deal", "monte": "annulled (redealt)",
}


def term(word: str) -> Markup:
    """`<abbr>` with the English in its title; the word alone when the glossary lacks it."""
    english = ENGLISH.get(word.lower())
    if english is None:
        return Markup(escape(word))
    return Markup('<abbr class="term" title="{}">{}</abbr>').format(english, word)

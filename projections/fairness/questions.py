"""Each test of the fairness report as the question it answers, in plain words: what a director
reads before the method and the figures (docs/fairness.md, "The report"). One question per kind
of test; the kinds in the order the report shows them.
"""

from __future__ import annotations

from domain.text import Said, say

KINDS = ("event", "dealers", "slots", "slot-scan", "adjacent", "seats", "roles", "runs",
         "repeated-seeds", "repeated-decks", "dealer-wins", "side-wins")
"""The kinds of test (a test's name up to its first '/'), in the report's order: the events
players suspect first, then the per-dealer view, then the shuffle's layout, then the rest."""


def kind_of(test: str) -> str:
    """`event/cirulla.quindici[redeal=mai]` is of kind `event`, `seats/cirulla/2/...` `seats`."""
    return test.split("/", 1)[0]


def question(kind: str) -> Said:
    """The question a kind of test answers."""
    questions = {
        "event": say("Do the events players suspect (the dealer's 15 and 30, a cirulla or a "
                     "decino in the first hand, a redeal, the briscola card) happen as often "
                     "as chance says?"),
        "dealers": say("Does any dealer get the 15, or another suspected event, more often "
                       "than chance?"),
        "slots": say("Is every card equally likely at every place in the deal?"),
        "slot-scan": say("Is any single place in the deal unfair?"),
        "adjacent": say("Do cards that were neighbours in the deck stay neighbours in the "
                        "deal?"),
        "seats": say("Does each seat get its fair share of each card?"),
        "roles": say("Do the dealer and the players he serves each get their fair share of "
                     "each card?"),
        "runs": say("Does one deal at a table depend on the deal before it?"),
        "repeated-seeds": say("Was any seed used for two smazzate?"),
        "repeated-decks": say("Was any deck dealt twice?"),
        "dealer-wins": say("How often does the dealer's side win? (It depends on play: a "
                           "figure, not a test of the shuffle.)"),
        "side-wins": say("How often does side 0 win? (It depends on play: a figure, not a "
                         "test of the shuffle.)"),
    }
    return questions.get(kind, say("Does {test} look like a fair shuffle?", test=kind))


def order(kind: str) -> int:
    """Where a kind comes in the report (an unknown kind last)."""
    return KINDS.index(kind) if kind in KINDS else len(KINDS)


def report_order(test: str) -> tuple[int, bool]:
    """Where a test comes in the report: by its kind, and among the events Cirulla's (the
    dealer's 15 and 30, the first hands, the redeals) before Briscola's card (a stable sort
    keeps the battery's order otherwise)."""
    return order(kind_of(test)), test.startswith("event/briscola.")


__all__ = ["KINDS", "kind_of", "order", "question", "report_order"]

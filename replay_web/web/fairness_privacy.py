"""Who sees what of /fairness (projections/fairness/privacy.py, docs/fairness.md "What the
public sees"): the public gets the report without any figure over fewer deals than the minimum
population; a logged-in arbiter, who may see a match's seeds and so its whole deals, gets the
whole report. The minimum is the app's config key VERBALE_FAIRNESS_MIN_DEALS, else the
environment variable of that name, else privacy.MIN_DEALS.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app
from flask_babel import gettext

from projections.fairness.privacy import (
    SETTING,
    PublicReport,
    min_deals,
    public_report,
    whole_report,
)
from projections.fairness.report import SEEDED, TRANSCRIBED, FairnessReport
from replay_web.web.guard import logged_arbiter

SECTIONS = {"verified": SEEDED, "transcribed": TRANSCRIBED}
"""The page's section keys and the populations they show."""


def minimum() -> int:
    """The minimum population of this app (a bad setting fails at the first request, naming
    the setting)."""
    configured = current_app.config.get(SETTING)
    return min_deals(None if configured is None else str(configured))


def shown(report: FairnessReport) -> PublicReport:
    """The report as the reader of this request may see it."""
    if logged_arbiter() is not None:
        return whole_report(report, minimum())
    return public_report(report, minimum())


@dataclass(frozen=True, slots=True)
class Notice:
    """What the page says of one section's withheld figures (empty strings: nothing)."""

    whole: str
    tests: str


def notices(public: PublicReport) -> dict[str, Notice]:
    """Per section key, the sentences saying what was withheld and why."""
    out: dict[str, Notice] = {}
    for key, population in SECTIONS.items():
        whole = tests = ""
        if public.whole(population):
            deals = next(w.deals for w in public.withheld if w.population == population)
            whole = gettext("Too few deals for a public figure: %(deals)s selected, fewer than "
                            "the minimum of %(minimum)s. A figure per card or per position over "
                            "so few deals could reveal the cards of a single deal, so nothing is "
                            "shown per position. Widen the selection.", deals=deals,
                            minimum=public.minimum)
        withheld = public.tests_withheld(population)
        if withheld:
            tests = gettext("Left out, each counted on fewer than %(minimum)s deals (a figure "
                            "over so few deals could reveal the cards of a single deal): "
                            "%(tests)s.", minimum=public.minimum,
                            tests=", ".join(f"{name} ({n})" for name, n in withheld))
        out[key] = Notice(whole, tests)
    return out

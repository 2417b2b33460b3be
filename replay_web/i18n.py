"""One message catalogue for the command line (and, later, the viewer): Italian and English.

Messages are written in English in the code and looked up in the gettext catalogue
`replay_web/locale/<lang>/LC_MESSAGES/verbale.mo`, compiled by Babel from the `.po` files beside
it (docs/i18n.md). The language is `--lang`, else the locale (LANGUAGE, LC_ALL, LC_MESSAGES,
LANG), else English. Game words stay Italian in both languages (docs/glossary.md).
"""

from __future__ import annotations

import gettext
import os
from pathlib import Path

DOMAIN = "verbale"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("it", "en")

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def language_from_environment() -> str:
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for value in os.environ.get(variable, "").split(":"):
            code = value[:2].lower()
            if code in LANGUAGES:
                return code
            if value and value not in ("C", "POSIX") and not value.startswith("C."):
                return "en"
    return "en"


def choose_language(language: str | None = None) -> str:
    """Use `language` (or the locale's) for every later message; return the one chosen."""
    global _current, _language
    _language = language if language in LANGUAGES else language_from_environment()
    _current = gettext.translation(DOMAIN, LOCALE_DIR, languages=[_language], fallback=True)
    return _language


def current_language() -> str:
    return _language


def _(message: str) -> str:
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)

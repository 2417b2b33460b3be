"""One message catalogue for the command line (and, later, the viewer): Italian and English.

Messages are written in English in the code and looked up in the gettext catalogue
`replay_web/locale/<lang>/LC_MESSAGES/verbale.mo`, compiled by Babel from the `.po` files beside
it (docs/i18n.md). The language is `--lang`, else the locale (LANGUAGE, LC_ALL, LC_MESSAGES,
LANG), else English. Game words stay Italian in both languages (docs/glossary.md, docs/i18n.md).

click's own messages ("Usage:", "Missing option", ...) come from the same catalogue: click looks
them up through `_` and `ngettext` names of its modules (the stdlib's functions, which read the
process's locale), and `choose_language` points those names at this module's functions, so the
language chosen here is the only one in force. The help texts of click commands and options are
written as plain English strings (not wrapped in `_`: they are built when a module is imported,
before the language is chosen); `localize` translates them when a command is about to be shown,
and `extract` (the Babel extraction method of babel.cfg) collects them for the catalogue.
"""

from __future__ import annotations

import ast
import gettext
import importlib
import inspect
import os
from collections.abc import Callable, Collection, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from domain.text import Said, said_of

DOMAIN = "verbale"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("it", "en")

# click's modules that look messages up; each imports `gettext as _` (and `ngettext`).
_CLICK_MODULES = ("click.core", "click.decorators", "click.exceptions", "click.formatting",
                  "click.parser", "click.types", "click.termui", "click.utils",
                  "click.shell_completion")

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def language_from_environment() -> str:
    """The language of the locale, read as the standard library's gettext reads it: the first
    variable set among LANGUAGE, LC_ALL, LC_MESSAGES and LANG, its first language we have (a
    list like `fr:it` gives Italian); the C locale, or none we have, is English."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable)
        if not value:
            continue
        for part in value.split(":"):
            if part in ("C", "POSIX") or part.startswith(("C.", "POSIX.")):
                return "en"
            if part[:2].lower() in LANGUAGES:
                return part[:2].lower()
        return "en"
    return "en"


def choose_language(language: str | None = None) -> str:
    """Use `language` (or the locale's) for every later message; return the one chosen."""
    global _current, _language
    _language = language if language in LANGUAGES else language_from_environment()
    _current = gettext.translation(DOMAIN, LOCALE_DIR, languages=[_language], fallback=True)
    _install_into_click()
    return _language


def current_language() -> str:
    return _language


def _(message: str) -> str:
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)


def translate(text: object, lookup: Callable[[str], str] | None = None) -> str:
    """A message of `domain` or `projections` (domain.text.Said) in the chosen language, its
    parameters that are messages too translated with it; any other text as it is. `lookup`:
    another catalogue look-up than the command line's (the viewer's, per request)."""
    if not isinstance(text, Said):
        return str(text)
    find = lookup or _
    params = {name: translate(value, lookup) if isinstance(value, Said) else value
              for name, value in text.params.items()}
    try:
        return str(find(text.template)).format(**params)
    except (KeyError, IndexError, ValueError):   # a translation with a broken placeholder
        return str.__str__(text)


def translate_error(error: BaseException, lookup: Callable[[str], str] | None = None) -> str:
    """An exception's message in the chosen language (its `say` message, else its text)."""
    said = said_of(error)
    return translate(said, lookup) if said is not None else str(error)


def _install_into_click() -> None:
    """Make click's messages come from this catalogue, in the language chosen here."""
    for name in _CLICK_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:   # a module of another click version
            continue
        if getattr(module, "_", None) in (gettext.gettext, _):
            module._ = _  # type: ignore[attr-defined]
        if getattr(module, "ngettext", None) in (gettext.ngettext, ngettext):
            module.ngettext = ngettext  # type: ignore[attr-defined]


# --- help texts of click commands -----------------------------------------------------------

_ENGLISH = "_verbale_english"   # the attribute keeping a command's or option's English texts


def _translated(text: str | None) -> str | None:
    if not text:
        return text
    message = inspect.cleandoc(text).partition("\f")[0].strip()
    translated = _(message)
    return text if translated == message else translated


def localize(command: Any) -> Any:
    """Translate a click command's help texts (and its options' and loaded subcommands') into
    the chosen language; the English texts are kept, so that it can be called again after
    another `choose_language` (the tests run many commands in one process). Call it after
    `choose_language` and before click parses the command line. Returns the command."""
    english: dict[str, str | None] | None = getattr(command, _ENGLISH, None)
    if english is None:
        english = {"help": command.help, "short_help": command.short_help,
                   "epilog": command.epilog}
        setattr(command, _ENGLISH, english)
    command.help = _translated(english["help"])
    command.short_help = _translated(english["short_help"])
    command.epilog = _translated(english["epilog"])
    for param in command.params:
        param_english: str | None
        if hasattr(param, _ENGLISH):
            param_english = getattr(param, _ENGLISH)
        else:
            param_english = getattr(param, "help", None)
            setattr(param, _ENGLISH, param_english)
        if param_english is not None:
            param.help = _translated(param_english)
    if getattr(command, "_help_option", None) is not None:
        # click (8.1.8 and later) keeps the --help option it made, with its help text in the
        # language of that moment: drop it, and click makes it again in the language chosen now.
        command._help_option = None
    for sub in getattr(command, "commands", {}).values():
        localize(sub)
    return command


# --- extraction (babel.cfg) -----------------------------------------------------------------

_COMMAND_DECORATORS = ("command", "group")


def extract(fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
            options: Mapping[str, Any]) -> Iterator[tuple[Any, ...]]:
    """Babel's Python extraction, plus the help texts click shows: the docstrings of functions
    decorated as click commands or groups, and literal `help=`, `short_help=` and `epilog=`
    arguments (a help text built at run time, such as an f-string, is not extracted: build it
    from `_()` pieces instead)."""
    from babel.messages.extract import extract_python

    source = fileobj.read()
    fileobj.seek(0)
    yield from extract_python(fileobj, keywords, comment_tags, options)  # type: ignore[arg-type]
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
                _is_command_decorator(d) for d in node.decorator_list):
            doc = ast.get_docstring(node, clean=True)
            if doc:
                yield node.lineno, None, doc.partition("\f")[0].strip(), []
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg in ("help", "short_help", "epilog"):
                    text = _literal(keyword.value)
                    if text:
                        yield keyword.value.lineno, None, inspect.cleandoc(text), []


def _is_command_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name in _COMMAND_DECORATORS


def _literal(node: ast.expr) -> str | None:
    """A string literal, or an implicit concatenation / `+` of string literals."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _literal(node.left), _literal(node.right)
        if left is not None and right is not None:
            return left + right
    return None

"""The message catalogue (docs/i18n.md): compiled and complete, one language at a time, chosen by
`--lang` or the locale, with click's own messages and the game words Italian in both."""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import click
import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from click.testing import CliRunner, Result

from replay_web import cli as cli_module
from replay_web import i18n
from replay_web.cli import cli

SEED = "5eed0000000000000000000000000001"
REPLAY_WEB = Path(i18n.__file__).parent
LOCALE = i18n.LOCALE_DIR
KEYWORDS = {"_": None, "ngettext": (1, 2), "say": None, "N_": None}

cli_module._register()


@pytest.fixture(autouse=True)
def _english_afterwards(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A test here may choose Italian; the tests after it find the language of their locale."""
    yield
    monkeypatch.undo()
    i18n.choose_language()
    i18n.localize(cli)


def _catalogue(language: str) -> Catalog:
    with open(LOCALE / language / "LC_MESSAGES" / "verbale.po", "rb") as po:
        return read_po(po)


def _msgid(message: str | tuple[str, ...] | list[str]) -> str | tuple[str, ...]:
    return message if isinstance(message, str) else tuple(message)


def _extracted(files: list[Path], method: str) -> dict[str | tuple[str, ...], str]:
    """Every message of `files` (Babel's extraction, as `make messages` runs it) -> file:line."""
    found: dict[str | tuple[str, ...], str] = {}
    for path in files:
        for lineno, message, _comments, _context in extract_from_file(
                method, str(path), keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)):
            found.setdefault(_msgid(message), f"{path.name}:{lineno}")
    return found


def _untranslated(found: dict[str | tuple[str, ...], str]) -> list[str]:
    italian = {_msgid(m.id): m.string for m in _catalogue("it") if m.id}
    missing = []
    for msgid, where in sorted(found.items(), key=lambda item: item[1]):
        string = italian.get(msgid)
        if not string or (not isinstance(string, str) and not all(string)):
            state = "not in the catalogue" if msgid not in italian else "no Italian"
            missing.append(f"  {where}: {msgid!r} ({state})")
    return missing


def _run(*args: str) -> Result:
    i18n.localize(cli)   # forgets the --help options click made in the language of a test before
    return CliRunner().invoke(cli, list(args))


# ---- the catalogue ---------------------------------------------------------------------------

@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_compiled_catalogue_is_the_po_compiled(language: str) -> None:
    """The .mo committed beside each .po is what `pybabel compile` makes of it today."""
    compiled = io.BytesIO()
    write_mo(compiled, _catalogue(language))
    compiled.seek(0)
    mo = LOCALE / language / "LC_MESSAGES" / "verbale.mo"
    with open(mo, "rb") as committed:
        assert gettext.GNUTranslations(committed)._catalog == (  # type: ignore[attr-defined]
            gettext.GNUTranslations(compiled)._catalog  # type: ignore[attr-defined]
        ), f"{mo} is older than its .po: run `make messages`"


def test_every_message_of_verbale_has_an_italian_translation() -> None:
    files = sorted(REPLAY_WEB.glob("*.py"))
    missing = _untranslated(_extracted(files, "replay_web.i18n:extract"))
    assert not missing, (f"{len(missing)} messages of replay_web/*.py without Italian (run `make "
                         "messages`, translate them in replay_web/locale/it/LC_MESSAGES/"
                         "verbale.po, run `make messages` again):\n" + "\n".join(missing))


def test_every_message_of_domain_and_projections_has_an_italian_translation() -> None:
    """The lower layers' messages (domain.text.say; N_ in the outside auditor) too, and the
    importers' (the notation's reader and its reports)."""
    root = REPLAY_WEB.parent
    files = sorted([*root.glob("domain/**/*.py"), *root.glob("projections/**/*.py"),
                    *root.glob("importers/**/*.py")])
    missing = _untranslated(_extracted(files, "python"))
    assert not missing, (f"{len(missing)} messages of domain/, projections/ and importers/ "
                         "without Italian "
                         "(run `make messages` and translate them):\n" + "\n".join(missing))


def test_every_message_of_click_has_an_italian_translation() -> None:
    """click's own messages ("Usage:", "Missing option", ...) come from the same catalogue."""
    files = sorted(Path(click.__file__).parent.glob("*.py"))
    missing = _untranslated(_extracted(files, "python"))
    assert not missing, (f"{len(missing)} messages of click {version('click')} without Italian "
                         " (a new click version? run `make messages`):\n"
                         + "\n".join(missing))


_FIELDS = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[sd]")


def test_every_translation_keeps_the_placeholders_of_its_message() -> None:
    """The same `{name}` fields (and click's `%(prog)s`), form by form for a plural."""
    wrong = []
    for message in _catalogue("it"):
        if not message.id or not message.string:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        for msgid, string in zip(ids, strings, strict=True):
            if string and sorted(_FIELDS.findall(msgid)) != sorted(_FIELDS.findall(string)):
                wrong.append(f"{msgid!r} -> {string!r}")
    assert not wrong, "placeholders changed in translation:\n" + "\n".join(wrong)


def test_the_extraction_finds_help_texts_and_docstrings_of_commands() -> None:
    found = _extracted([REPLAY_WEB / "cli.py"], "replay_web.i18n:extract")
    assert "verbale: record, replay and audit Italian card games." in found  # a docstring
    assert "Language of the messages (default: from the locale; else English)." in found
    assert "verbale: interrupted" in found  # a _() call


# ---- choosing the language -------------------------------------------------------------------

def _clear_locale(monkeypatch: pytest.MonkeyPatch, **variables: str) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)


def test_lang_it_and_lang_en_choose_the_language_of_every_message(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _clear_locale(monkeypatch, LANG="C.UTF-8")
    italian = _run("--lang", "it", "nosuchcommand")
    assert italian.exit_code == 2
    assert "Comando 'nosuchcommand' inesistente." in italian.output
    english = _run("--lang", "en", "nosuchcommand")
    assert "No such command 'nosuchcommand'." in english.output
    assert _run("--lang=it", "--help").output.startswith("Uso: ")


def test_the_locale_chooses_the_language_when_no_lang_is_given(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _clear_locale(monkeypatch, LANG="it_IT.UTF-8")
    assert "Uso:" in _run("--help").output
    assert "Mostra questo messaggio ed esce." in _run("--help").output
    _clear_locale(monkeypatch, LANG="it_IT.UTF-8", LC_ALL="C.UTF-8")
    assert _run("--help").output.startswith("Usage:")
    _clear_locale(monkeypatch, LANG="de_DE.UTF-8")
    assert _run("--help").output.startswith("Usage:")
    _clear_locale(monkeypatch, LANGUAGE="fr:it", LANG="fr_FR.UTF-8")
    assert i18n.language_from_environment() == "it"
    _clear_locale(monkeypatch, LANG="it_IT.UTF-8")
    assert "Usage:" in _run("--lang", "en", "--help").output  # --lang wins over the locale


def test_clicks_messages_come_out_in_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    _clear_locale(monkeypatch)
    missing = _run("--lang", "it", "legal", "cirulla", "--table", "4c")
    assert missing.exit_code == 2
    assert "Manca l'opzione" in missing.output and "--hand" in missing.output
    bad = _run("--lang", "it", "simulate", "cirulla", "--players", "5")
    assert bad.exit_code == 2
    assert "Valore non valido per" in bad.output and "non è tra" in bad.output
    usage = _run("--lang", "it", "simulate", "--help").output
    assert re.match(r"Uso: \w+ simulate \[OPTIONS\]", usage)
    assert "Opzioni:" in usage and "Comandi:" in usage


def test_localize_translates_help_texts_and_back(monkeypatch: pytest.MonkeyPatch) -> None:
    _clear_locale(monkeypatch)
    i18n.choose_language("it")
    i18n.localize(cli)
    assert cli.help == ("verbale: registra, riproduce e verifica partite di giochi di carte "
                        "italiani.")
    lang = next(p for p in cli.params if p.name == "lang")
    assert isinstance(lang, click.Option) and lang.help is not None
    assert lang.help.startswith("Lingua dei messaggi")
    i18n.choose_language("en")
    i18n.localize(cli)
    assert cli.help == "verbale: record, replay and audit Italian card games."


def test_help_texts_come_out_in_italian(monkeypatch: pytest.MonkeyPatch) -> None:
    _clear_locale(monkeypatch)
    i18n.choose_language("en")
    i18n.localize(cli)   # as a process would start: English texts in the commands
    out = _run("--lang", "it", "--help").output
    assert "verbale: registra, riproduce e verifica" in out
    assert "Lingua dei messaggi" in out


# ---- game words ------------------------------------------------------------------------------

def _simulated(language: str) -> str:
    result = _run("--lang", language, "simulate", "cirulla", "--seed", SEED, "--players", "4",
                  "--format", "2smazzate")
    assert result.exit_code == 0, result.output
    return result.output


def test_game_words_stay_italian_in_the_english_log(monkeypatch: pytest.MonkeyPatch) -> None:
    _clear_locale(monkeypatch)
    english, italian = _simulated("en"), _simulated("it")
    for word in ("Smazzata", "SCOPA!", "settebello", "primiera", "denari", "scope", "accusi"):
        assert word in english, word
        assert word in italian, word
    assert re.search(r"seat \d plays \w\w and (takes|discards)", english)
    assert re.search(r"posto \d gioca \w\w e (prende|scarta)", italian)
    assert "lato 1: posti 1 e 3" in italian and "side 1: seats 1 and 3" in english


def test_mazziere_stays_italian_in_the_english_log(monkeypatch: pytest.MonkeyPatch) -> None:
    _clear_locale(monkeypatch)
    assert "mazziere" in _simulated("en")

# The two commands of the README: `make run` and `make test`. Each creates .venv when missing.
# `make run` installs only what running needs; `make test` adds the dev tools.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
# setuptools warns about every editable install into a directory holding the packages (expected),
# and pip about index locations a machine's own pip.conf may name: errors only (-qq).
PIP := PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip install -qq \
	--disable-pip-version-check
DEMO_DB := var/verbale.db

.PHONY: run test lint bench clean

$(RUN_STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) -e .
	@touch $@

$(DEV_STAMP): $(RUN_STAMP)
	$(PIP) -e '.[dev]'
	@touch $@

# The main job: demo data recorded into the embedded SQLite store (var/verbale.db), verified,
# an arbiter account for the demo (its password printed the first time), and the replay viewer
# served on 127.0.0.1 (waitress) until Ctrl-C. `make run PORT=8001` when 8000 is taken.
PORT ?= 8000
DEMO_MATCH := 5c319fbd
# The hand records and the score sheet of docs/examples (docs/notation.md); those the rules
# refuse are in docs/examples/rifiutati and only checked (--dry-run), never stored.
EXAMPLES := $(wildcard docs/examples/*.txt) $(wildcard docs/examples/*.csv)
REFUSED_EXAMPLES := $(wildcard docs/examples/rifiutati/*.txt)
run: $(RUN_STAMP)
	$(BIN)/verbale simulate matches --store
	$(BIN)/verbale import $(EXAMPLES)
	$(BIN)/verbale tournament import docs/examples/tarocchi/torneo-12.txt
	$(BIN)/verbale tournament import $(wildcard docs/examples/tarocchi/torneo-13*)
	@echo
	@echo "A hand record the rules refuse (an unmarked illegal play), checked and not stored:"
	@$(BIN)/verbale import --dry-run $(REFUSED_EXAMPLES) || echo "(refused, as it should be)"
	@echo
	$(BIN)/verbale verify --record
	$(BIN)/verbale arbiter add arbitro --generate-password --if-missing
	@echo
	@echo "Seat links of a demo match (each seat sees its own hand; 'verbale arbiter links --match ID'):"
	@$(BIN)/verbale arbiter links --match $(DEMO_MATCH) --base-url http://127.0.0.1:$(PORT)
	@echo
	@echo "make run: verbale is installed in $(VENV) (runtime packages only; 'make test' adds the dev tools)."
	@echo "The demo matches are in $(DEMO_DB). The arbiter view needs a login: arbitro, with the password"
	@echo "printed above the first time ('$(BIN)/verbale arbiter passwd arbitro' sets a new one)."
	@echo "Other commands: $(BIN)/verbale --help (--lang it for Italian)."
	$(BIN)/verbale serve --host 127.0.0.1 --port $(PORT)

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy --strict
	$(BIN)/lint-imports

# The suite runs on every core (pytest-xdist; each storage test has its own database file or
# PostgreSQL schema, so the workers never share a store); then the store's and the importers'
# tests, and verify's, once more with every fast route off (VERBALE_EXACT=1, docs/architecture.md).
test: lint
	$(BIN)/python -m pytest -q -n auto
	VERBALE_EXACT=1 $(BIN)/python -m pytest -q -n auto tests/projections/store tests/projections/verify tests/importers

bench: $(DEV_STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis

# The message catalogue (docs/i18n.md): extract verbale's and click's messages into
# replay_web/locale/verbale.pot, merge them into each language's .po, compile the .mo files.
CLICK_DIR = $(shell $(BIN)/python -c "import click, os; print(os.path.relpath(os.path.dirname(click.__file__)))")
MESSAGES_POT := replay_web/locale/verbale.pot

.PHONY: messages
messages: $(DEV_STAMP)
	$(BIN)/pybabel --quiet extract -F babel.cfg --no-default-keywords -k _ -k ngettext:1,2 -k say -k N_ \
		-k gettext -k lazy_gettext -k lazy_ngettext:1,2 \
		-c TRANSLATORS: --project verbale --sort-by-file -o $(MESSAGES_POT) replay_web/*.py \
		replay_web/web/*.py replay_web/web/templates/*.html \
		$(shell find domain projections importers -name '*.py') $(CLICK_DIR)/*.py
	$(BIN)/pybabel --quiet update -D verbale -i $(MESSAGES_POT) -d replay_web/locale \
		--no-fuzzy-matching --ignore-obsolete
	$(BIN)/pybabel compile --statistics -D verbale -d replay_web/locale

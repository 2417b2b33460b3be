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

# The main job: demo data recorded into the embedded SQLite store (var/verbale.db), verified.
# (The viewer is not built yet; until it is, `run` lists the recorded matches.)
run: $(RUN_STAMP)
	$(BIN)/verbale simulate matches --store
	$(BIN)/verbale verify --record
	$(BIN)/verbale matches --limit 10
	@echo
	@echo "make run: verbale is installed in $(VENV) (runtime packages only; 'make test' adds the dev tools),"
	@echo "the demo set of matches is recorded in $(DEMO_DB) and verified. Next:"
	@echo "  $(BIN)/verbale matches                 # every stored match (ids, result, MP, VP, verdict)"
	@echo "  $(BIN)/verbale scores --match ID       # a match's smazzate, breakdowns and running totals"
	@echo "  $(BIN)/verbale standings --tournament cirulla   # a demo tournament's standings"
	@echo "  $(BIN)/verbale verify --match ID       # re-check one match (an id prefix is enough)"
	@echo "  $(BIN)/verbale export --match ID -o match.jsonl && $(BIN)/verbale audit match.jsonl"
	@echo "  $(BIN)/verbale simulate cirulla --players 4 --format 21pt   # a match log, fresh seed"
	@echo "  $(BIN)/verbale --help                  # every command (--lang it for Italian)"

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy --strict
	$(BIN)/lint-imports

test: lint
	$(BIN)/python -m pytest -q

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
		-c TRANSLATORS: --project verbale --sort-by-file -o $(MESSAGES_POT) replay_web/*.py \
		$(shell find domain projections -name '*.py') $(CLICK_DIR)/*.py
	$(BIN)/pybabel --quiet update -D verbale -i $(MESSAGES_POT) -d replay_web/locale \
		--no-fuzzy-matching --ignore-obsolete
	$(BIN)/pybabel compile --statistics -D verbale -d replay_web/locale

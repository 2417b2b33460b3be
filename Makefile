# The two commands of the README: `make run` and `make test`. Each creates .venv when missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The main job: demo data recorded into the embedded SQLite store (var/verbale.db), verified.
# (The viewer is not built yet; until it is, `run` also prints one simulated match.)
run: $(STAMP)
	$(BIN)/verbale simulate cirulla --seed 5eed0000000000000000000000000001 --players 2 --format 21pt
	$(BIN)/verbale simulate matches --store
	$(BIN)/verbale verify

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy --strict
	$(BIN)/lint-imports

test: lint
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis

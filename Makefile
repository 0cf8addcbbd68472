# Two commands do everything: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/companion serve --host 0.0.0.0 --port 8000 --data-dir data

lint: $(STAMP)
	$(BIN)/ruff check companion vision hardware tests bench
	$(BIN)/mypy companion/games

test: $(STAMP) lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# Confrontation companion. `make run` serves the app; `make test` runs every check.
# A second run is quick: packages are reinstalled only when a requirements file changes.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint bench chromium serve-prod clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.run-installed: requirements.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.run-installed

## Serve the embedded default: SQLite file under var/, demo data, one process.
run: $(VENV)/.run-installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	@echo "Serving on http://$(HOST):$(PORT)/"
	$(PY) -m confrontation_site.serve --host $(HOST) --port $(PORT) --lifespan off

## Find or install Debian's Chromium for the browser tests.
chromium:
	@scripts/ensure-chromium

## Lint, format check, then the whole test suite (SQLite unless DATABASE_URL is set).
test: $(VENV)/.dev-installed chromium lint
	$(VENV)/bin/pytest

lint: $(VENV)/.dev-installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

## Speed figures (not part of the tests).
bench: $(VENV)/.dev-installed
	@for script in tests/bench/bench_*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

## Production-like serving (see README): collect static files, then uvicorn workers.
## Both `run` and `serve-prod` go through confrontation_site/serve.py: proxy headers
## are ignored unless BEHIND_TLS_PROXY=true, then trusted only from PROXY_ADDRESS.
serve-prod: $(VENV)/.run-installed
	DEBUG=false $(PY) manage.py collectstatic --noinput
	DEBUG=false $(PY) manage.py migrate --noinput
	DEBUG=false $(PY) -m confrontation_site.serve --host $(HOST) --port $(PORT) --workers $${WEB_CONCURRENCY:-2} --timeout-graceful-shutdown 10

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis

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
## `make run HOST=0.0.0.0` serves the club's Wi-Fi too: this machine's LAN
## addresses are allowed (unless ALLOWED_HOSTS is set) and printed to open.
run: $(VENV)/.run-installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	@LAN="$$($(PY) scripts/lan_addresses.py)"; \
	if [ "$(HOST)" = "127.0.0.1" ] || [ "$(HOST)" = "localhost" ]; then \
	  echo "Serving on http://$(HOST):$(PORT)/ (this machine only; HOST=0.0.0.0 for other phones)"; \
	else \
	  for address in $$(echo "$$LAN" | tr ',' ' '); do echo "Open on the other phones: http://$$address:$(PORT)/"; done; \
	  export ALLOWED_HOSTS="$${ALLOWED_HOSTS:-127.0.0.1,localhost,[::1]$${LAN:+,$$LAN}}"; \
	  echo "Allowed hosts: $$ALLOWED_HOSTS"; \
	fi; \
	export DEBUG="$${DEBUG:-false}" PLAIN_HTTP=true; \
	exec $(PY) -m confrontation_site.serve --host $(HOST) --port $(PORT) --lifespan off

## Find or install Debian's Chromium for the browser tests.
chromium:
	@scripts/ensure-chromium

## Lint, format check, then the whole test suite (SQLite unless DATABASE_URL is set).
test: $(VENV)/.dev-installed chromium lint
	$(VENV)/bin/pytest

lint: $(VENV)/.dev-installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

## Speed figures (not part of the tests). bench_game runs on SQLite, then on
## PostgreSQL when BENCH_POSTGRES_URL is set (a throw-away test_ database).
bench: $(VENV)/.dev-installed
	@for script in tests/bench/bench_*.py; do echo "== $$script"; $(PY) $$script || exit 1; done
	@if [ -n "$(BENCH_POSTGRES_URL)" ]; then echo "== tests/bench/bench_game.py (PostgreSQL)"; \
	  DATABASE_URL="$(BENCH_POSTGRES_URL)" $(PY) tests/bench/bench_game.py || exit 1; fi

## Production-like serving (see README): collect static files, then uvicorn workers
## (WEB_CONCURRENCY or UVICORN_WORKERS, else one; several need LIVE_BUS=postgres
## or redis). Both `run` and `serve-prod` go through confrontation_site/serve.py:
## proxy headers are ignored unless BEHIND_TLS_PROXY=true, then trusted only from
## PROXY_ADDRESS.
serve-prod: $(VENV)/.run-installed
	DEBUG=false $(PY) manage.py collectstatic --noinput
	DEBUG=false $(PY) manage.py migrate --noinput
	DEBUG=false $(PY) -m confrontation_site.serve --host $(HOST) --port $(PORT) --timeout-graceful-shutdown 10

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .hypothesis

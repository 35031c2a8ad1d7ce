# The developer interface. `make` lists the targets.

PYTHON ?= $(shell python3.11 -c '' >/dev/null 2>&1 && echo python3.11 || echo python3)
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.DEFAULT_GOAL := help
.PHONY: help venv npm run worker test test-engine lint typecheck fmt bench soak check clean

help: ## List the targets
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

$(VENV)/.installed: requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $@

venv: $(VENV)/.installed ## Create .venv and install requirements-dev.txt (again when they change)

# The JavaScript packages (package.json, pinned by package-lock.json) come from npm: Pyodide for
# practice, ESLint and TypeScript (the JSDoc type check) for `make lint`. Without npm the site
# runs all the same, /practice/ says what is missing (docs/practice.md) and `make lint` skips the
# JavaScript.
NPM ?= $(shell command -v npm 2>/dev/null)

node_modules/.installed: package.json package-lock.json
	@if [ -n "$(NPM)" ]; then $(NPM) ci --no-audit --no-fund --loglevel=error && touch $@; \
	else echo "npm not found: the site runs, but without practice offline (/practice/ says what is missing) and make lint skips ESLint and the type check."; fi

npm: node_modules/.installed ## Install the JavaScript packages (Pyodide for /practice/, ESLint, TypeScript) with npm ci, if npm is there

# `make run` serves the site as players see it: DEBUG off (a missing page is the site's own, in
# the visitor's language, never Django's English debug page; docs/i18n.md: error pages), with a
# secret key made once for this checkout in .secret_key (not committed), on this machine over
# plain http: DJANGO_INSECURE_LOCAL=1 relaxes exactly two of production's requirements (the
# allowed hosts may be unset: this machine's names; the session and CSRF cookies are not Secure)
# and the target says so (docs/operations.md, "Production settings, and make run"). The
# environment wins over each (DJANGO_DEBUG=1, DJANGO_SECRET_KEY, DJANGO_INSECURE_LOCAL=0). The
# other targets that run the site's settings on this machine (a worker, the load scripts, the
# practice bench's collectstatic) take the same, so they share `make run`'s key.
.secret_key: | venv
	@umask 077; $(BIN)/python -c 'import secrets; print(secrets.token_urlsafe(50))' > $@

LOCAL_TARGETS := run worker loadtest flood flood-heavy profile-move bench-practice
$(LOCAL_TARGETS): export DJANGO_DEBUG ?= 0
$(LOCAL_TARGETS): export DJANGO_SECRET_KEY ?= $(shell cat .secret_key 2>/dev/null)
$(LOCAL_TARGETS): export DJANGO_INSECURE_LOCAL ?= 1
$(LOCAL_TARGETS): .secret_key

# The line a local target prints when DJANGO_INSECURE_LOCAL relaxes production's requirements.
SAY_INSECURE_LOCAL = @case "$$DJANGO_INSECURE_LOCAL" in 1|true|yes|on) echo "make $@: DJANGO_INSECURE_LOCAL=1: \
for this machine over plain http only: allowed hosts $${DJANGO_ALLOWED_HOSTS:-localhost,127.0.0.1,[::1]}; \
session and CSRF cookies not Secure (docs/operations.md, \"Production settings, and make run\")." ;; esac

run: venv npm ## Serve on HOST:PORT with daphne, DEBUG off, plain http on this machine (SQLite by default; with REDIS_URL a live and a background worker too)
	$(SAY_INSECURE_LOCAL)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo
	$(BIN)/python manage.py puzzles_seed
	$(BIN)/python manage.py collectstatic --noinput -v0
	@if [ -n "$$REDIS_URL" ]; then \
	  $(BIN)/python -m remi_site.workers -- -l info & W=$$!; trap 'kill $$W 2>/dev/null' EXIT INT TERM; \
	  $(BIN)/daphne -b $(HOST) -p $(PORT) remi_site.asgi:application; \
	else exec $(BIN)/daphne -b $(HOST) -p $(PORT) remi_site.asgi:application; fi

# Two worker processes, never one on both queues: a bot's reply must not wait behind an analysis
# (remi_site/workers.py; docs/operations.md). WORKERS=live or WORKERS=background starts one of them.
WORKERS ?=

worker: venv ## Run the celery workers: one on live play's queue, one on background work's alone (needs REDIS_URL)
	@if [ -z "$$REDIS_URL" ]; then \
	  echo "make worker needs REDIS_URL: the default memory:// broker cannot be shared between processes." >&2; \
	  exit 2; fi
	$(SAY_INSECURE_LOCAL)
	$(BIN)/python -m remi_site.workers $(WORKERS) -- -l info

# Tests run in parallel, pytest-xdist workers one more than the CPUs (TEST_WORKERS=0: in this
# process), each with its own test databases, Celery queue and Chromium; a test file stays on one
# worker. The one more fills the time the others wait for a timer, a server or a page
# (docs/testing.md, "Speed").
TEST_WORKERS ?= $(shell echo $$(( $$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1) + 1 )))

# Python's bytecode caches are written even where PYTHONDONTWRITEBYTECODE is set (as on the
# machines CI runs on): without them each pytest worker compiles and rewrites every test module,
# and every server a test starts compiles the site, on every run (docs/testing.md, "Speed").
# The tests ask for a developer's settings, DEBUG on (remi_site/settings/test.py), and so does
# the collectstatic before them, which runs the site's settings.
test: export DJANGO_DEBUG ?= 1
test: venv npm ## Run every test (site, engine, doctests) in parallel; PYTEST_ARGS adds pytest options
	$(BIN)/python manage.py collectstatic --noinput -v0
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

test-engine: venv ## Run the rules engine tests and doctests only (no database)
	$(BIN)/pytest tests/engine games/engine docs/engine.md

lint: venv npm ## Ruff lint, ruff format check, import contracts; ESLint and the JSDoc type check (tsc) on static/js
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/lint-imports
	@$(MAKE) --no-print-directory eslint
	@$(MAKE) --no-print-directory tsc

.PHONY: eslint
eslint: npm ## ESLint (eslint.config.js) on the browser's JavaScript and its unit tests (skipped without npm)
	@if [ -x node_modules/.bin/eslint ]; then node_modules/.bin/eslint . && echo "eslint: no problems"; \
	else echo "ESLint not installed (npm not found): the JavaScript is not linted; install npm and run make lint again."; fi

# The browser's JavaScript has JSDoc types, checked by TypeScript's compiler with no build step
# (static/js/tsconfig.json: the pages' modules; tsconfig.typed.json: the modules typed to the last
# parameter, noImplicitAny too; tsconfig.worker.json: practice's Web Worker, whose global scope is
# a worker's). docs/style.md, "The browser's JavaScript".
.PHONY: tsc
tsc: npm ## The JSDoc type check of static/js (tsc --noEmit; skipped without npm)
	@if [ -x node_modules/.bin/tsc ]; then node_modules/.bin/tsc -p static/js/tsconfig.json && node_modules/.bin/tsc -p static/js/tsconfig.typed.json && \
	  node_modules/.bin/tsc -p static/js/tsconfig.worker.json && echo "tsc: no type errors"; \
	else echo "TypeScript not installed (npm not found): the JavaScript's types are not checked; install npm and run make lint again."; fi

# The engine and the pure modules practice sends to the browser with it (docs/practice.md).
BROWSER_MODULES := games/shared/errors.py games/play/protocol.py games/play/framing.py games/play/rack.py games/shared/messages.py games/practice/game.py

# django-stubs reads the test runner's settings, a developer's (DEBUG on: tests/developer_settings.py).
typecheck: export DJANGO_DEBUG ?= 1
typecheck: venv ## mypy: strict on the engine and the pure modules the browser runs with it; the site's apps with django-stubs
	$(BIN)/mypy --strict games/engine $(BROWSER_MODULES) games/play/commits.py games/practice/assets.py games/learn/puzzles.py
	$(BIN)/mypy games accounts remi_site

fmt: venv ## Apply ruff fixes and formatting
	$(BIN)/ruff check --fix . && $(BIN)/ruff format .

bench: venv ## Benchmark the rules engine
	$(BIN)/python -m games.engine.tools.bench

.PHONY: bench-analysis
bench-analysis: venv ## The analysis of a round: CPU and wall time per round per variant (BENCH_ANALYSIS_ARGS="--rounds 3")
	$(BIN)/python -m games.engine.tools.bench_analysis $(BENCH_ANALYSIS_ARGS)

.PHONY: bench-analysis-agreement
bench-analysis-agreement: venv ## The analysis's verdicts against a 20x longer evaluation, 200 decisions of gin, Oklahoma, Knock-108 (BENCH_AGREEMENT_ARGS="--decisions 30")
	$(BIN)/python -m games.engine.tools.bench_analysis_agreement $(BENCH_AGREEMENT_ARGS)

.PHONY: bench-hint
bench-hint: venv ## The opening hint of a hundred tables' hands in turn, per size of the kept memo (BENCH_HINT_ARGS="--kept 5000,50000")
	$(BIN)/python -m games.engine.tools.bench_hint $(BENCH_HINT_ARGS)

.PHONY: bench-bots
bench-bots: venv ## Bot level tournaments: win rates with 95% CIs, decision times (BENCH_BOTS_ARGS="--games 40 --variants gin")
	$(BIN)/python -m games.engine.tools.tournament $(BENCH_BOTS_ARGS)

.PHONY: bench-practice
bench-practice: venv npm ## Practice in headless Chromium: cold/warm load to playable, bot move times per level (BENCH_PRACTICE_ARGS)
	$(BIN)/python manage.py collectstatic --noinput -v0
	$(BIN)/python scripts/bench_practice.py $(BENCH_PRACTICE_ARGS)

# OpenSpiel, the peer the engine is measured against, lives in a virtual environment of its own
# (never a dependency of the site), made once and again when scripts/peers-requirements.txt changes.
PEERS_VENV ?= build/peers-venv

$(PEERS_VENV)/.installed: scripts/peers-requirements.txt
	$(PYTHON) -m venv $(PEERS_VENV)
	$(PEERS_VENV)/bin/pip install -q --upgrade pip
	$(PEERS_VENV)/bin/pip install -q -r scripts/peers-requirements.txt
	touch $@

.PHONY: bench-peers
bench-peers: venv $(PEERS_VENV)/.installed ## The engine beside OpenSpiel in one run: gin deals/CPU-s, deadwood, rummy (BENCH_PEERS_ARGS)
	$(BIN)/python scripts/bench_peers.py --peers-python $(PEERS_VENV)/bin/python $(BENCH_PEERS_ARGS)

soak: venv ## Long randomised engine runs (tests marked soak, SOAK=1)
	SOAK=1 $(BIN)/pytest -m soak tests/engine

# The load test drives a server that is already running (`make run` in another shell); it starts
# nothing itself. LOADTEST_ARGS e.g. "--tables 20 --seats 4 --moves 40 --think 0.5" (docs/operations.md, "Load test").
LOADTEST_URL ?= http://$(HOST):$(PORT)
LOADTEST_ARGS ?=

.PHONY: flood
flood: venv ## One account floods the server inside its limits while tables play: p99 quiet vs flooded (FLOOD_ARGS)
	$(BIN)/python scripts/flood.py --url $(LOADTEST_URL) $(FLOOD_ARGS)

.PHONY: flood-heavy
flood-heavy: venv ## Replays of long uploaded rounds and round analyses beside live tables: p99 quiet vs heavy (FLOOD_HEAVY_ARGS)
	$(BIN)/python scripts/flood_heavy.py --url $(LOADTEST_URL) $(FLOOD_HEAVY_ARGS)

.PHONY: loadtest
loadtest: venv ## Play 200 tables x 4 seats over WebSockets against the server at LOADTEST_URL; prints figures
	$(BIN)/python scripts/loadtest.py --url $(LOADTEST_URL) $(LOADTEST_ARGS)

.PHONY: profile-move
profile-move: venv ## One move's server path in one process: CPU and SQL statements per move, a cProfile (PROFILE_MOVE_ARGS)
	$(BIN)/python scripts/profile_move.py $(PROFILE_MOVE_ARGS)

check: lint typecheck test ## Lint, type check and test

clean: ## Remove .venv, node_modules, the practice build, caches, collected static files and test databases (keeps db.sqlite3)
	rm -rf $(VENV) node_modules build staticfiles .pytest_cache .mypy_cache .ruff_cache .import_linter_cache .hypothesis test_db.sqlite3*
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

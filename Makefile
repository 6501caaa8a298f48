# Two commands on a fresh machine: `make run` and `make test`. Each makes .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 8000

.PHONY: run test test-fast install clean bench chromium

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/activate pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

run: install
	$(BIN)/python -m scorepad --host $(HOST) --port $(PORT)

# The browser tests drive Debian's Chromium (Playwright's own browser download is not used).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Chromium for the browser tests (apt-get)"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; \
	  else \
	    echo "The browser tests need Chromium: run 'sudo apt-get install chromium' (Debian/Ubuntu/Raspberry Pi OS)."; \
	    exit 1; \
	  fi; }

test: install chromium
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The quick loop while working: tests/core, tests/store and tests/web. No Chromium, no real server, no build
# (tests/browser is marked browser, tests/system slow); `make test` still runs everything.
test-fast: install
	$(BIN)/python -m pytest -m "not slow and not browser" $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis test-artifacts

# Benchmarks against the production server on loopback: prints a table of figures.
bench: install chromium
	$(BIN)/python bench/run.py $(BENCH_ARGS)

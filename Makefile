# Two commands on a fresh machine: `make run` and `make test`. Each makes .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 8000

# Python keeps each module it compiles (__pycache__/, ignored by git) unless PYTHONDONTWRITEBYTECODE says not to, as
# some machines' shells do (this project's CI machine among them): then every server, command and test worker the
# suite starts compiles Scorepad again, and pytest rewrites every test module again in each worker (a fifth of the
# processor time of the tests that start subprocesses). Nothing here depends on it being set.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test test-fast lint install clean bench chromium systemd-analyze sshd unit verify-service service address

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Litestream (the `replica` extra, one 38 MB binary) is always installed: turning on REPLICA_URL later, or a
# new card after the old one died, then needs no download.
$(VENV)/.installed: $(BIN)/activate pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test,replica]'
	touch $@

install: $(VENV)/.installed

run: install
	$(BIN)/python -m scorepad --host $(HOST) --port $(PORT)

# The browser tests drive Debian's Chromium (Playwright's own browser download is not used).
# Its headless shell too, which the browser tests take where it is (the same Blink for half the processor time);
# without it (no apt-get, not root) they take Chromium itself.
chromium:
	@command -v chromium >/dev/null 2>&1 && command -v chromium-headless-shell >/dev/null 2>&1 || { \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Chromium and its headless shell for the browser tests (apt-get)"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null && \
	    { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null 2>&1 || \
	      echo "No chromium-headless-shell package here: the browser tests take Chromium itself."; }; \
	  elif ! command -v chromium >/dev/null 2>&1; then \
	    echo "The browser tests need Chromium: run 'sudo apt-get install chromium chromium-headless-shell' (Debian/Ubuntu/Raspberry Pi OS)."; \
	    exit 1; \
	  fi; }

# TEST_WORKERS processes share the tests a file at a time (a file's module fixtures and order stay whole); 0 runs
# them in this one. Every test has its own database, port and folder, so two at once meet nothing of each other.
# `make test` takes six on a 2-core machine: the replica's and the system tests wait on Litestream and real clocks
# far more than they compute, and the workers beside them fill those waits, until both cores are busy from start to
# end (vmstat: no idle time). The whole suite on a quiet 2-core machine, once the replica's supervisor ran at a
# test's pace: 6 m 49 s with four workers, 6 m 1 s with six. The quick loop only computes: a worker a core
# (FAST_WORKERS).
TEST_WORKERS ?= 6
FAST_WORKERS ?= 2

# ruff (configured in pyproject.toml) before any test: a finding fails both test commands, and CI with them.
lint: install
	$(BIN)/ruff check .

test: install lint chromium systemd-analyze sshd
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

# The quick loop while working: tests/core, tests/store and tests/web. No Chromium, no real server, no build
# (tests/browser is marked browser, tests/system slow); `make test` still runs everything.
test-fast: install lint
	$(BIN)/python -m pytest -m "not slow and not browser" -n $(FAST_WORKERS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis test-artifacts

# Benchmarks against the production server on loopback: prints a table of figures.
bench: install chromium
	$(BIN)/python bench/run.py $(BENCH_ARGS)
	$(BIN)/python bench/held.py

# --- Run it on a Raspberry Pi: a systemd service (see the README) ---------------------------------------------
UNIT ?= build/scorepad.service
DATA := /var/lib/scorepad

# The unit for this clone: its .venv's Python, this port.
unit:
	@mkdir -p $(dir $(UNIT))
	sed -e 's|@ROOT@|$(CURDIR)|g' -e 's|@PORT@|$(PORT)|g' deploy/scorepad.service.in > $(UNIT)

systemd-analyze:
	@command -v systemd-analyze >/dev/null 2>&1 || { \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "Installing systemd-analyze to check the service file (apt-get)"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq systemd >/dev/null; \
	  else \
	    echo "Checking the service file needs systemd-analyze: run 'sudo apt-get install systemd'."; \
	    exit 1; \
	  fi; }

# The SFTP replica test starts its own OpenSSH server on a loopback port.
sshd:
	@command -v sshd >/dev/null 2>&1 || [ -x /usr/sbin/sshd ] || { \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "Installing OpenSSH's server for the SFTP replica test (apt-get)"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssh-server >/dev/null; \
	  else \
	    echo "The SFTP replica test needs OpenSSH's server: run 'sudo apt-get install openssh-server'."; \
	    exit 1; \
	  fi; }

verify-service: install unit systemd-analyze
	systemd-analyze verify $(UNIT)

# Installs and starts the service (again after `git pull`: the new code, a backup, then the upgrade).
service: install unit
	@[ "$$(id -u)" = 0 ] || { echo "Installing a service needs root: run 'sudo make service'."; exit 1; }
	id -u scorepad >/dev/null 2>&1 || useradd --system --user-group --home-dir $(DATA) --no-create-home \
	  --shell /usr/sbin/nologin scorepad
	@runuser -u scorepad -- $(BIN)/python -c "import scorepad" 2>/dev/null || { \
	  echo "The scorepad user cannot run $(BIN)/python: a folder on the way to this clone, or to the Python"; \
	  echo "it was made from ($$(readlink -f $(BIN)/python)), is private. Let it pass (for /home/pi/scorepad:"; \
	  echo "'chmod o+x /home/pi'; it still cannot list what is there), or clone into /opt."; exit 1; }
	install -d -o scorepad -g scorepad -m 750 $(DATA)
	@if [ -f instance/scorepad.db ] && [ ! -e $(DATA)/scorepad.db ]; then \
	  echo "Moving the games of instance/scorepad.db to $(DATA) (a copy; yours stays)"; \
	  $(BIN)/flask --app scorepad backup $(DATA)/scorepad.db && chown scorepad:scorepad $(DATA)/scorepad.db; fi
	install -m 644 $(UNIT) /etc/systemd/system/scorepad.service
	systemctl daemon-reload
	systemctl enable scorepad
	systemctl restart scorepad
	@echo "Scorepad runs as a service now, and at every boot. Its log: journalctl -u scorepad -f"
	@$(BIN)/python -m scorepad --show-address --port $(PORT)

# The address and QR code a phone opens, again.
address: install
	@$(BIN)/python -m scorepad --show-address --port $(PORT)

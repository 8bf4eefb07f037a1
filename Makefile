# `make run` and `make test` do all set-up on a fresh clone: a virtualenv in .venv with
# everything installed, the database migrated.
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
# The first Python >= 3.12 found (pyenv reads .python-version for the shims).
PYTHON ?= $(shell for p in python3.13 python3.12 python3; do $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { echo $$p; break; }; done)
HOST ?= 127.0.0.1
PORT ?= 8000

# Browser tests drive Debian's chromium (Playwright's own browser download is not used).
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

.PHONY: install browser messages run serve-lan test deploy-test lint format clean

install: $(VENV)/.installed

$(VENV)/.installed: requirements.txt pyproject.toml
	@test -n "$(PYTHON)" || { echo "Python 3.12 or newer is needed (pyenv install 3.13)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade "pip>=25.1"
	$(BIN)/python -m pip install --quiet -r requirements.txt --group dev
	touch $@

# Mail and other tasks run at once in `make run`; production runs the Procfile's worker.
RUN_ENV := DEBUG=$${DEBUG:-1} TASK_BACKEND=$${TASK_BACKEND:-django.tasks.backends.immediate.ImmediateBackend}

run: install messages
	$(RUN_ENV) $(BIN)/python manage.py migrate --noinput
	$(RUN_ENV) $(BIN)/python manage.py createcachetable
	$(RUN_ENV) $(BIN)/python manage.py runserver $(HOST):$(PORT)

# The phones at the table on the same Wi-Fi: the Procfile's way (gunicorn, DEBUG off, collected
# static files under the manifest storage), on every interface, with this machine's address in
# ALLOWED_HOSTS and CSRF_TRUSTED_ORIGINS; it prints the address to open and its QR code. The
# address is the one the default route leaves from (no packet is sent); set LAN_IP to choose.
# Plain HTTP: no service worker (offline) and no screen wake lock there (README, "At the table").
LAN_IP ?= $(shell $(BIN)/python -c "import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.connect(('10.254.254.254', 1)); print(s.getsockname()[0])" 2>/dev/null)
LAN_URL = http://$(LAN_IP):$(PORT)/
LAN_ENV = DEBUG=0 SECRET_KEY="$$(cat .dev-secret-key)" ALLOWED_HOSTS=$(LAN_IP),localhost,127.0.0.1 \
	CSRF_TRUSTED_ORIGINS=http://$(LAN_IP):$(PORT) MAIL_BACKEND=$${MAIL_BACKEND:-django.core.mail.backends.console.EmailBackend} \
	TASK_BACKEND=$${TASK_BACKEND:-django.tasks.backends.immediate.ImmediateBackend}

serve-lan: install messages .dev-secret-key
	@test -n "$(LAN_IP)" || { echo "No network address found: join the Wi-Fi, or say it: make serve-lan LAN_IP=192.168.1.20"; exit 1; }
	$(LAN_ENV) $(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(LAN_ENV) $(BIN)/python manage.py migrate --noinput
	$(LAN_ENV) $(BIN)/python manage.py createcachetable
	@$(BIN)/python -c "import segno, sys; print('\nOpen on the phones at the table (same Wi-Fi):', sys.argv[1], '\n'); segno.make(sys.argv[1]).terminal(compact=True); print()" $(LAN_URL)
	$(LAN_ENV) $(BIN)/gunicorn scorekeeper.asgi:application --bind 0.0.0.0:$(PORT) --workers 2 --preload --worker-class scorekeeper.http.worker.StreamWorker --access-logfile - --no-control-socket

.dev-secret-key: | install
	$(BIN)/python -c "from django.core.management.utils import get_random_secret_key as key; print(key())" > $@

# The translations compiled for Django: locale/<lang>/LC_MESSAGES/django.po (pages, Python) and
# djangojs.po (the page scripts' words); gettext's msgfmt refuses a broken entry or a placeholder
# that differs from the English (--check). Then the page scripts' catalogue of every language is
# written as a static file (django-statici18n) from the compiled djangojs.mo. The .mo files and the
# catalogues are committed: a deploy uses them as they are (docs/translating.md).
PO_FILES := $(wildcard locale/*/LC_MESSAGES/*.po)
JS_CATALOGUE := scorekeeper/static/scorekeeper/jsi18n/es/djangojs.js
messages: $(PO_FILES:.po=.mo) $(JS_CATALOGUE)

# compilejsi18n writes the catalogue of every language in settings.LANGUAGES; one stands for all.
$(JS_CATALOGUE): $(filter %/djangojs.mo,$(PO_FILES:.po=.mo)) | install
	SECRET_KEY=messages $(BIN)/python manage.py compilejsi18n --verbosity 0

%.mo: %.po
	@command -v msgfmt >/dev/null || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq gettext; }
	msgfmt --check --statistics -o $@ $<

# axe-core (tests/browser/test_axe.py) from the npm registry, once, into .cache/axe.
AXE := .cache/axe/node_modules/axe-core/axe.min.js

browser: $(AXE)
	@test -x $(CHROMIUM) || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium; }

$(AXE):
	@command -v npm >/dev/null || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq npm; }
	npm install --prefix .cache/axe --no-audit --no-fund --no-save axe-core@4.14

test: install browser messages
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The app made the Procfile's way on two nodes (PostgreSQL and Redis on this machine), then
# smoke-tested in Chromium and over the API: see .ci/deploy.
deploy-test: install browser
	bash .ci/deploy

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	SECRET_KEY=lint $(BIN)/python manage.py makemigrations --check --dry-run
	SECRET_KEY=lint $(BIN)/python manage.py spectacular --validate --fail-on-warn --file /dev/null

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .hypothesis
	rm -f $(PO_FILES:.po=.mo)

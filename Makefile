# Everyday commands. `make run` and `make test` are the README quickstart.
.PHONY: run test test-embedded lint format schema client bench

run:            ## run web + Celery worker + beat on the embedded default (or DATABASE_URL etc.)
	scripts/run.sh

test:           ## the whole test suite in parallel (real PostgreSQL + Redis when reachable); ARGS go to pytest
	scripts/test.sh $(ARGS)

test-embedded:  ## the suite on the embedded default (SQLite, file broker), as `make run` serves it
	DATABASE_URL= CELERY_BROKER_URL= PABLO_REQUIRE_SERVICES=0 \
		scripts/test.sh -m "not browser and not slow and not services and not pure" $(ARGS)

lint:           ## ruff lint and format check, strict mypy on the pure rules
	scripts/venv.sh dev
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .
	.venv/bin/mypy games/rules games/bots

format:
	.venv/bin/ruff format .
	.venv/bin/ruff check --fix .

schema:         ## validate the OpenAPI schema
	.venv/bin/python manage.py spectacular --validate --fail-on-warn --file /dev/null

client:         ## regenerate clients/python's calls and models from the schema (CHECK=1: only compare)
	scripts/client.sh $(if $(CHECK),--check)

bench:          ## the benchmarks in bench/ (see bench/README.md)
	scripts/venv.sh dev
	for b in bench/bench_*.py; do .venv/bin/python $$b || exit 1; done

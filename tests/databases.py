"""The test databases of a parallel run on PostgreSQL: migrated once, copied per worker.

pytest-django has every pytest-xdist worker create its own test database and migrate it:
four workers starting at once each spent 20-35 s (on a loaded machine) and several
CPU-seconds of Python and of the server replaying the same migrations. Here the first worker
to take a file lock migrates a *template* database once per run (xdist's ``testrunuid``
marks which run made it); every worker's own database is then ``CREATE DATABASE … TEMPLATE``
of it, a file copy of about a second. The template is made by Django's own
``create_test_db`` (migrations, their triggers and post-migrate rows included), so a copy is
exactly the database a worker would have migrated. It stays on the server until the next run
replaces it (one per ``PABLO_TEST_DB_NAME``).

Anything else -- SQLite (in-memory, per process), a run without xdist -- keeps
pytest-django's own set-up.
"""

from __future__ import annotations

import fcntl
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    with path.open("a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@pytest.fixture(scope="session")
def django_db_setup(
    request: pytest.FixtureRequest,
    django_test_environment: None,
    django_db_blocker,
    django_db_modify_db_settings: None,
) -> Iterator[None]:
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    workerinput = getattr(request.config, "workerinput", None)
    if connection.vendor != "postgresql" or workerinput is None:
        with django_db_blocker.unblock():
            config = setup_databases(
                verbosity=0, interactive=False, aliases={"default"}, serialized_aliases=set()
            )
        yield
        with django_db_blocker.unblock():
            teardown_databases(config, verbosity=0)
        return

    own = connection.settings_dict["TEST"]["NAME"]  # test_<name>_gwN (pytest-django's suffix)
    template = own.rsplit("_" + workerinput["workerid"], 1)[0] + "_template"
    place = Path(tempfile.gettempdir())
    marker = place / f"pablo-{template}.run"
    run = workerinput["testrunuid"]
    with django_db_blocker.unblock(), _locked(place / f"pablo-{template}.lock"):
        if not marker.exists() or marker.read_text() != run:
            marker.unlink(missing_ok=True)
            connection.settings_dict["TEST"]["NAME"] = template
            connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
            connection.close()
            marker.write_text(run)
        with connection._nodb_cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {_quoted(own)}")
            cursor.execute(f"CREATE DATABASE {_quoted(own)} TEMPLATE {_quoted(template)}")
    connection.settings_dict["TEST"]["NAME"] = own
    connection.settings_dict["NAME"] = own
    settings.DATABASES["default"]["NAME"] = own
    yield
    with django_db_blocker.unblock():
        connection.close()
        try:
            with connection._nodb_cursor() as cursor:
                cursor.execute(f"DROP DATABASE IF EXISTS {_quoted(own)} WITH (FORCE)")
        except Exception as error:  # a leftover database harms nothing
            request.node.warn(pytest.PytestWarning(f"could not drop {own}: {error!r}"))

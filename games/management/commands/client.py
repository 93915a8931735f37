"""``manage.py client``: regenerate the official Python client from the schema.

The generated part of ``clients/python/pablo_client`` (``api/``, ``models/`` and
the generator's top-level modules) is made by openapi-python-client from what
``manage.py spectacular`` prints, offline: the schema is built in this process,
the generator runs on a file, and its code is formatted by the ruff of this
environment with fixed options (``--isolated``: no configuration file is read), so
the same schema gives the same files on any machine. Every other file of the package
(``play.py``, the hand-written layer) is left alone.

``--check`` writes nothing and fails when the committed code differs from what the
schema gives now (CI: tests/programs/test_client_generated.py); ``--output DIR``
writes the package there instead (a copy to compare).
"""

from __future__ import annotations

import filecmp
import shlex
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from openapi_python_client import generate
from openapi_python_client.config import Config, ConfigFile, MetaType

CLIENT = Path(settings.BASE_DIR) / "clients" / "python"
PACKAGE = "pablo_client"
#: Names that are never the generator's (skipped when comparing and syncing).
NOISE = frozenset({"__pycache__", ".mypy_cache", ".ruff_cache"})


def _ruff(args: str) -> str:
    return f"{shlex.quote(sys.executable)} -m ruff {args} --isolated --no-cache --line-length 100 ."


POST_HOOKS = [
    _ruff("check --fix-only --extend-select=I --target-version py311"),
    _ruff("format --target-version py311"),
]


def schema_file(path: Path) -> None:
    """The OpenAPI schema, as ``manage.py spectacular`` writes it."""
    call_command("spectacular", file=str(path), format="openapi")


def generate_package(schema: Path, out: Path) -> None:
    """The generated package from ``schema`` into ``out`` (which must not exist)."""
    config = Config.from_sources(
        ConfigFile(
            project_name_override="pablo-client",
            package_name_override=PACKAGE,
            post_hooks=POST_HOOKS,
        ),
        MetaType.NONE,
        document_source=schema,
        file_encoding="utf-8",
        overwrite=True,
        output_path=out,
    )
    errors = generate(config=config)
    if errors:
        raise CommandError("\n".join(f"{e.level}: {e.header}: {e.detail}" for e in errors))


def _files(root: Path) -> set[Path]:
    return {
        p.relative_to(root)
        for p in root.rglob("*")
        if p.is_file() and not NOISE.intersection(p.relative_to(root).parts) and p.suffix != ".pyc"
    }


def differences(fresh: Path, committed: Path) -> list[str]:
    """What differs between the generator's ``fresh`` package and the ``committed``
    one, within what the generator writes (its top-level files and folders)."""
    made = _files(fresh)
    owned = set(made)
    for entry in fresh.iterdir():
        if entry.name in NOISE:
            continue
        if entry.is_dir() and (committed / entry.name).is_dir():
            owned |= {Path(entry.name) / p for p in _files(committed / entry.name)}
    found = []
    for rel in sorted(owned):
        a, b = fresh / rel, committed / rel
        if not b.is_file():
            found.append(f"missing: {rel}")
        elif not a.is_file():
            found.append(f"not generated any more: {rel}")
        elif not filecmp.cmp(a, b, shallow=False):
            found.append(f"differs: {rel}")
    return found


def sync(fresh: Path, committed: Path) -> None:
    """Replace the generated part of ``committed`` with ``fresh``; keep the rest."""
    committed.mkdir(parents=True, exist_ok=True)
    for entry in fresh.iterdir():
        if entry.name in NOISE:
            continue
        target = committed / entry.name
        if entry.is_dir():
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(entry, target)
        else:
            shutil.copyfile(entry, target)


class Command(BaseCommand):
    help = "Regenerate clients/python/pablo_client's models and calls from the schema."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--check", action="store_true", help="Fail if the committed client is out of date."
        )
        parser.add_argument(
            "--output", help="Write the generated package into this folder instead."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        committed = CLIENT / PACKAGE
        with tempfile.TemporaryDirectory(prefix="pablo-client-") as tmp:
            schema = Path(tmp) / "schema.yaml"
            schema_file(schema)
            fresh = Path(tmp) / PACKAGE
            generate_package(schema, fresh)
            if options["check"]:
                found = differences(fresh, committed)
                if found:
                    raise CommandError(
                        "clients/python is out of date with the schema "
                        "(run scripts/client.sh):\n  " + "\n  ".join(found)
                    )
                self.stdout.write("clients/python matches the schema")
                return
            target = Path(options["output"]) if options["output"] else committed
            sync(fresh, target)
            self.stdout.write(f"generated {target}")

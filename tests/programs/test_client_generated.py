"""The official client (clients/python) matches the schema: CI regenerates its models
and calls as ``scripts/client.sh`` does and fails when the committed code differs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from games.management.commands.client import (
    CLIENT,
    PACKAGE,
    differences,
    generate_package,
    schema_file,
    sync,
)

pytestmark = pytest.mark.timeout(180)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("client")
    schema_file(tmp / "schema.yaml")
    generate_package(tmp / "schema.yaml", tmp / PACKAGE)
    return tmp / PACKAGE


def test_the_committed_client_is_what_the_schema_generates(fresh: Path) -> None:
    found = differences(fresh, CLIENT / PACKAGE)
    assert found == [], "clients/python is out of date: run scripts/client.sh\n" + "\n".join(found)


def test_drift_is_seen_and_regeneration_keeps_the_hand_written_layer(
    fresh: Path, tmp_path: Path
) -> None:
    copy = tmp_path / PACKAGE
    shutil.copytree(CLIENT / PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    turn = copy / "models" / "turn.py"
    turn.write_text(turn.read_text().replace("version", "versio"))
    (copy / "api" / "me" / "me_turns.py").unlink()
    (copy / "api" / "me" / "me_gone.py").write_text("")
    assert differences(fresh, copy) == [
        "not generated any more: api/me/me_gone.py",
        "missing: api/me/me_turns.py",
        "differs: models/turn.py",
    ]
    sync(fresh, copy)
    assert differences(fresh, copy) == []
    assert (copy / "play.py").read_text() == (CLIENT / PACKAGE / "play.py").read_text()

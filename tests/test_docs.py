"""The README and docs/ stand alone: no link or reference leaves the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "bench" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)")


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_doc_names_nothing_outside_the_repository(path):
    text = path.read_text()
    for name in ("../shared", "RULES.md", "API.md", "UI.md", "STYLE.md"):
        assert name not in text, name
    for target in LINK.findall(text):
        if target.startswith(("http://127.0.0.1", "http://localhost")):
            continue
        assert "://" not in target, target
        assert (path.parent / target).resolve().is_relative_to(ROOT), target
        assert (path.parent / target).exists(), target

"""``collectstatic`` compresses a static file again only when it changed (pablo/storage.py).

``make run`` collects on every start; WhiteNoise's storage alone made every Brotli and
gzip copy again each time (about 3 CPU-seconds where ``brotli`` is installed)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings
from whitenoise.compress import Compressor, brotli_installed

from pablo.storage import KeepingCompressor, StaticFilesStorage

BROTLI = int(brotli_installed)

TEXT = "body { color: #123; }\n" * 400


@pytest.fixture
def storage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> StaticFilesStorage:
    monkeypatch.setattr(settings, "WHITENOISE_SKIP_COMPRESS_EXTENSIONS", [], raising=False)
    (tmp_path / "site.css").write_text(TEXT)
    (tmp_path / "play.js").write_text("let x = 1;\n" * 400)
    return StaticFilesStorage(location=str(tmp_path), base_url="/static/")


def collect(storage: StaticFilesStorage) -> set[str]:
    return {name for _, name, _ in storage.post_process({"site.css": None, "play.js": None})}


def compressed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the gzip compressions from now on (Brotli's go with them, where installed)."""
    calls: list[int] = []
    real = Compressor.compress_gzip
    monkeypatch.setattr(
        Compressor, "compress_gzip", staticmethod(lambda data: calls.append(1) or real(data))
    )
    return calls


def copies(*names: str) -> set[str]:
    """The compressed copies of ``names``: gzip, and Brotli where the package is installed."""
    suffixes = [".gz"] + [".br"] * BROTLI
    return {name + suffix for name in names for suffix in suffixes}


def test_unchanged_files_are_not_compressed_again(storage, tmp_path, monkeypatch):
    first = collect(storage)
    assert first == copies("site.css", "play.js")
    calls = compressed(monkeypatch)
    assert collect(storage) == first
    assert calls == []


def test_a_changed_file_is_compressed_again_from_its_new_text(storage, tmp_path, monkeypatch):
    import gzip

    collect(storage)
    calls = compressed(monkeypatch)
    css = tmp_path / "site.css"
    css.write_text(TEXT.replace("#123", "#456"))  # as collectstatic copies a newer file
    stat = css.stat()
    os.utime(css, (stat.st_atime, stat.st_mtime + 5))
    assert collect(storage) == copies("site.css", "play.js")
    assert len(calls) == 1
    assert gzip.decompress((tmp_path / "site.css.gz").read_bytes()).decode() == css.read_text()


def test_a_missing_copy_is_made_again(storage, tmp_path, monkeypatch):
    collect(storage)
    (tmp_path / "play.js.gz").unlink()
    calls = compressed(monkeypatch)
    assert "play.js.gz" in collect(storage)
    assert len(calls) == 1


def test_a_file_that_no_longer_compresses_keeps_no_copy_of_its_former_text(storage, tmp_path):
    """WhiteNoise serves the smallest copy a client accepts: a copy left from the file's
    former text (compressed then, its new text not worth compressing) was served instead."""
    collect(storage)
    js = tmp_path / "play.js"
    js.write_bytes(os.urandom(8000))  # no compression gets it below 95 %
    stat = js.stat()
    os.utime(js, (stat.st_atime, stat.st_mtime + 5))
    assert collect(storage) == copies("site.css")
    assert not (tmp_path / "play.js.gz").exists()
    assert not (tmp_path / "play.js.br").exists()


def test_a_brotli_copy_no_longer_made_is_not_left_beside_a_new_text(storage, tmp_path, monkeypatch):
    """Brotli removed from the environment: the file's next gzip copy is new, and its old
    Brotli copy (still served to every browser accepting br) goes."""
    collect(storage)
    css = tmp_path / "site.css"
    (tmp_path / "site.css.br").write_bytes(b"the former text, compressed")  # an older run's
    css.write_text(TEXT.replace("#123", "#456"))
    stat = css.stat()
    os.utime(css, (stat.st_atime, stat.st_mtime + 5))
    monkeypatch.setattr(  # as where the brotli package is not installed
        storage, "create_compressor", lambda **kwargs: KeepingCompressor(use_brotli=False, **kwargs)
    )
    assert "site.css.gz" in collect(storage)
    assert not (tmp_path / "site.css.br").exists()

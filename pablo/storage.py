"""Static files collected once: compressed again only where a file changed.

WhiteNoise's ``CompressedStaticFilesStorage`` writes a Brotli and a gzip copy of
every collected file on every ``collectstatic``, changed or not -- about 3 CPU-seconds
here for Django's admin, DRF's browsable API and the site's own files where the
``brotli`` package is installed (0.1 without it), paid on every ``make run`` start
(scripts/run.sh collects before it serves). Its compressor gives each
copy the mtime of the file it compressed, and ``collectstatic`` copies only a file
newer than the collected one; so a copy with the collected file's mtime was made from
exactly that file, and is kept instead of being made again. A file compressed again
leaves no copy of its former text beside it (one it no longer gets would be served).
"""

from __future__ import annotations

import contextlib
import os

from whitenoise.compress import Compressor
from whitenoise.storage import CompressedStaticFilesStorage


class KeepingCompressor(Compressor):
    """Compresses ``path`` unless every copy it would write is there already, with
    ``path``'s mtime (the compressor sets it so)."""

    def compress(self, path: str) -> list[str]:
        mtime = os.stat(path).st_mtime
        suffixes = [".br"] * self.use_brotli + [".gz"] * self.use_gzip
        copies = [path + suffix for suffix in suffixes]
        try:
            # (to the microsecond: the mtime went through a float on its way there)
            if copies and all(abs(os.stat(copy).st_mtime - mtime) < 1e-6 for copy in copies):
                return copies
        except FileNotFoundError:
            pass
        written = super().compress(path)
        # A copy of the file's former text that is not made again stays no more: no longer
        # compressed effectively, or Brotli no longer installed, it was served in its place
        # (WhiteNoise serves the smallest copy the client accepts, whatever its date).
        for stale in {path + ".br", path + ".gz"} - set(written):
            with contextlib.suppress(FileNotFoundError):
                os.remove(stale)
        return written


class StaticFilesStorage(CompressedStaticFilesStorage):
    """WhiteNoise's compressed storage with ``KeepingCompressor``."""

    def create_compressor(self, **kwargs: object) -> Compressor:
        return KeepingCompressor(**kwargs)

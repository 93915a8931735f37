"""``manage.py ratings --rebuild``: every rating again from the events alone."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.ratings import model, services


class Command(BaseCommand):
    help = "Rebuild the ratings from the event log (docs/ratings.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--rebuild", action="store_true", help="Drop and recompute every rating."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["rebuild"]:
            self.stdout.write(f"model {model.VERSION}; --rebuild to recompute every rating")
            return
        start = time.perf_counter()
        games = services.ratings_rebuild()
        took = time.perf_counter() - start
        self.stdout.write(f"rebuilt from {games} finished games in {took:.1f} s ({model.VERSION})")

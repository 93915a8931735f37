"""``manage.py followers``: every follower of the log, its position and its lag."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games import followers


class Command(BaseCommand):
    help = "Print each follower's position, the log's head and the lag (events and seconds)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--catch-up",
            action="store_true",
            help="catch every follower up in this process first (as the worker would)",
        )

    def handle(self, *args: Any, catch_up: bool = False, **options: Any) -> None:
        if catch_up:
            followers.follow_all()
        rows = followers.lag()
        width = max([len("follower"), *(len(row.name) for row in rows)])
        self.stdout.write(
            f"{'follower':<{width}}  {'position':>10}  {'head':>10}  {'lag':>8}  {'lag s':>8}"
        )
        for row in rows:
            self.stdout.write(
                f"{row.name:<{width}}  {row.position:>10}  {row.head:>10}  "
                f"{row.events:>8}  {row.seconds:>8.1f}"
            )

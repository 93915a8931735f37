"""The ratings' follower of the event log: rates each game when its
``game_finished`` comes by (``services.ratings_apply``, idempotent)."""

from __future__ import annotations

from typing import Any

from games.followers import Follower

from . import services


class Ratings(Follower):
    name = "ratings"

    def wants(self, event: Any) -> bool:
        return event.type == "game_finished"

    def handle(self, events: list[Any]) -> None:
        services.ratings_apply(events)

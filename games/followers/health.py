"""``/health/ready``: 200 while every follower keeps up, 503 while one is more than
``PABLO_FOLLOWER_MAX_LAG`` seconds behind the log (or the database does not answer)."""

from __future__ import annotations

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from . import lag


@require_GET
def ready(request: HttpRequest) -> JsonResponse:
    limit = float(settings.PABLO_FOLLOWER_MAX_LAG)
    try:
        rows = lag()
    except DatabaseError:
        return JsonResponse(
            {"code": "database_unavailable", "detail": "The database does not answer."},
            status=503,
        )
    behind = [row.name for row in rows if row.seconds > limit]
    followers = {row.name: {"lag": row.events, "seconds": round(row.seconds, 1)} for row in rows}
    if behind:
        detail = f"Followers more than {limit:g} s behind the log: {', '.join(behind)}."
        body = {"code": "followers_behind", "detail": detail, "followers": followers}
        return JsonResponse(body, status=503)
    return JsonResponse({"status": "ready", "followers": followers})

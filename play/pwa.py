"""The installable web app: the manifest, the service worker, the offline page, the devices.

``/manifest.webmanifest`` and ``/sw.js`` are served from the site's root, so
the worker's scope is the whole site. The worker (templates/play/sw.js) keeps
in its cache the static files of the pages and the offline page, and nothing
else: a page or an answer that can hold a card (the table, its feed, the API,
the replays) is always fetched from the network. Its version is a digest of
what it keeps, so a changed file brings a new worker that empties the old
cache. docs/notifications.md "The installable app".
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from games.errors import ApplicationError
from games.services import notifications as notification_services

THEME = "#1f6b4a"  # the felt (tabletop/site.css --felt)
BACKGROUND = "#eef1ee"
#: The static files every page needs, kept by the worker when it installs.
KEPT = (
    "tabletop/site.css",
    "play/play.css",
    "play/play.js",
    "play/lobby.js",
    "play/push.js",
    "replays/replay.js",
    "play/icons/icon-192.png",
    "play/icons/maskable-192.png",
)
ICONS = (
    ("play/icons/icon-192.png", "192x192", "any"),
    ("play/icons/icon-512.png", "512x512", "any"),
    ("play/icons/maskable-192.png", "192x192", "maskable"),
    ("play/icons/maskable-512.png", "512x512", "maskable"),
)


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The Web App Manifest: installable, standalone, starting at the lobby."""
    body = {
        "id": "/",
        "name": "Pablo",
        "short_name": "Pablo",
        "description": gettext(
            "Card games with friends or bots, one move at a time: Pablo, Cabo, Tamalou and Skip-Bo."
        ),
        "lang": translation.get_language(),
        "start_url": reverse("play:lobby"),
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    response = JsonResponse(body, content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


@cache
def _digest_kept() -> str:
    digest = hashlib.sha256()
    for path in KEPT:
        found = finders.find(path)
        if isinstance(found, str):
            with open(found, "rb") as file:
                digest.update(file.read())
    for name in ("play/sw.js", "play/offline.html"):
        digest.update(name.encode())
    return digest.hexdigest()[:16]


def worker_version() -> str:
    """What the worker keeps, as a digest (computed once a process; each time when DEBUG)."""
    if settings.DEBUG:
        _digest_kept.cache_clear()
    return _digest_kept()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at the root (its scope: the whole site)."""
    config = {
        "version": worker_version(),
        "static": "/" + settings.STATIC_URL.lstrip("/"),
        "offline": reverse("play:offline"),
        "kept": [static(path) for path in KEPT],
        "icon": static("play/icons/icon-192.png"),
        "badge": static("play/icons/maskable-192.png"),
    }
    response = render(
        request,
        "play/sw.js",
        {"config": mark_safe(json.dumps(config))},  # our own JSON
        content_type="text/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """The page the worker shows when a page cannot be fetched: no name, no card, no token."""
    response = render(request, "play/offline.html", {})
    response["Cache-Control"] = "no-cache"
    return response


# --------------------------------------------------------------------------- devices


@login_required
@require_POST
def device_remove(request: HttpRequest, pk: int) -> HttpResponse:
    """Remove one of the user's devices (a plain form: works without JavaScript)."""
    try:
        notification_services.push_unsubscribe(user=request.user, subscription_id=pk)
    except ApplicationError:
        messages.error(request, gettext("That device was already removed."))
    else:
        messages.success(request, gettext("The device was removed: it gets no more notifications."))
    return HttpResponseRedirect(reverse("play:token") + "#devices")

"""Content-Security-Policy and Permissions-Policy on every answer (issue 18).

No page of the service needs inline script: the table's and the viewer's
scripts are static files, the API reference (``/api/docs/``) is plain HTML. So
``script-src 'self'`` -- an injected ``<script>`` or ``onerror=`` runs nowhere --
and, as defence in depth, no plugins, no ``<base>``, forms only to this site, no
framing.

``PABLO_CONTENT_SECURITY_POLICY`` replaces the policy (empty: none is sent);
``PABLO_PERMISSIONS_POLICY`` likewise. Django's admin carries inline ``style``
(not script): on ``/admin/`` ``style-src`` also allows ``'unsafe-inline'``.

The API's answers (``/api/...``) are sent ``Cache-Control: no-store`` unless a view
says otherwise: a game's ``state`` and its events hold the caller's own cards, as the
table's page does (sent ``no-store`` too); no browser or proxy cache may keep them.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
PERMISSIONS_POLICY = (
    "accelerometer=(), autoplay=(), camera=(), display-capture=(), geolocation=(), "
    "gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), "
    "publickey-credentials-get=(), screen-wake-lock=(), usb=(), xr-spatial-tracking=()"
)
INLINE_STYLE_PATHS = ("/admin/",)
NEVER_STORED_PATHS = ("/api/",)


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = getattr(settings, "PABLO_CONTENT_SECURITY_POLICY", CONTENT_SECURITY_POLICY)
        if policy and "Content-Security-Policy" not in response:
            if request.path_info.startswith(INLINE_STYLE_PATHS):
                policy = policy.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
            response["Content-Security-Policy"] = policy
        permissions = getattr(settings, "PABLO_PERMISSIONS_POLICY", PERMISSIONS_POLICY)
        if permissions and "Permissions-Policy" not in response:
            response["Permissions-Policy"] = permissions
        # (the route: ``path_info``; ``path`` carries a script prefix, and under one no API
        # answer was marked no-store)
        if request.path_info.startswith(NEVER_STORED_PATHS) and "Cache-Control" not in response:
            response["Cache-Control"] = "no-store"
        return response

"""``/api/...`` without its trailing slash is the same call, not a redirect.

Django's ``APPEND_SLASH`` answers ``POST /api/games`` with a 301 to
``/api/games/``; most clients follow a 301 with a GET and drop the body, so a
careless client sees its action vanish or a game list instead of its new game.
Under ``/api/`` the slash is added in place (method and body kept) when the
slashed path exists; everywhere else ``CommonMiddleware`` behaves as usual.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve


class ApiTrailingSlashMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        if path.startswith("/api/") and not path.endswith("/"):
            try:
                resolve(path)
            except Resolver404:
                try:
                    resolve(path + "/")
                except Resolver404:
                    pass
                else:
                    request.path_info = path + "/"
                    request.path = request.path + "/"
        return self.get_response(request)

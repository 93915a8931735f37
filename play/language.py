"""The language of a request (docs/table.md "Languages").

``LocaleMiddleware`` (before this one) picks the cookie the header's switch
sets, else ``Accept-Language``. After it, for a signed-in account that chose a
language, that choice wins on every page, on every device from its next page
(``games.selectors.account_cache``: cached per account, dropped when it changes);
the API follows ``Accept-Language`` alone, whatever cookie a browser sends, so a
program gets what it asks for.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from games.languages import from_accept_language
from games.selectors import accounts as account_selectors


def accept_language(request: HttpRequest) -> str:
    """The first language of the request's ``Accept-Language`` that the site speaks
    (``q=0``: not acceptable, never chosen)."""
    return from_accept_language(request.META.get("HTTP_ACCEPT_LANGUAGE", ""))


def account_language(request: HttpRequest) -> str | None:
    """The signed-in account's language, or None."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    return account_selectors.account_language(user=user)


def page_language(request: HttpRequest) -> str | None:
    """A page's language: the account's choice, else the switch's cookie (as
    ``LocaleMiddleware`` read it: None, its choice stands), else ``Accept-Language``."""
    code = account_language(request)
    if code:
        return code
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if cookie:
        try:
            translation.get_supported_language_variant(cookie)
        except LookupError:
            pass
        else:
            return None
    return accept_language(request)


class LanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        code = (
            accept_language(request)
            if request.path_info.startswith("/api/")
            else page_language(request)
        )
        if code:
            translation.activate(code)
            request.LANGUAGE_CODE = code
        return self.get_response(request)

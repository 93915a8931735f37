"""The API's language: the first of ``Accept-Language`` that the site speaks.

One function for both doors of the API: the middleware (``play.language``) and the
feed's fast path (``games.feed.fast``), which answers before Django and must name the
same ``Content-Language`` as Django would.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header


def from_accept_language(header: str) -> str:
    """The first language of an ``Accept-Language`` header that the site speaks, else
    the default.

    ``q=0`` means "not acceptable" (RFC 9110, 12.4.2): such a language is never chosen
    (Django's own choice, in ``LocaleMiddleware``, takes it like any other)."""
    for code, q in parse_accept_lang_header(header):
        if q <= 0:
            continue
        if code == "*":
            break
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE

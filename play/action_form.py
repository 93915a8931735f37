"""The table's action form (``POST /play/{id}/act/``) as a Django form.

Its fields are what ``templates/play/_act.html`` sends: ``action`` (the API's
action body as JSON), ``version`` (the game's version the page showed) and
``key`` (the idempotency key). Anything else -- JSON nested past Python's
recursion limit, ``version="²"`` (a digit to ``str.isdigit`` but not to
``int``), a 5,000-digit number -- is the field's error shown on the table,
never a 500.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

BAD_BODY = _("The body must be a JSON object naming the action's type.")
BAD_VERSION = _("version: the game's version is a whole number; reload the table and try again.")
MAX_ACTION = 20_000  # characters: far above any action's JSON
_VERSION = re.compile(r"[0-9]{1,10}\Z", re.ASCII)


class ActionForm(forms.Form):
    action = forms.CharField(max_length=MAX_ACTION, strip=False)
    version = forms.CharField(required=False, max_length=10)
    key = forms.CharField(required=False, strip=False)

    error_messages = {"action": BAD_BODY, "version": BAD_VERSION}

    def clean_action(self) -> dict[str, Any]:
        try:
            body = json.loads(self.cleaned_data["action"])
        except (ValueError, RecursionError):
            raise forms.ValidationError(BAD_BODY) from None
        if not isinstance(body, dict):
            raise forms.ValidationError(BAD_BODY)
        return body

    def clean_version(self) -> int | None:
        value = self.cleaned_data.get("version") or ""
        if not value:
            return None
        if not _VERSION.match(value):
            raise forms.ValidationError(BAD_VERSION)
        return int(value)

    def clean_key(self) -> str | None:
        return (self.cleaned_data.get("key") or "")[:255] or None

    def first_error(self) -> str:
        """The sentence the table shows for the first field in error."""
        for field in ("action", "version", "key"):
            if field in self.errors:
                return self.error_messages.get(field) or str(self.errors[field][0])
        return BAD_BODY

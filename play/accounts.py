"""The web's account forms: log-in (web and admin) and sign-up, with the API's rules.

* Log-in: the name is trimmed and nothing else, as ``POST /api/auth/token/``
  does. Django's own form NFKC-normalises it first, so a fullwidth ``victim`` logged in
  as ``victim``; here a lookalike spelling is a wrong name (and its failure
  counts against ``victim``'s key, ``games.usernames.username_key``).
* Sign-up: the name goes through ``services.accounts.user_register``, which refuses what
  the API refuses (taken under another spelling, mixed scripts, invisible
  characters).
"""

from __future__ import annotations

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm


class _ExactName(forms.CharField):
    """A username as sent, only trimmed (no NFKC: lookalikes are other names)."""

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("max_length", 150)
        super().__init__(strip=True, **kwargs)  # type: ignore[arg-type]
        self.widget.attrs.update(autocapitalize="none", autocomplete="username", autofocus=True)


class LoginForm(AuthenticationForm):
    username = _ExactName()


class AdminLoginForm(AdminAuthenticationForm):
    username = _ExactName()

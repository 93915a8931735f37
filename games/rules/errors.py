"""The rules' errors: what the rules refuse, with a machine ``code``.

The API maps the classes to statuses (``Malformed`` 400, ``NotAllowed`` 409).

A refusal's sentence is an English template with ``%(name)s`` placeholders and
its parameters apart (``NotAllowed("It is seat %(seat)s's turn.",
"not_your_turn", seat=2)``): the template is the message id of the
translation catalogues, which the rules never read (they are pure). The
project's ``makemessages`` collects the first argument of every call of these
classes (and of ``games.errors``' classes) as a message, and the API's
exception handler translates it into the request's language before it fills
the parameters in (docs/design.md "Languages"). So the template must be a
plain string literal at the call, never an f-string (``tests/test_i18n_sources.py``);
a parameter is a number, a code or a name, never an English word.
"""

from __future__ import annotations

from typing import Any


class RulesError(Exception):
    """An action the rules refuse, with a machine ``code`` (the API maps classes to statuses).

    ``message`` is the English template, ``params`` its values, ``detail`` the
    English sentence (the template filled in: logs, the command line)."""

    default_code = "illegal_action"

    def __init__(self, message: str, code: str | None = None, **params: Any) -> None:
        self.message = message
        self.params = params
        self.detail = message % params if params else message
        super().__init__(self.detail)
        self.code = code or self.default_code


class Malformed(RulesError):
    """A value that can never be valid in this game (a malformed request)."""

    default_code = "invalid"


class NotAllowed(RulesError):
    """Well-formed but not allowed now. Nothing is stored."""

    default_code = "illegal_action"

"""``makemessages`` that also collects the refusals' sentences.

A refusal is raised with its English template as the first argument
(``NotAllowed("It is seat %(seat)s's turn.", "not_your_turn", seat=2)``):
the pure rules cannot call ``gettext``, so the classes themselves are the
extractor's keywords, and the API's exception handler translates the
template (``games.errors.sentence``). Everything else is Django's command.
"""

from __future__ import annotations

from django.core.management.commands import makemessages

#: The classes whose first argument is a message (games.rules.errors, games.errors).
REFUSALS = (
    "RulesError",
    "Malformed",
    "NotAllowed",
    "ApplicationError",
    "NotFound",
    "Forbidden",
    "Unauthenticated",
    "Unavailable",
    "Conflict",
)


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        *(f"--keyword={name}:1" for name in REFUSALS),
    ]

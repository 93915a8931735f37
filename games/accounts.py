"""One account per name, whatever its spelling: the database holds every name's key.

``games.models.AccountName`` keeps the SHA-256 of each account's
``username_look`` (its ``username_key`` -- trimmed, NFKC, case-folded -- with
letters that only look like ASCII ones made those) under a unique index. A
receiver of the user model's ``post_save`` writes it in the same transaction
as the account, for every way an account comes to be or is renamed (the API's
sign-up, the web's, the admin, ``createsuperuser``): of two sign-ups of
``racer`` and ``RACER`` at the same instant, both pass the friendly check
(``selectors.accounts.username_taken``), and the second insert of the key fails, which
rolls its account back (``services.accounts.user_register`` answers ``username_taken``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from games.services import accounts as account_services


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.accounts.name_key")
def _name_key(sender: Any, instance: Any, created: bool, update_fields: Any, **kwargs: Any) -> None:
    """Keep the account's look row in step with its name (raises IntegrityError when taken)."""
    if kwargs.get("raw"):
        return  # loaddata
    if not created and update_fields is not None and "username" not in update_fields:
        return  # a log-in's last_login, a password change: the name did not move
    account_services.account_name_record(user=instance, created=created)

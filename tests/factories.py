"""factory_boy factories: the one way tests make their rows by hand.

``UserFactory(username="ann", password="right-one")`` is
``User.objects.create_user``: the password is hashed, so the user can log in.
"""

from __future__ import annotations

from typing import Any

import factory
from django.conf import settings


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = settings.AUTH_USER_MODEL

    username = factory.Sequence(lambda n: f"user{n}")
    password = "secret-pw"
    email = ""

    @classmethod
    def _create(cls, model_class: Any, *args: Any, **kwargs: Any) -> Any:
        return model_class.objects.create_user(*args, **kwargs)

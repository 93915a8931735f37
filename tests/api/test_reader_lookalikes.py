"""A name that only looks like the reader's word ("You", "Toi", "Du") is refused as the
word itself is: Latin small capitals (U+1D0F, U+028F) are one script, so
neither "mixed" nor a whole-script lookalike, yet they read as ``you``/``toi`` -- by the
API, the web sign-up and the admin's rename alike."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.admin import AccountChangeForm
from tests.api.test_strangers import register
from tests.fixtures import user

LOOKALIKES = ["y\u1d0fu", "\u028fou", "\u028f\u1d0fu", "t\u1d0fi"]


@pytest.mark.django_db
@pytest.mark.parametrize("name", LOOKALIKES)
def test_a_lookalike_of_the_readers_word_is_refused(name):
    answer = register(name)
    assert answer.status_code == 400, (name, answer.content)
    assert "username" in answer.json()["detail"]
    assert not get_user_model().objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["y\u1d0fu", "YOU", "du"])
def test_the_admin_cannot_rename_an_account_to_it(name):
    ann = user("ann")
    form = AccountChangeForm(
        instance=ann,
        data={"username": name, "date_joined": "2026-01-01 00:00:00", "last_login": ""},
    )
    form.is_valid()
    assert "username" in form.errors, (name, form.errors)

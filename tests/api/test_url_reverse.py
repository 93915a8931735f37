"""Every named route reverses (found attacking main: the JSON 404 catch-all for /api/
was written with the inline flag ``(?s)``, which Django cannot reverse -- and as the
resolver reverses every pattern at once, every ``reverse()`` and ``{% url %}`` of the
site failed, so every web page was a 500)."""

from __future__ import annotations

import pytest
from django.urls import get_resolver, resolve, reverse

pytestmark = pytest.mark.django_db


def test_the_sites_routes_reverse():
    assert reverse("play:lobby") == "/"
    get_resolver().reverse_dict  # noqa: B018 (builds the whole reverse table)


def test_an_api_path_with_a_newline_is_the_json_404(client):
    assert resolve("/api/nothing/a\nb/").func.__name__ == "not_found_view"
    answer = client.get("/api/nothing/a%0Ab/x/")
    assert answer.status_code == 404 and answer["Content-Type"].startswith("application/json")


def test_a_web_page_renders(client):
    assert client.get("/").status_code == 200

"""The lobby, the table's pages and the viewer are one site (templates/base.html)."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db

PAGES = ["/", "/accounts/login/", "/replays/"]


def _chrome(html: str) -> tuple[str, str]:
    header = re.search(r'<header class="site">.*?</header>', html, re.S)
    footer = re.search(r'<footer class="site">.*?</footer>', html, re.S)
    assert header and footer
    # the log-out form's CSRF token is masked afresh on every page
    plain = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", header.group(0))
    return plain, footer.group(0)


@pytest.mark.parametrize("signed_in", [False, True])
def test_every_page_has_the_same_header_navigation_and_footer(client, django_user_model, signed_in):
    if signed_in:
        client.force_login(django_user_model.objects.create_user("ann", password="pw"))
    chrome = set()
    for path in PAGES:
        response = client.get(path)
        assert response.status_code == 200, path
        html = response.content.decode()
        assert "tabletop/site.css" in html
        chrome.add(_chrome(html))
    assert len(chrome) == 1
    (header, _footer) = chrome.pop()
    for link in ("Lobby", "Replays"):
        assert f">{link}</a>" in header
    assert ("Log out ann" in header) if signed_in else (">Log in</a>" in header)

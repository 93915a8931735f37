"""The per-account cache of the pages' language and timezone, against a change made on
another device while a page is reading the old value from the database.

A page that missed the cache read the database, then cached what it read; a change
committed between the two (dropping the cached copy at once and once committed) came
too early to drop it: the page cached the former value after both drops, and every
device of the account kept it for the cache's whole day."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from games.selectors import account_cache
from tests.fixtures import user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("warm", [False, True])
def test_a_change_committed_while_a_page_reads_the_old_value_is_not_hidden(
    django_capture_on_commit_callbacks, warm
):
    ann = user("ann")
    stored = {"language": "en"}
    if warm:  # read before: then the change's first drop, before its commit
        assert account_cache.cached(user=ann, name="language", read=lambda: "en") == "en"
        account_cache.changed(user=ann, name="language")

    def page_reads() -> str:
        seen = stored["language"]  # the page's query: before the change is committed
        with django_capture_on_commit_callbacks(execute=True):  # another device, committed
            stored["language"] = "fr"
            account_cache.changed(user=ann, name="language")
        return seen

    assert account_cache.cached(user=ann, name="language", read=page_reads) == "en"
    # the account's next page, anywhere: the database's "fr", not the "en" cached late
    found = account_cache.cached(user=ann, name="language", read=lambda: stored["language"])
    assert found == "fr"


def test_a_value_cached_is_read_from_the_cache_until_it_changes():
    ann = user("ann")
    reads = []

    def read() -> str:
        reads.append(1)
        return "Europe/Paris"

    for _ in range(3):
        assert account_cache.cached(user=ann, name="timezone", read=read) == "Europe/Paris"
    assert len(reads) == 1
    account_cache.changed(user=ann, name="timezone")
    assert account_cache.cached(user=ann, name="timezone", read=read) == "Europe/Paris"
    assert len(reads) == 2


def test_a_cache_that_is_away_leaves_the_database_to_answer(monkeypatch):
    ann = user("ann")

    def away(*args, **kwargs):
        raise ConnectionError("no cache")

    for method in ("get", "get_many", "set", "add", "delete"):
        monkeypatch.setattr(cache, method, away)
    assert account_cache.cached(user=ann, name="language", read=lambda: "de") == "de"
    account_cache.changed(user=ann, name="language")

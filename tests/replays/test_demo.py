"""``manage.py demo``: finished games by legal play through the services."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from games.models import Event, Game

pytestmark = pytest.mark.django_db


def test_demo_plays_finished_games_the_viewer_opens(client, capsys):
    call_command("demo", "--seed", "1", "--ruleset", "pablo-50", "--ruleset", "tamalou")
    games = Game.objects.order_by("ruleset")
    assert [g.ruleset for g in games] == ["pablo-50", "tamalou"]
    for game in games:
        assert game.status == Game.Status.FINISHED
        assert game.result["winners"]
        assert Event.objects.filter(game=game).count() == game.version
        page = client.get(f"/replays/{game.id}/?step=3")
        assert page.status_code == 200
    listing = client.get("/replays/").content.decode()
    assert all(str(g.id) in listing for g in games)
    # --if-empty leaves a database with finished games alone
    call_command("demo", "--if-empty")
    assert Game.objects.count() == 2
    assert "no demo games created" in capsys.readouterr().out

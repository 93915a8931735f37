"""The OpenAPI schema validates without warnings; the admin shows games and events read-only."""

from __future__ import annotations

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_schema_validates_without_warnings(tmp_path):
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    text = out.read_text()
    for path in (
        "/api/auth/register/",
        "/api/auth/token/",
        "/api/rulesets/",
        "/api/games/",
        "/api/games/{game_id}/",
        "/api/games/{game_id}/join/",
        "/api/games/{game_id}/actions/",
        "/api/games/{game_id}/events/",
        "/api/games/{game_id}/replay/",
    ):
        assert f"  {path}:" in text, path
    # Event types are documented; every action type has its request component.
    assert "turn_timed_out" in text
    for name in ("LookAction", "ThrowAction", "PlayAction", "EndAction"):
        assert name in text
    assert "Idempotency-Key" in text


@pytest.fixture
def staff(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "secret-pw")
    client.force_login(admin)
    return client


def test_admin_lists_games_and_events(staff, skipbo_game):
    assert staff.get("/admin/games/game/").status_code == 200
    page = staff.get(f"/admin/games/game/{skipbo_game.id}/change/")
    assert page.status_code == 200
    assert b"u1" in page.content  # the seat inline
    assert staff.get("/admin/games/event/").status_code == 200
    event = skipbo_game.events.first()
    assert staff.get(f"/admin/games/event/{event.id}/change/").status_code == 200


def test_admin_cannot_add_change_or_delete_events(staff, skipbo_game):
    event = skipbo_game.events.first()
    assert staff.get("/admin/games/event/add/").status_code == 403
    assert staff.get(f"/admin/games/event/{event.id}/delete/").status_code == 403
    staff.post(f"/admin/games/event/{event.id}/change/", {"type": "forged"})
    event.refresh_from_db()
    assert event.type == "game_created"
    assert staff.get("/admin/games/game/add/").status_code == 403


def test_admin_rebuild_action(staff, skipbo_game):
    from games.models import Game

    Game.objects.filter(pk=skipbo_game.id).update(version=0)
    response = staff.post(
        "/admin/games/game/",
        {"action": "rebuild_projection", "_selected_action": [str(skipbo_game.id)]},
    )
    assert response.status_code == 302
    assert Game.objects.get(pk=skipbo_game.id).version == skipbo_game.version

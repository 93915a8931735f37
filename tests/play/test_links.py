"""Notification e-mails link to the table, and the game-over mail to the replay."""

from __future__ import annotations

from games.notifications.mail import email_text


def test_mail_links(settings):
    settings.PABLO_SITE_URL = "https://cards.example.org"
    body = {"game_id": "g-1", "ruleset": "cabo", "seat": 1, "event": "your_turn", "deadline": "x"}
    _subject, text = email_text(body)
    assert "https://cards.example.org/play/g-1/" in text
    _subject, text = email_text({**body, "event": "turn_reminder"})
    assert "https://cards.example.org/play/g-1/" in text
    over = {**body, "event": "game_finished", "result": {"winners": [1], "losers": []}}
    _subject, text = email_text(over)
    assert "https://cards.example.org/replays/g-1/" in text and "/play/" not in text

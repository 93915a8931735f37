"""The e-mail of a notification: its subject and plain text, and sending it."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.mail import send_mail

YOUR_TURN = "your_turn"
TURN_REMINDER = "turn_reminder"
GAME_FINISHED = "game_finished"
GAME_ABORTED = "game_aborted"
KINDS = (YOUR_TURN, TURN_REMINDER, GAME_FINISHED, GAME_ABORTED)


def deliver_email(to: str, subject: str, text: str) -> None:
    send_mail(subject, text, settings.DEFAULT_FROM_EMAIL, [to], fail_silently=False)


def email_text(body: dict[str, Any]) -> tuple[str, str]:
    """Subject and plain text of the e-mail for a notification ``body``."""
    game = body["game_id"]
    ruleset = body["ruleset"]
    where = f"{ruleset} game {game} (seat {body['seat']})"
    deadline = body.get("deadline")
    kind = body["event"]
    # Links: the table (/play/{id}/) to act, the replay (/replays/{id}/) once it is over.
    site = str(getattr(settings, "PABLO_SITE_URL", "http://localhost:8000")).rstrip("/")
    table, replay = f"{site}/play/{game}/", f"{site}/replays/{game}/"
    if kind == YOUR_TURN:
        return (
            f"Your turn in {ruleset}",
            f"It is your turn in {where}.\nPlay before {deadline} (UTC); after that the "
            f"server plays for you.\nYour seat: {table}\n",
        )
    if kind == TURN_REMINDER:
        return (
            f"Reminder: your turn in {ruleset} ends soon",
            f"Most of your time for this turn in {where} has passed.\nPlay before "
            f"{deadline} (UTC); after that the server plays for you.\nYour seat: {table}\n",
        )
    if kind == GAME_ABORTED:
        return (
            f"{ruleset} game aborted",
            f"The {where} was aborted: every player was absent.\nReplay: {replay}\n",
        )
    result = body.get("result") or {}
    seat = body["seat"]
    verdict = "You won." if seat in result.get("winners", []) else "You did not win this time."
    return (f"{ruleset} game over", f"The {where} is over. {verdict}\nReplay: {replay}\n")

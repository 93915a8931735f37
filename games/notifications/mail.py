"""The e-mail of a notification: its subject and plain text, and sending it."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import rules

YOUR_TURN = "your_turn"
TURN_REMINDER = "turn_reminder"
GAME_FINISHED = "game_finished"
GAME_ABORTED = "game_aborted"
KINDS = (YOUR_TURN, TURN_REMINDER, GAME_FINISHED, GAME_ABORTED)


def deliver_email(to: str, subject: str, text: str) -> None:
    send_mail(subject, text, settings.DEFAULT_FROM_EMAIL, [to], fail_silently=False)


def language_of(user: Any) -> str:
    """The language a user's mails speak: the one they chose, else the site's default."""
    chosen = getattr(user, "language", None)  # AccountLanguage, or None without a row
    return chosen.code if chosen is not None else settings.LANGUAGE_CODE


def email_text(body: dict[str, Any], language: str | None = None) -> tuple[str, str]:
    """Subject and plain text of the e-mail for a notification ``body``, in ``language``."""
    with translation.override(language or settings.LANGUAGE_CODE):
        return _email_text(body)


def _email_text(body: dict[str, Any]) -> tuple[str, str]:
    game = body["game_id"]
    ruleset = _(rules.get_ruleset(body["ruleset"]).name)  # its local name (tabletop.layouts)
    where = _("%(ruleset)s game %(game)s (seat %(seat)s)") % {
        "ruleset": ruleset,
        "game": game,
        "seat": body["seat"],
    }
    deadline = body.get("deadline")
    kind = body["event"]
    # Links: the table (/play/{id}/) to act, the replay (/replays/{id}/) once it is over.
    site = str(getattr(settings, "PABLO_SITE_URL", "http://localhost:8000")).rstrip("/")
    table, replay = f"{site}/play/{game}/", f"{site}/replays/{game}/"
    words = {"ruleset": ruleset, "where": where, "deadline": deadline, "table": table}
    words["replay"] = replay
    if kind == YOUR_TURN:
        return (
            _("Your turn in %(ruleset)s") % words,
            _(
                "It is your turn in %(where)s.\nPlay before %(deadline)s (UTC); after that the "
                "server plays for you.\nYour seat: %(table)s\n"
            )
            % words,
        )
    if kind == TURN_REMINDER:
        return (
            _("Reminder: your turn in %(ruleset)s ends soon") % words,
            _(
                "Most of your time for this turn in %(where)s has passed.\nPlay before "
                "%(deadline)s (UTC); after that the server plays for you.\nYour seat: %(table)s\n"
            )
            % words,
        )
    if kind == "rematch":
        return (
            _("Rematch in %(ruleset)s") % words,
            _("%(by)s offers a rematch of your %(ruleset)s game.\nThe new table: %(table)s\n")
            % {**words, "by": body.get("by", "")},
        )
    if kind == "seat_taken":
        return (
            _("A seat was taken in %(ruleset)s") % words,
            _("%(by)s joined your %(where)s.\nThe table: %(table)s\n")
            % {**words, "by": body.get("by", "")},
        )
    if kind == GAME_ABORTED:
        return (
            _("%(ruleset)s game aborted") % words,
            _("The %(where)s was aborted: every player was absent.\nReplay: %(replay)s\n") % words,
        )
    result = body.get("result") or {}
    if body["seat"] in result.get("winners", []):
        text = _("The %(where)s is over. You won.\nReplay: %(replay)s\n")
    else:
        text = _("The %(where)s is over. You did not win this time.\nReplay: %(replay)s\n")
    return _("%(ruleset)s game over") % words, text % words


def digest_text(games: list[dict[str, Any]], language: str | None = None) -> tuple[str, str]:
    """Subject and text of the "your turn" digest: every game waiting for the player
    (``[{"game", "ruleset", "deadline"}]``, soonest deadline first), in ``language``."""
    with translation.override(language or settings.LANGUAGE_CODE):
        site = str(getattr(settings, "PABLO_SITE_URL", "http://localhost:8000")).rstrip("/")
        lines = []
        for g in games:
            words = {
                "ruleset": _(rules.get_ruleset(g["ruleset"]).name),
                "table": f"{site}/play/{g['game']}/",
                "deadline": g.get("deadline") or "-",
            }
            lines.append(_("- %(ruleset)s, play before %(deadline)s (UTC): %(table)s") % words)
        subject = ngettext(
            "Your turn in %(count)s game", "Your turn in %(count)s games", len(games)
        ) % {"count": len(games)}
        head = ngettext(
            "This game is waiting for you:", "These games are waiting for you:", len(games)
        )
        tail = _("At most one such mail an hour: the games that wait meanwhile come in the next.")
        return subject, "\n".join([head, *lines, "", tail, ""])

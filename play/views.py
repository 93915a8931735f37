"""The web table's pages: thin views over ``games.services`` and ``games.selectors``.

Every write goes through the same services as the REST API, after the same
input checks (the API's serializers), and every refusal is shown on the page
as the API's ``detail`` sentence: a form never yields a 500 or a stack trace.
Without JavaScript each action is a small form (POST, then a redirect back to
the table: POST-redirect-GET); with it, ``static/play/play.js`` posts the
same action bodies to the REST API with the session and a CSRF header.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST
from rest_framework.exceptions import ValidationError

from games.api import shares
from games.api.exceptions import exception_handler, status_of
from games.api.serializers import GameCreateInputSerializer, parse_action
from games.api.throttling import ActionLimit, check_web_auth, game_created, signing_up
from games.errors import ApplicationError, not_a_player, sentence
from games.friends import CANCELLED
from games.rules import RulesError
from games.selectors import accounts as account_selectors
from games.selectors import games as game_selectors
from games.services import accounts as account_services
from games.services import friends as friend_services
from games.services import games as game_services
from tabletop.durations import human_seconds

from . import history, lobby, reveal, table
from .action_form import ActionForm
from .recent import acted_since_round_end, recent_events

#: Events described under the table ("the last events in plain words").
RECENT_EVENTS = 12


def refusal(exc: Exception) -> str | None:
    """The API's ``detail`` sentence for an exception the API would answer with 4xx."""
    if not isinstance(exc, RulesError | ApplicationError | ValidationError):
        return None
    response = exception_handler(exc, {})
    if response is None or not isinstance(response.data, dict):
        return None
    return str(response.data.get("detail", gettext("That was refused.")))


def _too_many_games(wait: int) -> str:
    return gettext("You have started many games lately; try again in %(wait)s s.") % {"wait": wait}


def _table_url(game_id: Any, sel: str = "") -> str:
    url = reverse("play:table", args=[game_id])
    return f"{url}?sel={sel}" if sel else url


def _game_or_404(request: HttpRequest, game_id: Any) -> Any:
    """The game, or the unknown game's 404 -- also for a private game the visitor may not
    see (not a player, no ``invite`` of it in the address or the form)."""
    invite = (request.GET.get("invite") or request.POST.get("invite") or "")[:100]
    try:
        return game_selectors.game_seen(game_id, request.user, invite)
    except ApplicationError:
        raise Http404("No game with this id.") from None


# --------------------------------------------------------------------------- accounts


View = Callable[..., HttpResponse]


def throttled(failures: bool) -> Callable[[View], View]:
    """Throttle a log-in or sign-up view like the API's auth (``games.api.throttling``).

    Every POST counts against ``PABLO_THROTTLE_AUTH`` for the client address;
    with ``failures`` (the log-in) a username that failed too often from this
    address is refused even with the right password until the wait is over
    (the failures themselves are counted by ``authenticate``'s signal). A
    refusal is a page a person can read, status 429 with ``Retry-After``.
    """

    def wrap(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "POST":
                name = request.POST.get("username") if failures else None
                wait = check_web_auth(request, name or None)
                if wait is not None:
                    return too_many(request, wait)
            response = view(request, *args, **kwargs)
            # Refused by the log-in counter at the last moment (requests sent at once).
            wait = getattr(request, "login_refused_wait", None)
            return response if wait is None else too_many(request, wait)

        return wrapped

    return wrap


def too_many(request: HttpRequest, wait: int) -> HttpResponse:
    """The 429 page of a throttled log-in or sign-up (HTML, with ``Retry-After``)."""
    response = render(
        request,
        "play/throttled.html",
        {"wait": human_seconds(wait), "seconds": wait, "next": _safe_next(request)},
        status=429,
    )
    response["Retry-After"] = str(wait)
    response["Cache-Control"] = "no-store"
    return response


@throttled(failures=False)
def signup(request: HttpRequest) -> HttpResponse:
    """Django's ``UserCreationForm``; the account is made as the API makes it."""
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        wait = signing_up(request)  # PABLO_THROTTLE_SIGNUPS, per address
        if wait is not None:
            return too_many(request, wait)
        try:
            user, _token = account_services.user_register(
                username=form.cleaned_data["username"], password=form.cleaned_data["password1"]
            )
        except ApplicationError as exc:
            form.add_error("username", sentence(exc).split(": ", 1)[-1])
        else:
            login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
            # The language the new player signed up in is the one their mails speak.
            account_services.account_language_set(user=user, code=translation.get_language())
            return HttpResponseRedirect(_safe_next(request) or reverse("play:lobby"))
    return render(request, "registration/signup.html", {"form": form})


@require_POST
def language_view(request: HttpRequest) -> HttpResponse:
    """The header's switch: the browser's cookie, and the account's language when signed in."""
    code = request.POST.get("language", "")
    back = _safe_next(request) or _safe_url(request, request.headers.get("Referer", ""))
    response = HttpResponseRedirect(back or reverse("play:lobby"))
    if code not in dict(settings.LANGUAGES):
        return response
    if request.user.is_authenticated:
        account_services.account_language_set(user=request.user, code=code)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        secure=request.is_secure(),
    )
    return response


def _safe_next(request: HttpRequest) -> str:
    return _safe_url(request, request.POST.get("next") or request.GET.get("next") or "")


def _safe_url(request: HttpRequest, target: str) -> str:
    # As Django's LoginView: on an https page, no http:// target (a downgrade).
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


@login_required
def api_token(request: HttpRequest) -> HttpResponse:
    """The user's API token (the same one ``POST /api/auth/token/`` gives).

    POST shows it (made on first use); POST with ``rotate`` replaces it, the
    old one dead at once (``services.accounts.user_token_rotate``). Never cached.
    """
    rotated = False
    if request.method == "POST" and request.POST.get("rotate"):
        account_services.user_token_rotate(user=request.user)
        rotated = True
    if request.method == "POST":
        token = account_services.user_token_issue(user=request.user)
    else:
        token = account_selectors.user_api_token(user=request.user)
    response = render(request, "play/token.html", {"token": token, "rotated": rotated})
    response["Cache-Control"] = "no-store"
    return response


def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link of an e-mail confirmation mail: GET asks, POST confirms.

    A GET changes nothing (mail scanners open links); the address becomes the
    account's only when the page's button is pressed.
    """
    try:
        user, email = account_services.email_confirm(token=token, apply=request.method == "POST")
    except ApplicationError as exc:
        return render(request, "play/refused.html", {"detail": sentence(exc)}, status=400)
    response = render(
        request,
        "play/email_confirm.html",
        {"who": user.username, "email": email, "done": request.method == "POST"},
    )
    response["Cache-Control"] = "no-store"
    return response


# --------------------------------------------------------------------------- lobby


@require_GET
def lobby_view(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "play/welcome.html", {})
    if request.GET.get("partial"):  # the lists only: the script's live update
        response = render(request, "play/_lists.html", lobby.lists(request.user))
        response["Cache-Control"] = "no-store"
        return response
    return render(request, "play/lobby.html", lobby.context(request.user))


@require_GET
@login_required
def history_view(request: HttpRequest) -> HttpResponse:
    """The signed-in player's finished games: result, rank and score, per ruleset."""
    return render(
        request, "play/history.html", history.context(request.user, request.GET.get("page"))
    )


@require_POST
@login_required
def create(request: HttpRequest) -> HttpResponse:
    """The lobby's create form: its fields, then the API's serializer and service.

    A refusal keeps the form filled in and shows the API's sentence beside the
    field it names (status 400); nothing is created.
    """
    wait = game_created(request)  # PABLO_THROTTLE_GAMES, as POST /api/games/
    if wait is not None:
        messages.error(
            request,
            _too_many_games(wait),
        )
        return HttpResponseRedirect(reverse("play:lobby") + "#new")
    form = lobby.create_form(request.POST)
    if form is None:
        messages.error(request, gettext("ruleset: pick one of the rulesets offered."))
        return HttpResponseRedirect(reverse("play:lobby") + "#new")
    if form.is_valid():
        try:
            data = GameCreateInputSerializer(data=form.body())
            data.is_valid(raise_exception=True)
            with transaction.atomic():
                game = game_services.game_create(
                    user=request.user,
                    created_from=shares.address_key(request),
                    **data.validated_data,
                )
                shares.check_game(request, game)
        except shares.Over as exc:
            form.refused(str(exc.detail))
        except (RulesError, ApplicationError, ValidationError) as exc:
            form.refused(refusal(exc) or gettext("The game could not be created."))
        else:
            return HttpResponseRedirect(_table_url(game.id))
    ctx = lobby.context(request.user, bound=form)
    return render(request, "play/lobby.html", ctx, status=400)


# --------------------------------------------------------------------------- the table


@require_GET
def table_view(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    game = _game_or_404(request, game_id)
    ctx = table_context(request, game, request.GET.get("sel", "")[:200])
    if request.GET.get("partial"):
        response = render(request, "play/_table.html", ctx)
    else:
        response = render(request, "play/table.html", ctx)
    response["Cache-Control"] = "no-store"
    return response


def table_context(request: HttpRequest, game: Any, sel: str) -> dict[str, Any]:
    data = game_selectors.game_data(game=game, user=request.user)
    invite = request.GET.get("invite", "")[:100]
    events = recent_events(game=game, seat=data["you"], count=RECENT_EVENTS)
    ctx = table.build(data, sel, events)
    since = request.GET.get("since", "")
    if since.isascii() and since.isdigit() and len(since) < 10:  # the script's refused click
        ctx["raced"] = table.raced(
            events, int(since), ctx["names"], ctx["kind"], data["you"], data["ruleset"]
        )
    ctx.update(
        game=data,
        game_id=data["id"],
        version=data["version"],
        status=data["status"],
        # UI.md: a waiting game offers "Join" to every visitor; a signed-out
        # one is sent to log in first and brought back to this table.
        # a private game offers Join only to whoever came by its invite link
        invite=invite,
        can_join=data["status"] == "waiting"
        and data["you"] is None
        and (not data.get("private") or bool(invite)),
        can_cancel=data["status"] == "waiting" and data["you"] == 0,
        invite_link=request.build_absolute_uri(
            f"{_table_url(data['id'])}?invite={quote(data['invite'])}"
        )
        if data.get("invite")
        else "",
        is_absent=any(p["you"] and p["absent"] for p in ctx["players"])
        and data["status"] == "active",
        key_prefix=f"{data['id'][:8]}-v{data['version']}",
        ruleset_name=lobby.ruleset_name(data["ruleset"]),
        waiting_for=data["seats"] - len(data["players"]),
    )
    if data["status"] == "aborted":
        ctx.update(_stopped(events, ctx["names"], data["you"]))
    state = data.get("state") or {}
    if "reveal" in state and data["status"] in ("active", "finished"):
        # the rules' reveal of the last round, until this player acts in the next one
        shown = state["reveal"]
        acted = data["you"] is not None and acted_since_round_end(game=game, seat=data["you"])
        ctx["reveal"] = reveal.build(
            None if acted else shown,
            ctx["names"],
            data["you"],
            data["ruleset"],
            ctx["kind"],
            ctx["call_word"],
            request.session.get(reveal.session_key(data["id"])),
        )
    if data["status"] == "finished" and data["you"] is not None and "rematch" in data:
        ctx["rematch"] = _rematch(data.get("rematch"), request.user)
        ctx["can_rematch"] = ctx["rematch"] is None
    return ctx


def _stopped(events: list[dict[str, Any]], names: list[str], you: int | None) -> dict[str, Any]:
    """An aborted game in words: cancelled by its creator (seat 0) before it started, or
    stopped because every player was absent."""
    aborted = next((e for e in reversed(events) if e["type"] == "game_aborted"), None)
    reason = ((aborted or {}).get("data") or {}).get("reason")
    if reason == CANCELLED:
        if you == 0:
            stopped = gettext("You cancelled this game before it started.")
        else:
            stopped = gettext("%(name)s cancelled this game before it started.") % {
                "name": names[0]
            }
        return {"cancelled": True, "stopped": stopped}
    return {
        "cancelled": False,
        "stopped": gettext("The game was stopped: every player was absent."),
    }


def _rematch(new_id: Any, user: Any) -> dict[str, Any] | None:
    """A finished game's rematch as its player sees it: where, and whether seated."""
    if not new_id:
        return None
    try:
        new = game_selectors.game_get(new_id)
    except ApplicationError:
        return None
    return {
        "id": str(new.id),
        "link": _table_url(new.id),
        "seated": game_selectors.seat_of(game=new, user=user) is not None,
    }


def _back(request: HttpRequest, game_id: Any, detail: str | None = None) -> HttpResponse:
    if detail:
        messages.error(request, detail)
    return HttpResponseRedirect(_table_url(game_id))


@require_POST
def act(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """One action from a form: the same checks and service as ``POST .../actions/``."""
    game = _game_or_404(request, game_id)
    if not request.user.is_authenticated:
        return _back(request, game.id, gettext("Log in to play: you are not signed in."))
    form = ActionForm(request.POST)
    if not form.is_valid():
        return _back(request, game.id, form.first_error())
    body = form.cleaned_data["action"]
    # PABLO_THROTTLE_ACTIONS counts a user's actions however they are sent:
    # over the limit nothing is done and the table says when to try again.
    limit = ActionLimit()
    if not limit.allow_request(request, None):
        wait = int(limit.wait() or 1)
        return _back(
            request,
            game.id,
            gettext("Too many actions at once; try again in %(wait)s seconds.") % {"wait": wait},
        )
    if form.cleaned_data["version"] is not None:
        body["expected_version"] = form.cleaned_data["version"]
    key = form.cleaned_data["key"]
    try:
        seat = game_selectors.seat_of(game=game, user=request.user)
        if seat is None:
            raise not_a_player()
        action = parse_action(body, key)
        game_services.game_act(
            game_id=game.id,
            user=request.user,
            command=action.command,
            expected_version=action.expected_version,
            idempotency_key=action.idempotency_key,
        )
    except (RulesError, ApplicationError, ValidationError) as exc:
        if getattr(exc, "code", None) == "version_conflict":
            since = form.cleaned_data["version"] or 0
            return _back(request, game.id, _raced(game, request.user, since))
        return _back(request, game.id, refusal(exc))
    return _back(request, game.id)


def _raced(game: Any, user: Any, since: int) -> str:
    """Others moved after version ``since``: what they did, in the table's words."""
    game.refresh_from_db()
    data = game_selectors.game_data(game=game, user=user)
    events = recent_events(game=game, seat=data["you"], count=RECENT_EVENTS)
    ctx = table.build(data, "", events)
    return table.raced(events, since, ctx["names"], ctx["kind"], data["you"], data["ruleset"])


@require_POST
def join(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Join a waiting game; a private one needs its invite (the form carries it from the
    invite link); without it, or with a wrong one, the answer is the API's 404."""
    game = _game_or_404(request, game_id)
    invite = request.POST.get("invite", "")[:100]
    back = _table_url(game.id) + (f"?invite={quote(invite)}" if invite else "")
    if not request.user.is_authenticated:
        return HttpResponseRedirect(f"{settings.LOGIN_URL}?next={quote(back, safe='/?=')}")
    try:
        extra = {"invite": invite} if invite else {}
        game_services.game_join(game_id=game.id, user=request.user, **extra)
    except (RulesError, ApplicationError) as exc:
        if status_of(exc) == 404:
            raise Http404("No game with this id.") from None
        messages.error(request, refusal(exc) or gettext("You could not join this game."))
        return HttpResponseRedirect(back)
    return _back(request, game.id)


@require_POST
@login_required
def cancel(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """The creator cancels their waiting game (the API's ``cancel``); back to the lobby."""
    game = _game_or_404(request, game_id)
    try:
        friend_services.game_cancel(game_id=game.id, user=request.user)
    except (RulesError, ApplicationError) as exc:
        if status_of(exc) == 404:  # a stranger on a private game: as an unknown id
            raise Http404("No game with this id.") from None
        return _back(request, game.id, refusal(exc))
    messages.info(request, gettext("You cancelled your game: nobody can join it any more."))
    return HttpResponseRedirect(reverse("play:lobby"))


@require_POST
@login_required
def rematch(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Start (or find) the rematch of a finished game: to the new table, seated."""
    game = _game_or_404(request, game_id)
    wait = game_created(request)  # PABLO_THROTTLE_GAMES: a rematch creates a game too
    if wait is not None:
        return _back(
            request,
            game.id,
            _too_many_games(wait),
        )
    try:
        with transaction.atomic():
            new, created = friend_services.game_rematch(
                game_id=game.id, user=request.user, created_from=shares.address_key(request)
            )
            if created:
                shares.check_game(request, new)
    except shares.Over as exc:
        return _back(request, game.id, str(exc.detail))
    except (RulesError, ApplicationError) as exc:
        if status_of(exc) == 404:  # a stranger on a private game: as an unknown id
            raise Http404("No game with this id.") from None
        return _back(request, game.id, refusal(exc))
    if game_selectors.seat_of(game=new, user=request.user) is None:
        # the rematch exists (another player started it): join it with its invite
        try:
            game_services.game_join(game_id=new.id, user=request.user, invite=new.invite)
        except (RulesError, ApplicationError) as exc:
            return _back(request, new.id, refusal(exc))
    return HttpResponseRedirect(_table_url(new.id))


@require_POST
def come_back(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    game = _game_or_404(request, game_id)
    if not request.user.is_authenticated:
        return _back(request, game.id, gettext("Log in to play: you are not signed in."))
    try:
        game_services.game_come_back(game_id=game.id, user=request.user)
    except (RulesError, ApplicationError) as exc:
        return _back(request, game.id, refusal(exc))
    return _back(request, game.id)


@require_POST
def close_reveal(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Close the round's reveal on this browser's table (remembered in the session)."""
    game = _game_or_404(request, game_id)
    number = request.POST.get("round", "")
    if number.isascii() and number.isdigit() and len(number) < 6:
        request.session[reveal.session_key(game.id)] = int(number)
    if request.headers.get("X-Requested-With") == "fetch":
        return HttpResponse(status=204)
    return _back(request, game.id)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form without a valid CSRF token: nothing is done; on a table, say so there."""
    parts = request.path.strip("/").split("/")
    detail = gettext(
        "This form had expired or did not come from this site (no valid CSRF token); "
        "nothing was done. Here is the table as it is now."
    )
    if len(parts) >= 2 and parts[0] == "play":
        # Only a game this visitor may see: a private one is an unknown id to a stranger
        # (a redirect there would tell a cross-site form that the id exists); whoever
        # came by its invite link goes back to the table with it.
        invite = (request.GET.get("invite") or request.POST.get("invite") or "")[:100]
        try:
            game = game_selectors.game_seen(parts[1], request.user, invite)
        except ApplicationError:
            game = None
        if game is not None:
            messages.error(request, detail)
            back = _table_url(game.id)
            if (
                invite
                and game.private
                and game_selectors.seat_of(game=game, user=request.user) is None
            ):
                back += f"?invite={quote(invite)}"
            return HttpResponseRedirect(back)
    response = render(request, "play/refused.html", {"detail": detail}, status=403)
    return response

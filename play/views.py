"""The web table's pages: thin views over ``games.services`` and ``games.selectors``.

Every write goes through the same services as the REST API, after the same
input checks (the API's serializers), and every refusal is shown on the page
as the API's ``detail`` sentence: a form never yields a 500 or a stack trace.
Without JavaScript each action is a small form (POST, then a redirect back to
the table: POST-redirect-GET); with it, ``static/play/play.js`` posts the
same action bodies to the REST API with the session and a CSRF header.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST
from rest_framework.exceptions import ValidationError

from games import selectors, services
from games.api.serializers import GameCreateInputSerializer, parse_action
from games.errors import ApplicationError, not_a_player
from games.rules import RulesError
from pablo.exceptions import exception_handler
from pablo.throttling import ActionLimit, check_web_auth

from . import lobby, table
from .durations import human_seconds
from .recent import recent_events

#: Events described under the table ("the last events in plain words").
RECENT_EVENTS = 12


def refusal(exc: Exception) -> str | None:
    """The API's ``detail`` sentence for an exception the API would answer with 4xx."""
    if not isinstance(exc, RulesError | ApplicationError | ValidationError):
        return None
    response = exception_handler(exc, {})
    if response is None or not isinstance(response.data, dict):
        return None
    return str(response.data.get("detail", "That was refused."))


def _table_url(game_id: Any, sel: str = "") -> str:
    url = reverse("play:table", args=[game_id])
    return f"{url}?sel={sel}" if sel else url


def _game_or_404(game_id: Any) -> Any:
    try:
        return selectors.game_get(game_id)
    except ApplicationError:
        raise Http404("No game with this id.") from None


# --------------------------------------------------------------------------- accounts


View = Callable[..., HttpResponse]


def throttled(failures: bool) -> Callable[[View], View]:
    """Throttle a log-in or sign-up view like the API's auth (``pablo.throttling``).

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
            return view(request, *args, **kwargs)

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
        try:
            user, _token = services.user_register(
                username=form.cleaned_data["username"], password=form.cleaned_data["password1"]
            )
        except ApplicationError as exc:
            form.add_error("username", exc.detail.split(": ", 1)[-1])
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return HttpResponseRedirect(_safe_next(request) or reverse("play:lobby"))
    return render(request, "registration/signup.html", {"form": form})


def _safe_next(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return ""


@login_required
def api_token(request: HttpRequest) -> HttpResponse:
    """The user's API token (the same one ``POST /api/auth/token/`` gives)."""
    if request.method == "POST":
        token = services.user_token_issue(user=request.user)
    else:
        token = selectors.user_api_token(user=request.user)
    return render(request, "play/token.html", {"token": token})


# --------------------------------------------------------------------------- lobby


@require_GET
def lobby_view(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return render(request, "play/welcome.html", {})
    return render(request, "play/lobby.html", lobby.context(request.user))


@require_POST
@login_required
def create(request: HttpRequest) -> HttpResponse:
    try:
        body = lobby.create_body(request.POST)
        data = GameCreateInputSerializer(data=body)
        data.is_valid(raise_exception=True)
        game = services.game_create(user=request.user, **data.validated_data)
    except (RulesError, ApplicationError, ValidationError) as exc:
        messages.error(request, refusal(exc) or "The game could not be created.")
        return HttpResponseRedirect(reverse("play:lobby") + "#new")
    return HttpResponseRedirect(_table_url(game.id))


# --------------------------------------------------------------------------- the table


@require_GET
def table_view(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    game = _game_or_404(game_id)
    ctx = table_context(request, game, request.GET.get("sel", "")[:200])
    if request.GET.get("partial"):
        response = render(request, "play/_table.html", ctx)
    else:
        response = render(request, "play/table.html", ctx)
    response["Cache-Control"] = "no-store"
    return response


def table_context(request: HttpRequest, game: Any, sel: str) -> dict[str, Any]:
    data = selectors.game_data(game=game, user=request.user)
    events = recent_events(game=game, seat=data["you"], count=RECENT_EVENTS)
    ctx = table.build(data, sel, events)
    ctx.update(
        game=data,
        game_id=data["id"],
        version=data["version"],
        status=data["status"],
        # UI.md: a waiting game offers "Join" to every visitor; a signed-out
        # one is sent to log in first and brought back to this table.
        can_join=data["status"] == "waiting" and data["you"] is None,
        is_absent=any(p["you"] and p["absent"] for p in ctx["players"])
        and data["status"] == "active",
        key_prefix=f"{data['id'][:8]}-v{data['version']}",
        ruleset_name=lobby.ruleset_name(data["ruleset"]),
        waiting_for=data["seats"] - len(data["players"]),
    )
    return ctx


def _back(request: HttpRequest, game_id: Any, detail: str | None = None) -> HttpResponse:
    if detail:
        messages.error(request, detail)
    return HttpResponseRedirect(_table_url(game_id))


@require_POST
def act(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """One action from a form: the same checks and service as ``POST .../actions/``."""
    game = _game_or_404(game_id)
    if not request.user.is_authenticated:
        return _back(request, game.id, "Log in to play: you are not signed in.")
    try:
        body = json.loads(request.POST.get("action", ""))
    except ValueError:
        return _back(request, game.id, "The body must be a JSON object naming the action's type.")
    if not isinstance(body, dict):
        return _back(request, game.id, "The body must be a JSON object naming the action's type.")
    # PABLO_THROTTLE_ACTIONS counts a user's actions however they are sent:
    # over the limit nothing is done and the table says when to try again.
    limit = ActionLimit()
    if not limit.allow_request(request, None):
        wait = int(limit.wait() or 1)
        return _back(request, game.id, f"Too many actions at once; try again in {wait} seconds.")
    version = request.POST.get("version", "")
    if version.isdigit():
        body["expected_version"] = int(version)
    key = request.POST.get("key", "")[:255] or None
    try:
        seat = selectors.seat_of(game=game, user=request.user)
        if seat is None:
            raise not_a_player()
        action = parse_action(body, key)
        services.game_act(
            game_id=game.id,
            user=request.user,
            command=action.command,
            expected_version=action.expected_version,
            idempotency_key=action.idempotency_key,
        )
    except (RulesError, ApplicationError, ValidationError) as exc:
        return _back(request, game.id, refusal(exc))
    return _back(request, game.id)


@require_POST
def join(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    game = _game_or_404(game_id)
    if not request.user.is_authenticated:
        return HttpResponseRedirect(f"{settings.LOGIN_URL}?next={_table_url(game.id)}")
    try:
        services.game_join(game_id=game.id, user=request.user)
    except (RulesError, ApplicationError) as exc:
        return _back(request, game.id, refusal(exc))
    return _back(request, game.id)


@require_POST
def come_back(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    game = _game_or_404(game_id)
    if not request.user.is_authenticated:
        return _back(request, game.id, "Log in to play: you are not signed in.")
    try:
        services.game_come_back(game_id=game.id, user=request.user)
    except (RulesError, ApplicationError) as exc:
        return _back(request, game.id, refusal(exc))
    return _back(request, game.id)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form without a valid CSRF token: nothing is done; on a table, say so there."""
    parts = request.path.strip("/").split("/")
    detail = (
        "This form had expired or did not come from this site (no valid CSRF token); "
        "nothing was done. Here is the table as it is now."
    )
    if len(parts) >= 2 and parts[0] == "play":
        try:
            game = selectors.game_get(parts[1])
        except ApplicationError:
            game = None
        if game is not None:
            messages.error(request, detail)
            return HttpResponseRedirect(_table_url(game.id))
    response = render(request, "play/refused.html", {"detail": detail}, status=403)
    return response

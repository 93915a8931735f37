"""``/api/me/``: a user's notification channels (thin DRF views; docs/deadlines.md).

* ``GET``/``PATCH /api/me/notifications/``: the e-mail address and which
  channels are on (``email_enabled``, ``webhook_enabled``). A new address is
  only mailed a confirmation link (``email_pending`` in the answer); it
  becomes the address when the link is confirmed (``/accounts/email/<token>/``).
* ``PUT /api/me/webhook/`` ``{"url"}``: register the webhook; the answer shows
  a fresh signing secret -- the only time it is ever shown. Registering again
  (even the same URL) replaces the secret. ``GET`` shows the URL without the
  secret; ``DELETE`` removes it.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import NotificationSettings
from games.selectors import notifications as notification_selectors
from games.services import notifications as notification_services
from games.tokens import CachedTokenAuthentication

from .schema import ErrorSerializer
from .throttling import RateLimitHeaders

WEBHOOK_DESCRIPTION = """\
Registers the URL that receives a POST for your turns, reminders (80 % of the
turn's time gone) and game ends. The body is JSON:
`{"delivery", "event": "your_turn" | "turn_reminder" | "game_finished" | "game_aborted",
"game_id", "ruleset", "seat", "deadline", "version"}` (plus `result` when a game ends).
Header `X-Pablo-Signature: sha256=<hex>` is HMAC-SHA256 of the exact body bytes
under the secret in this answer -- shown only now; registering again issues a
new one. A 5xx, 429, timeout or connection error is retried with exponential
backoff; the same `delivery` id may arrive more than once.
"""


def _errors(*statuses: int) -> dict[int, OpenApiResponse]:
    text = {400: "Malformed request; the detail names the field.", 401: "No valid token."}
    return {s: OpenApiResponse(ErrorSerializer, description=text[s]) for s in statuses}


class NotificationSettingsSerializer(serializers.Serializer):
    email = serializers.EmailField(
        allow_blank=True,
        required=False,
        help_text="Where e-mail goes (a confirmed address); blank: no e-mail. A new address "
        "gets one mail with a confirmation link and becomes this address once confirmed; "
        "nothing else is sent to it before.",
    )
    email_pending = serializers.EmailField(
        read_only=True,
        required=False,
        help_text="Only in the answer to a PATCH that gave a new address: the address a "
        "confirmation link was mailed to.",
    )
    email_enabled = serializers.BooleanField(required=False)
    webhook_enabled = serializers.BooleanField(required=False)
    webhook_url = serializers.URLField(
        read_only=True, allow_null=True, help_text="Set with PUT /api/me/webhook/."
    )


class NotificationSettingsOutSerializer(NotificationSettingsSerializer):
    """The answer (schema only): ``email_pending`` appears only after a new address."""

    email_pending = serializers.EmailField(
        required=False,
        help_text="Only in the answer to a PATCH that gave a new address: the address a "
        "confirmation link was mailed to.",
    )


class WebhookInSerializer(serializers.Serializer):
    url = serializers.URLField(max_length=500, help_text="http(s) URL that receives the POSTs.")

    def validate_url(self, value: str) -> str:
        if not value.lower().startswith(("http://", "https://")):
            raise serializers.ValidationError("must be an http or https URL.")
        return value


class WebhookOutSerializer(serializers.Serializer):
    url = serializers.URLField(allow_null=True)
    enabled = serializers.BooleanField()


class WebhookSecretSerializer(WebhookOutSerializer):
    secret = serializers.CharField(
        help_text="HMAC-SHA256 key of the X-Pablo-Signature header. Shown only now."
    )


def _settings_data(user: Any, prefs: NotificationSettings) -> dict[str, Any]:
    return {
        "email": user.email,
        "email_enabled": prefs.email_enabled,
        "webhook_enabled": prefs.webhook_enabled,
        "webhook_url": prefs.webhook_url or None,
    }


class NotificationSettingsApi(RateLimitHeaders, APIView):
    authentication_classes = [CachedTokenAuthentication]

    @extend_schema(
        operation_id="me_notifications_retrieve",
        responses={200: NotificationSettingsOutSerializer, **_errors(401)},
        summary="Your notification channels",
    )
    def get(self, request: Request) -> Response:
        prefs = notification_selectors.notification_settings(user=request.user)
        return Response(_settings_data(request.user, prefs))

    @extend_schema(
        operation_id="me_notifications_update",
        request=NotificationSettingsSerializer,
        responses={200: NotificationSettingsOutSerializer, **_errors(400, 401)},
        summary="Change your e-mail address or turn channels on and off",
    )
    def patch(self, request: Request) -> Response:
        given = NotificationSettingsSerializer(data=request.data, partial=True)
        given.is_valid(raise_exception=True)
        email = given.validated_data.get("email")
        pending = email if email and email != request.user.email else None
        prefs = notification_services.notification_settings_update(
            user=request.user, **given.validated_data
        )
        answer = _settings_data(request.user, prefs)
        if pending:
            answer["email_pending"] = pending  # mailed a confirmation link; not used before
        return Response(answer)


class WebhookApi(APIView):
    authentication_classes = [CachedTokenAuthentication]

    @extend_schema(
        operation_id="me_webhook_retrieve",
        responses={200: WebhookOutSerializer, **_errors(401)},
        summary="Your webhook (without its secret)",
    )
    def get(self, request: Request) -> Response:
        prefs = notification_selectors.notification_settings(user=request.user)
        return Response({"url": prefs.webhook_url or None, "enabled": prefs.webhook_enabled})

    @extend_schema(
        operation_id="me_webhook_update",
        request=WebhookInSerializer,
        responses={200: WebhookSecretSerializer, **_errors(400, 401)},
        summary="Register your webhook; the answer shows its new secret once",
        description=WEBHOOK_DESCRIPTION,
    )
    def put(self, request: Request) -> Response:
        given = WebhookInSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        prefs = notification_services.webhook_register(
            user=request.user, url=given.validated_data["url"]
        )
        return Response(
            {
                "url": prefs.webhook_url,
                "enabled": prefs.webhook_enabled,
                "secret": prefs.webhook_secret,
            }
        )

    @extend_schema(
        operation_id="me_webhook_destroy",
        request=None,
        responses={204: None, **_errors(401)},
        summary="Remove your webhook",
    )
    def delete(self, request: Request) -> Response:
        notification_services.webhook_remove(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

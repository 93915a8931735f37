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

import re
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import NotificationSettings, PushSubscription
from games.notifications import prefs as notification_prefs
from games.notifications import push, quiet, webhooks
from games.selectors import notifications as notification_selectors
from games.services import notifications as notification_services
from games.tokens import CachedTokenAuthentication

from .schema import ErrorSerializer
from .serializers import StrictBooleanField, StrictCharField, StrictSerializer
from .throttling import RateLimitHeaders

WEBHOOK_DESCRIPTION = """\
Registers the URL that receives a POST for your turns, reminders (80 % of the
turn's time gone), game ends, rematches offered and your private games' seats taken.
The body is JSON:
`{"delivery", "event": "your_turn" | "turn_reminder" | "game_finished" | "game_aborted",
"game_id", "ruleset", "seat", "deadline", "version"}` (plus `result` when a game ends);
for `"event": "rematch"` `{"delivery", "event", "game_id" (the new game), "ruleset",
"by", "rematch_of", "version"}`, for `"seat_taken"` the same with `"seat"` (yours)
instead of `rematch_of`. Each kind has its switch (`kinds` of /api/me/notifications/).
Header `X-Pablo-Signature: sha256=<hex>` is HMAC-SHA256 of the exact body bytes
under the secret in this answer -- shown only now; registering again issues a
new one. A 5xx, 429, timeout or connection error is retried with exponential
backoff; the same `delivery` id may arrive more than once.
"""


HHMM = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"


def _errors(*statuses: int) -> dict[int, OpenApiResponse]:
    text = {
        400: "Malformed request; the detail names the field.",
        401: "No valid token.",
        404: "Not found.",
        409: "Not allowed now.",
    }
    return {s: OpenApiResponse(ErrorSerializer, description=text[s]) for s in statuses}


class QuietHoursSerializer(StrictSerializer):
    start = serializers.RegexField(
        HHMM, trim_whitespace=False, help_text="HH:MM in the player's timezone."
    )
    end = serializers.RegexField(
        HHMM, trim_whitespace=False, help_text="HH:MM in the player's timezone."
    )

    def _hhmm(self, value: str) -> str:
        # RegexField searches, and "$" also matches before a final newline: "22:00\n"
        # passed and was stored as sent. The whole string must be HH:MM.
        if not re.fullmatch(HHMM, value):
            raise serializers.ValidationError(
                serializers.RegexField.default_error_messages["invalid"]
            )
        return value

    def validate_start(self, value: str) -> str:
        return self._hhmm(value)

    def validate_end(self, value: str) -> str:
        return self._hhmm(value)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # A PATCH is partial down to this object: a window is both ends or none.
        if set(attrs) != {"start", "end"}:
            raise serializers.ValidationError(_("quiet hours need both a start and an end."))
        return attrs


class ChannelsSerializer(StrictSerializer):
    push = StrictBooleanField(required=False)
    email = StrictBooleanField(required=False)
    webhook = StrictBooleanField(required=False)


class PushWebhookSerializer(StrictSerializer):
    push = StrictBooleanField(required=False)
    webhook = StrictBooleanField(required=False)


class KindsSerializer(StrictSerializer):
    your_turn = ChannelsSerializer(required=False, help_text="A turn begins.")
    reminder = ChannelsSerializer(
        required=False, help_text="Most of the turn's time has passed (once per turn)."
    )
    game_over = ChannelsSerializer(required=False, help_text="A game ended (or was aborted).")
    rematch = ChannelsSerializer(required=False, help_text="A rematch of your game is offered.")
    seat_taken = PushWebhookSerializer(
        required=False,
        help_text="Someone joined your private game (push and webhook; never mailed: the "
        "game's start is).",
    )


class NotificationSettingsSerializer(StrictSerializer):
    email = serializers.EmailField(
        allow_blank=True,
        required=False,
        max_length=254,  # what the account's address holds (and RFC 5321's longest path)
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
    email_enabled = StrictBooleanField(required=False)
    webhook_enabled = StrictBooleanField(required=False)
    webhook_url = serializers.URLField(
        read_only=True, allow_null=True, help_text="Set with PUT /api/me/webhook/."
    )
    push_enabled = StrictBooleanField(required=False)
    timezone = StrictCharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        max_length=64,
        help_text="IANA zone name, e.g. Europe/Paris or UTC; blank in an answer: not set yet "
        "(UTC). A PATCH must name a real zone: blank, localtime, Factory, posixrules, paths "
        "and unknown names are 400.",
    )
    quiet_hours = QuietHoursSerializer(
        required=False,
        allow_null=True,
        help_text='null or {"start": "22:00", "end": "07:30"}: nothing but a reminder whose '
        "turn ends within them is pushed or mailed then; the rest goes, one per game, when "
        "they end. Webhooks are not held.",
    )
    kinds = KindsSerializer(
        required=False,
        help_text="Per kind and channel on (true, the default) or off; a PATCH changes only "
        'what it names, e.g. {"reminder": {"email": false}}; an unknown kind or channel '
        "is 400. The channel's own switch (email_enabled, ...) still turns all of it off.",
    )

    def validate_timezone(self, value: str) -> str:
        if not quiet.known_zone(value):
            raise serializers.ValidationError(
                _("%(name)s is not an IANA timezone name (such as Europe/Paris or UTC).")
                % {"name": repr(value)}
            )
        return value


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
            raise serializers.ValidationError(_("must be an http or https URL."))
        try:
            webhooks.split_destination(value)  # the filter deliveries (and Web Push) use
        except webhooks.WebhookMalformed as exc:
            raise serializers.ValidationError(
                _("is not a well-formed URL (a host, a port within 1-65535).")
            ) from exc
        if settings.PABLO_WEBHOOK_ALLOW_PRIVATE:
            return value
        try:
            # told now rather than at every delivery; a name that does not resolve yet
            # is kept (each delivery resolves and checks it again)
            webhooks.check_destination(value)
        except webhooks.WebhookRefused as exc:
            raise serializers.ValidationError(_("is not on a public address.")) from exc
        except webhooks.WebhookFailed:
            pass
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
        "push_enabled": prefs.push_enabled,
        "timezone": prefs.timezone,
        "quiet_hours": prefs.quiet_hours,
        "kinds": notification_prefs.matrix(prefs.kinds),
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
        fields = dict(given.validated_data)
        if "quiet_hours" in fields:
            hours = fields.pop("quiet_hours")
            fields["quiet_hours"] = dict(hours) if hours else None
            fields["clear_quiet_hours"] = not hours
        if "kinds" in fields:
            fields["kinds"] = {k: dict(v) for k, v in fields["kinds"].items()}
        prefs = notification_services.notification_settings_update(user=request.user, **fields)
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


class PushKeySerializer(serializers.Serializer):
    public_key = serializers.CharField(help_text="base64url of the uncompressed P-256 point.")


class PushKeysSerializer(serializers.Serializer):
    p256dh = serializers.CharField(max_length=100)
    auth = serializers.CharField(max_length=40)


class PushInSerializer(serializers.Serializer):
    endpoint = serializers.URLField(max_length=1000)
    keys = PushKeysSerializer()

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        why = push.check_keys(data["keys"]["p256dh"], data["keys"]["auth"])
        if why:
            raise serializers.ValidationError({"keys": why})
        why = push.check_endpoint(data["endpoint"])
        if why:
            raise serializers.ValidationError({"endpoint": why})
        return data


class PushOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    endpoint = serializers.URLField()
    created = serializers.DateTimeField()
    last_success = serializers.DateTimeField(allow_null=True)


def _device(row: PushSubscription) -> dict[str, Any]:
    return PushOutSerializer(row).data


class PushKeyApi(APIView):
    authentication_classes: list[Any] = []
    permission_classes: list[Any] = []

    @extend_schema(
        operation_id="push_key_retrieve",
        responses={200: PushKeySerializer, 404: OpenApiResponse(ErrorSerializer)},
        summary="The server's VAPID public key (the applicationServerKey)",
    )
    def get(self, request: Request) -> Response:
        pair = push.keys()
        if pair is None:
            body = {"code": "push_disabled", "detail": "This server sends no push notifications."}
            return Response(body, status=status.HTTP_404_NOT_FOUND)
        return Response({"public_key": pair["public_key"]})


class PushDevicesApi(APIView):
    # the pages' "Notify me on this device" calls with the session (and CSRF)
    authentication_classes = [CachedTokenAuthentication, SessionAuthentication]

    @extend_schema(
        operation_id="me_push_list",
        responses={200: PushOutSerializer(many=True), **_errors(401)},
        summary="Your devices subscribed to push",
    )
    def get(self, request: Request) -> Response:
        rows = PushSubscription.objects.filter(user=request.user).order_by("created", "pk")
        return Response([_device(row) for row in rows])

    @extend_schema(
        operation_id="me_push_create",
        request=PushInSerializer,
        responses={201: PushOutSerializer, 200: PushOutSerializer, **_errors(400, 401, 409)},
        summary="Subscribe this device (PushSubscription.toJSON()); again: its keys updated",
    )
    def post(self, request: Request) -> Response:
        given = PushInSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        row, created = notification_services.push_subscribe(
            user=request.user,
            endpoint=given.validated_data["endpoint"],
            p256dh=given.validated_data["keys"]["p256dh"],
            auth=given.validated_data["keys"]["auth"],
        )
        data = {k: v for k, v in _device(row).items() if k != "last_success"}
        return Response(data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class PushDeviceApi(APIView):
    authentication_classes = [CachedTokenAuthentication, SessionAuthentication]

    @extend_schema(
        operation_id="me_push_destroy",
        request=None,
        responses={204: None, **_errors(401, 404)},
        summary="Remove one of your devices",
    )
    def delete(self, request: Request, pk: int) -> Response:
        notification_services.push_unsubscribe(user=request.user, subscription_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)

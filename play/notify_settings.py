"""The account page's notification settings: which kinds each channel brings, the
timezone and the quiet hours (the same service as ``PATCH /api/me/notifications/``).

Without JavaScript it is a form (POST, then back to the account page); with it,
``static/play/notify-settings.js`` also sends the browser's timezone once when the
account has none (``timezone_only``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from games.notifications import prefs as notification_prefs
from games.notifications import quiet as notification_quiet
from games.selectors import notifications as notification_selectors
from games.services import notifications as notification_services

KIND_LABELS = {
    "your_turn": gettext_lazy("Your turn"),
    "reminder": gettext_lazy("Your time is running out"),
    "game_over": gettext_lazy("Game over"),
    "rematch": gettext_lazy("A rematch is offered"),
    "seat_taken": gettext_lazy("Someone joined your private game"),
}
CHANNEL_LABELS = {
    "push": gettext_lazy("Push (your devices)"),
    "email": gettext_lazy("E-mail"),
    "webhook": gettext_lazy("Webhook"),
}


def _field(kind: str, channel: str) -> str:
    return f"{kind}__{channel}"


class NotificationSettingsForm(forms.Form):
    timezone = forms.CharField(
        required=False, max_length=64, label=gettext_lazy("Your timezone (e.g. Europe/Paris)")
    )
    quiet_start = forms.TimeField(
        required=False,
        label=gettext_lazy("Quiet from"),
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
    quiet_end = forms.TimeField(
        required=False,
        label=gettext_lazy("until"),
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for kind in notification_prefs.KINDS:
            for channel in notification_prefs.CHANNELS_OF[kind]:
                self.fields[_field(kind, channel)] = forms.BooleanField(
                    required=False,
                    # Translators: a switch's name: the kind of notification, then the
                    # channel ("Your turn: E-mail")
                    label=gettext("%(kind)s: %(channel)s")
                    % {"kind": KIND_LABELS[kind], "channel": CHANNEL_LABELS[channel]},
                )

    def clean_timezone(self) -> str:
        value = str(self.cleaned_data.get("timezone") or "").strip()
        if value and not notification_quiet.known_zone(value):
            raise forms.ValidationError(gettext("This is not a timezone name we know."))
        return value

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if bool(data.get("quiet_start")) != bool(data.get("quiet_end")):
            raise forms.ValidationError(gettext("Give both ends of the quiet hours, or neither."))
        return data

    def rows(self) -> list[dict[str, Any]]:
        """The switches as a table: a row per kind, a cell per channel (None: that channel
        does not carry the kind)."""
        return [
            {
                "label": KIND_LABELS[kind],
                "cells": [
                    self[_field(kind, channel)]
                    if channel in notification_prefs.CHANNELS_OF[kind]
                    else None
                    for channel in notification_prefs.CHANNELS
                ],
            }
            for kind in notification_prefs.KINDS
        ]

    @staticmethod
    def channels() -> list[Any]:
        return [CHANNEL_LABELS[c] for c in notification_prefs.CHANNELS]


def initial(user: Any) -> dict[str, Any]:
    prefs = notification_selectors.notification_settings(user=user)
    data: dict[str, Any] = {"timezone": prefs.timezone}
    if prefs.quiet_hours:
        data["quiet_start"] = prefs.quiet_hours["start"]
        data["quiet_end"] = prefs.quiet_hours["end"]
    for kind, channels in notification_prefs.matrix(prefs.kinds).items():
        for channel, on in channels.items():
            data[_field(kind, channel)] = on
    return data


def form_for(user: Any) -> NotificationSettingsForm:
    return NotificationSettingsForm(initial=initial(user))


@require_POST
@login_required
def notification_settings_view(request: HttpRequest) -> HttpResponse:
    """Save the form (or, ``timezone_only``, the browser's timezone when none is set)."""
    back = reverse("play:token") + "#notifications"
    if request.POST.get("timezone_only"):
        tz = request.POST.get("timezone", "")
        prefs = notification_selectors.notification_settings(user=request.user)
        if not prefs.timezone and notification_quiet.known_zone(tz):
            notification_services.notification_settings_update(user=request.user, timezone=tz)
        return HttpResponse(status=204)
    form = NotificationSettingsForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return HttpResponseRedirect(back)
    data = form.cleaned_data
    hours = None
    if data.get("quiet_start") and data.get("quiet_end"):
        hours = {
            "start": data["quiet_start"].strftime("%H:%M"),
            "end": data["quiet_end"].strftime("%H:%M"),
        }
    kinds = {
        kind: {c: bool(data.get(_field(kind, c))) for c in notification_prefs.CHANNELS_OF[kind]}
        for kind in notification_prefs.KINDS
    }
    notification_services.notification_settings_update(
        user=request.user,
        timezone=data["timezone"],
        quiet_hours=hours,
        clear_quiet_hours=hours is None,
        kinds=kinds,
    )
    messages.success(request, gettext("Your notification settings are saved."))
    return HttpResponseRedirect(back)

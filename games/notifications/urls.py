"""Routes under /api/me/: the user's notification channels."""

from django.urls import path

from .api import NotificationSettingsApi, WebhookApi

urlpatterns = [
    path("notifications/", NotificationSettingsApi.as_view(), name="me-notifications"),
    path("webhook/", WebhookApi.as_view(), name="me-webhook"),
]

"""URL configuration: the REST API under /api/, the replay viewer under /replays/,
the web table (lobby, accounts, tables) at / (play.urls)."""

from django.contrib import admin
from django.urls import include, path, re_path
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView

from games.api import reference
from games.api.notifications import (
    NotificationSettingsApi,
    PushDeviceApi,
    PushDevicesApi,
    PushKeyApi,
    WebhookApi,
)
from games.api.throttling import throttle_web_auth
from games.followers.health import ready
from pablo.exceptions import not_found_view
from play.accounts import AdminLoginForm
from replays import players

# The admin's log-in counts and refuses like every other log-in (games/api/throttling.py).
admin.site.login_form = AdminLoginForm

urlpatterns = [
    path("", include("play.urls")),
    path("admin/login/", throttle_web_auth(admin.site.login)),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", reference.docs_page, name="docs"),  # the schema as a page of the site
    path("api/", include("games.api.urls")),
    path("api/me/notifications/", NotificationSettingsApi.as_view(), name="me-notifications"),
    path("api/me/webhook/", WebhookApi.as_view(), name="me-webhook"),
    path("api/push/key/", PushKeyApi.as_view(), name="push-key"),
    path("api/me/push/", PushDevicesApi.as_view(), name="me-push"),
    path("api/me/push/<int:pk>/", PushDeviceApi.as_view(), name="me-push-device"),
    path("replays/", include("replays.urls")),
    path("ratings/", players.leaderboards, name="ratings"),
    path("players/<str:username>/", players.player, name="player"),
    path("health/ready", ready, name="health-ready"),
    # play.js's sentences in the page's language (docs/table.md "Languages")
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["play"]), name="javascript-catalog"),
    # Any other /api/ path ending in "/" is a JSON 404 (API.md error shape).
    # ([\s\S], not the flag (?s): a flag makes every reverse() of the site fail)
    re_path(r"^api/(?:[\s\S]*/)?$", not_found_view),  # an id with a newline too
]

handler400 = "pablo.exceptions.bad_request_view"
handler500 = "pablo.exceptions.server_error_view"

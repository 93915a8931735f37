"""The web table's paths (binding: /, /accounts/..., /play/{id}/)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from . import pwa, views
from .accounts import LoginForm
from .notify_settings import notification_settings_view

app_name = "play"

urlpatterns = [
    path("", views.lobby_view, name="lobby"),
    path("accounts/signup/", views.signup, name="signup"),
    path(
        "accounts/login/",
        views.throttled(failures=True)(auth_views.LoginView.as_view(authentication_form=LoginForm)),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/language/", views.language_view, name="language"),
    path("accounts/token/", views.api_token, name="token"),
    path("accounts/email/<str:token>/", views.email_confirm, name="email_confirm"),
    path("accounts/devices/<int:pk>/remove/", pwa.device_remove, name="device_remove"),
    # the installable app, from the root: the worker's scope is the whole site
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/", pwa.offline, name="offline"),
    path(
        "accounts/notifications/",
        notification_settings_view,
        name="notification_settings",
    ),
    path("history/", views.history_view, name="history"),
    path("play/new/", views.create, name="create"),
    path("play/<uuid:game_id>/", views.table_view, name="table"),
    path("play/<uuid:game_id>/act/", views.act, name="act"),
    path("play/<uuid:game_id>/join/", views.join, name="join"),
    path("play/<uuid:game_id>/come-back/", views.come_back, name="come_back"),
    path("play/<uuid:game_id>/cancel/", views.cancel, name="cancel"),
    path("play/<uuid:game_id>/rematch/", views.rematch, name="rematch"),
    path("play/<uuid:game_id>/close-reveal/", views.close_reveal, name="close_reveal"),
]

"""Admin: games (with their seats) to look at, events strictly read-only.

Everything on a game is either its header or a projection of its events, so
the admin edits nothing: it shows, filters and searches, and offers one
action, rebuilding the projection from the events. Events cannot be added,
changed or deleted (the database refuses the last two anyway).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest

from games.models import Event, Game, Seat
from games.selectors import accounts as account_selectors
from games.services import games as game_services

# --------------------------------------------------------------------------- accounts
# The admin names accounts by the API's rules (docs/api.md "Registration"): the
# same refusals as POST /api/auth/register/, as a form error beside the field.


class AccountCreationForm(AdminUserCreationForm):
    def clean_username(self) -> str | None:
        name = super().clean_username()  # None when Django's own check refused it
        refusal = name and account_selectors.username_refusal(name)
        if refusal:
            raise ValidationError(refusal, code="invalid_username")
        return name


class AccountChangeForm(UserChangeForm):
    def clean_username(self) -> str:
        name = self.cleaned_data["username"]
        refusal = account_selectors.username_refusal(name, exclude=self.instance.pk)
        if refusal:
            raise ValidationError(refusal, code="invalid_username")
        return name


class AccountAdmin(UserAdmin):
    add_form = AccountCreationForm
    form = AccountChangeForm


if admin.site.is_registered(get_user_model()):
    admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), AccountAdmin)


class ReadOnlyMixin:
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ReadOnlyMixin, admin.TabularInline):
    model = Seat
    fields = ("seat", "user")
    readonly_fields = ("seat", "user")
    extra = 0


@admin.register(Game)
class GameAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "ruleset", "status", "seats", "version", "deadline", "created_at")
    list_filter = ("status", "ruleset")
    search_fields = ("id", "seat_set__user__username")
    date_hierarchy = "created_at"
    inlines = [SeatInline]
    actions = ["rebuild_projection"]

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    @admin.action(description="Rebuild the projection from the events")
    def rebuild_projection(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        for game in queryset:
            game_services.game_rebuild_projection(game_id=game.id)
        self.message_user(request, f"Rebuilt {queryset.count()} game(s).", messages.SUCCESS)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        # The action changes nothing but the projection; offer it to superusers.
        actions = super().get_actions(request)
        if not request.user.is_superuser:
            actions.pop("rebuild_projection", None)
        return actions


@admin.register(Event)
class EventAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("game", "seq", "type", "seat", "created_at")
    list_filter = ("type",)
    search_fields = ("game__id", "type")
    list_select_related = ("game",)
    ordering = ("-id",)

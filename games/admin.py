"""Admin: games (with their seats) to look at, events strictly read-only.

Everything on a game is either its header or a projection of its events, so
the admin edits nothing: it shows, filters and searches, and offers one
action, rebuilding the projection from the events. Events cannot be added,
changed or deleted (the database refuses the last two anyway).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from games import services
from games.models import Event, Game, Seat


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
            services.game_rebuild_projection(game_id=game.id)
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

"""Replay viewer views (being written)."""

from django.http import HttpResponse


def game_list(request):
    return HttpResponse("Replays are coming.")

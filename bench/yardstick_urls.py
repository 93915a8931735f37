"""The yardstick: the least a DRF endpoint can do to append one event to a stream.

``POST /bench/append/<game id>/`` with ``{"expected_version": n}``: DRF token
authentication, then in one transaction an ``UPDATE`` of the stream's version
where it is still ``n`` and an ``INSERT`` of one event; 409 when the version
moved. No rules, no state, no projection beyond the version.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.urls import include, path
from rest_framework.authentication import TokenAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView


class AppendApi(APIView):
    authentication_classes = [TokenAuthentication]
    permission_classes = [IsAuthenticated]

    def post(self, request, game_id):  # type: ignore[no-untyped-def]
        expected = int(request.data["expected_version"])
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "UPDATE games_game SET version = %s WHERE id = %s AND version = %s",
                [expected + 1, game_id, expected],
            )
            if cursor.rowcount != 1:
                return Response({"code": "version_conflict"}, status=409)
            cursor.execute(
                "INSERT INTO games_event (game_id, seq, type, seat, data, created_at)"
                " VALUES (%s, %s, 'drawn', 0, %s, now())",
                [game_id, expected + 1, '{"source": "deck"}'],
            )
        return Response({"version": expected + 1}, status=201)


urlpatterns = [
    path("bench/append/<uuid:game_id>/", AppendApi.as_view()),
    path("", include("pablo.urls")),
]

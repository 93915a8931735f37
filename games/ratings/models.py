"""What the ratings follower keeps: a projection of the event log, never a source.

Everything here is rebuilt from the events (``services.ratings_rebuild``): the
current ``Rating`` of each person per ruleset, one ``RatingChange`` per rated
seat of a finished game (the history: charts, ``players[].rating_change``), and
the ``Cursor`` (the last position applied and the model's version).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Rating(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    ruleset = models.CharField(max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    #: mu - 3 sigma scaled (``model.display``): what the leaderboard sorts by.
    rating = models.IntegerField()
    games = models.PositiveIntegerField()
    last_played_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "ruleset"], name="rating_unique_user_ruleset")
        ]
        indexes = [models.Index(fields=["ruleset", "-rating"], name="rating_board_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.ruleset} {self.rating}"


class RatingChange(models.Model):
    """One rated seat of one finished game: the rating before and after.

    Its game and user are references without a database constraint (a game's log
    is never deleted, nor an account that has a seat): a rebuild writes hundreds of
    thousands of these rows, and PostgreSQL's check of both references on each
    row, at the commit, cost as much as writing them. The rows are the log's
    projection, made from ids the rebuild just read; the composite indexes below
    serve both lookups, so neither key has an index of its own.
    """

    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_constraint=False,
        db_index=False,
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_constraint=False,
        db_index=False,
    )
    ruleset = models.CharField(max_length=20)
    seat = models.PositiveSmallIntegerField()
    #: The place the rating used (a mostly stood-in player's is last).
    place = models.PositiveSmallIntegerField()
    points = models.IntegerField(null=True)
    position = models.BigIntegerField()
    at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    before = models.IntegerField()
    after = models.IntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_unique_seat")
        ]
        indexes = [models.Index(fields=["user", "ruleset", "position"], name="rating_history_idx")]

    def __str__(self) -> str:
        return f"{self.game_id} {self.user_id} {self.before}->{self.after}"


class Cursor(models.Model):
    """One row: the highest event position applied, under which model version."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    position = models.BigIntegerField(default=0)
    version = models.CharField(max_length=200, default="")

    def __str__(self) -> str:
        return f"ratings at {self.position} ({self.version})"

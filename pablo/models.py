"""The site's own tables: the outbox of broker messages (``pablo.outbox``)."""

from django.db import models


class OutboxMessage(models.Model):
    """A Celery message kept in the database (``pablo.outbox``): refused by the broker,
    or a claimed message not yet claimed by its task."""

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    kwargs = models.JSONField(default=dict)
    options = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    # A claimed message stays until its task claims (deletes) it in the task's own
    # transaction; the flush publishes it again while it is unclaimed.
    claim = models.BooleanField(default=False)
    published_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.task} #{self.pk}"

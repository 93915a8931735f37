"""``manage.py push``: the Web Push counters, the deliveries waiting, and the notification
mails (pending, sent, skipped) (docs/operations.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.models import MailNotice, PushDelivery, PushSubscription
from games.notifications import push


class Command(BaseCommand):
    help = (
        "Print pushes sent, failed, pruned, retried and skipped, devices and pushes pending, "
        "and the notification mails pending, sent and skipped."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        for name, value in push.counters().items():
            self.stdout.write(f"{name:<8} {value:>10}")
        pending = PushDelivery.objects.filter(status=PushDelivery.Status.PENDING).count()
        self.stdout.write(f"{'pending':<8} {pending:>10}")
        self.stdout.write(f"{'devices':<8} {PushSubscription.objects.count():>10}")
        for status in MailNotice.Status:
            mails = MailNotice.objects.filter(status=status).count()
            self.stdout.write(f"{'mails-' + status.value:<13} {mails:>5}")
        self.stdout.write(f"push {'on' if push.keys() else 'off (no VAPID keys)'}")

"""``manage.py push``: the Web Push counters and the deliveries waiting (docs/operations.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.models import PushDelivery, PushSubscription
from games.notifications import push


class Command(BaseCommand):
    help = "Print pushes sent, failed, pruned and retried, devices and pushes pending."

    def handle(self, *args: Any, **options: Any) -> None:
        for name, value in push.counters().items():
            self.stdout.write(f"{name:<8} {value:>10}")
        pending = PushDelivery.objects.filter(status=PushDelivery.Status.PENDING).count()
        self.stdout.write(f"{'pending':<8} {pending:>10}")
        self.stdout.write(f"{'devices':<8} {PushSubscription.objects.count():>10}")
        self.stdout.write(f"push {'on' if push.keys() else 'off (no VAPID keys)'}")

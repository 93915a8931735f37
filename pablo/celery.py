"""The Celery application: configured from Django settings (``CELERY_*``)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pablo.settings")

app = Celery("pablo")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Heavy work in lanes of its own, outside the pool (games/lanes.py, pablo/lanes.py).
app.steps["worker"].add("pablo.lanes:LaneStep")

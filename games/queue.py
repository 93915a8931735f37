"""Enqueue a Celery task by its name.

The modules that do the work (``deadlines``, ``notifications``) are imported by
``games.tasks``, which wraps them as tasks; they enqueue tasks by name, through
the Celery app's registry, so that no work module imports ``tasks`` back.
"""

from __future__ import annotations

from typing import Any

from celery import current_app


def enqueue(name: str, args: tuple[Any, ...] = (), *, kwargs: Any = None, **options: Any) -> Any:
    """``apply_async`` of the task registered as ``name`` (no retries: callers log and go
    on, the sweep being the safety net)."""
    task = current_app.tasks[name]
    return task.apply_async(args, kwargs, retry=False, **options)

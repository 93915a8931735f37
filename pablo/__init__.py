"""Configuration and HTTP glue: settings, the Celery app, URLs, the exception handler."""

from .celery import app as celery_app

__all__ = ("celery_app",)

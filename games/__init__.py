"""Games: the event store, services (writes), selectors (reads), the API and Celery tasks."""

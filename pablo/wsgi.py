"""WSGI entry point: ``gunicorn pablo.wsgi``."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pablo.settings")

application = get_wsgi_application()

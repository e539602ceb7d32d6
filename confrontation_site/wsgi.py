"""WSGI entry point, for hosts that cannot run ASGI (no live stream there)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confrontation_site.settings")

application = get_wsgi_application()

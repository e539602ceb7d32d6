"""ASGI entry point (uvicorn serves it, even for the embedded default)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confrontation_site.settings")

application = get_asgi_application()

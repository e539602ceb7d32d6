"""URLs of the battles app. Each area adds its own block below."""

from django.urls import path

from battles.views import core

urlpatterns = [
    path("", core.home, name="home"),
    path("manifest.webmanifest", core.manifest, name="manifest"),
    path("healthz", core.healthz, name="healthz"),
    path("favicon.ico", core.favicon),
]

# The hex combat sheet ("Fiche Combat", issue #7).
from battles.views import hexcombat  # noqa: E402

urlpatterns += [path("hex/", hexcombat.hexcombat, name="hexcombat")]

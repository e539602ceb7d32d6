"""The site's URLs: the battles app, the admin, and language switching."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("battles.urls")),
]

handler404 = "battles.views.errors.page_not_found"
handler500 = "battles.views.errors.server_error"

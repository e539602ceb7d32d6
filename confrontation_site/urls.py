"""The site's URLs: the battles app, the admin, and language switching."""

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import set_language

from battles.views.csrf import posted_from_no_referrer_pages

urlpatterns = [
    path("admin/", admin.site.urls),
    # The footer's language switch posts from every page, the no-referrer
    # ones too (battles.views.csrf).
    path(
        "i18n/setlang/",
        posted_from_no_referrer_pages(set_language),
        name="set_language",
    ),
    path("", include("battles.urls")),
]

handler400 = "battles.views.errors.bad_request"
handler404 = "battles.views.errors.page_not_found"
handler500 = "battles.views.errors.server_error"

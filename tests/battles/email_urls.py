"""The site's URLs as they are with EMAIL_HOST set (for the reset tests)."""

from battles import password_reset_urls
from confrontation_site.urls import urlpatterns as site_urlpatterns

urlpatterns = [*password_reset_urls.urlpatterns, *site_urlpatterns]
handler404 = "battles.views.errors.page_not_found"
handler500 = "battles.views.errors.server_error"

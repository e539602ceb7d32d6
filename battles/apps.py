from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BattlesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "battles"
    verbose_name = _("Battles")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in, user_logged_out
        from django.db.backends.signals import connection_created

        from battles.devices import forget_on_sign_out
        from battles.kept_connections import remember_file
        from battles.league.notices import tell_on_sign_in

        user_logged_in.connect(tell_on_sign_in, dispatch_uid="league_notices")
        user_logged_out.connect(forget_on_sign_out, dispatch_uid="forget_device")
        connection_created.connect(remember_file, dispatch_uid="kept_sqlite_file")

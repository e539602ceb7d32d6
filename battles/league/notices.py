"""On signing in, a member is told what club admins did to their account
(a removal, a restoration, a promotion; the password links of before issue
#29 in old rows): the audit's rows about them that
they have not been told yet (``battles.league.services.clubs.untold_notices``).
"""

from __future__ import annotations

from django.contrib import messages
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _


def notice_words(row) -> str:
    """One audit row, in words, for the member it is about."""
    from battles.league.models.league import AuditAction

    words = {
        AuditAction.PASSWORD_LINK_MADE: _(
            "%(actor)s, admin of %(club)s, made a password link for your account"
            " on %(when)s."
        ),
        AuditAction.PASSWORD_LINK_USED: _(
            "Your password was changed with a link from %(club)s on %(when)s."
        ),
        AuditAction.PASSWORD_LINK_REFUSED: _(
            "Someone tried a password link for your account from %(club)s on"
            " another device, on %(when)s: it was refused."
        ),
        AuditAction.MEMBER_REMOVED: _(
            "%(actor)s removed you from %(club)s on %(when)s."
        ),
        AuditAction.MEMBER_RESTORED: _(
            "%(actor)s restored you to %(club)s on %(when)s."
        ),
        AuditAction.ADMIN_PROMOTED: _(
            "%(actor)s made you an admin of %(club)s on %(when)s."
        ),
    }
    template = words.get(row.action, "%(club)s: %(when)s")
    return template % {
        "actor": row.actor.get_username() if row.actor else _("someone"),
        "club": row.club.name,
        "when": date_format(localtime(row.created), "SHORT_DATETIME_FORMAT"),
    }


def tell_on_sign_in(sender, request, user, **kwargs) -> None:
    from battles.league.services.clubs import untold_notices

    if request is None or not hasattr(request, "_messages"):
        return
    for row in untold_notices(user):
        messages.warning(request, notice_words(row))

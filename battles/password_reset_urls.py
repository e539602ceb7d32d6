"""Django's own password-reset views, on when e-mail is configured (EMAIL_HOST).

``battles.urls`` adds these only when ``settings.PASSWORD_RESET_BY_EMAIL``;
without e-mail, a member recovers with her recovery codes (``account_security``).
"""

from django.contrib.auth import views as auth_views
from django.urls import path

urlpatterns = [
    path(
        "accounts/password/reset/",
        auth_views.PasswordResetView.as_view(
            template_name="registration/reset_form.html",
            email_template_name="registration/reset_email.txt",
            subject_template_name="registration/reset_subject.txt",
        ),
        name="password_reset",
    ),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(
            template_name="registration/reset_done.html"
        ),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="registration/reset_confirm.html"
        ),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="registration/reset_complete.html"
        ),
        name="password_reset_complete",
    ),
]

"""``rules`` as the separate Django app the design card names.

The one module of ``rules/`` that imports Django: the engine itself stays
pure Python (``tests/rules/test_rules_app.py`` checks it), so it can be read,
tested and run without a project, a database or settings.
"""

from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "rules"
    verbose_name = "Rules"

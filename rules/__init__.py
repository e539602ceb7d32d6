"""Confrontation's rules as pure Python.

No Django, no database, no global random state: every roll comes from a dice
source passed in by the caller (``rules.dice``). Section numbers (``II-A-1``,
``IV-B-1``...) refer to the French rules in ``shared/seeds/`` and are cited in
each module's docstring so a reader can find a rule by its number.
"""

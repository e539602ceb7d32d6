"""Files we read and write: the army JSON file (``army_json``) and the
community's BattleScribe / New Recruit catalogues (``battlescribe``).

Each reader treats its file as untrusted: a file it cannot read is refused
whole with a clear message, before anything is written.
"""

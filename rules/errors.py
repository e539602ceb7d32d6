"""Exceptions raised by the rules engine."""


class IllegalAction(ValueError):
    """An action the rules forbid right now.

    The message says why in words a player understands; the state that raised
    it is left unchanged.
    """

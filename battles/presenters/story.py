"""The verify page's verdict on the log's story (``rules.story``), in words."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.story import StoryCheck

# rules.story.PROBLEMS, in the reader's language.
PROBLEM_WORDS = {
    "numbering": gettext_lazy("the events are not numbered 1, 2, 3... in order"),
    "action": gettext_lazy(
        "its action number is not the number of its action's first event"
    ),
    "start": gettext_lazy("the log does not start with the game's first event"),
    "no_command": gettext_lazy(
        "no command recorded: its results cannot be derived again"
    ),
    "illegal": gettext_lazy("the rules refuse the recorded command here"),
    "differs": gettext_lazy("the rules give another result"),
    "missing": gettext_lazy("the rules give an event the log does not have"),
    "extra": gettext_lazy("the log has an event the rules do not give"),
    "faces_left": gettext_lazy("faces logged that the rules did not use"),
    "faces_short": gettext_lazy("the rules need more faces than the log holds"),
    "dice_source": gettext_lazy("faces without their source (the app's or typed)"),
    "typed_in_app_mode": gettext_lazy(
        "faces typed while the game rolled the app's dice"
    ),
    "undo": gettext_lazy(
        "it undoes an action that was not the latest one its side may undo"
    ),
    "malformed": gettext_lazy("the event is not one the log can hold"),
    "unfinished": gettext_lazy("the log stops before the game's end"),
}


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 120 else text[:117] + "..."


def story_verdict(check: StoryCheck | None) -> dict[str, Any] | None:
    """What the verify page says of the story: ``ok`` and one sentence."""
    if check is None:
        return None
    if check.ok and check.unchecked:
        return {
            "ok": None,  # neither proven nor refuted
            "text": _(
                "The first %(unchecked)s actions were logged before commands were "
                "recorded: their results cannot be checked, only their dice. The "
                "%(actions)s actions after them follow from their commands and faces."
            )
            % {"unchecked": check.unchecked, "actions": check.actions},
        }
    if check.ok:
        return {
            "ok": True,
            "text": _(
                "Every result of the log follows from its commands and faces: "
                "the rules, replayed action by action, give the same %(events)s "
                "events (%(actions)s actions)."
            )
            % {"events": check.events, "actions": check.actions},
        }
    difference = check.difference
    text = _("Event %(seq)s (%(kind)s): %(problem)s.") % {
        "seq": difference.seq,
        "kind": difference.kind,
        "problem": PROBLEM_WORDS.get(difference.problem, difference.problem),
    }
    if difference.field:
        text += " " + _(
            "%(field)s: %(logged)s in the log, the rules give %(expected)s."
        ) % {
            "field": difference.field,
            "logged": _shown(difference.logged),
            "expected": _shown(difference.expected),
        }
    return {"ok": False, "text": text}


__all__ = ["PROBLEM_WORDS", "story_verdict"]

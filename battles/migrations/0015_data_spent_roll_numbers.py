"""Roll numbers are spent (issue 30): a game's ``rolls`` becomes the next
fresh roll number (never rewound by an undo) and ``taken_back`` the rolls an
undo set aside for the same roll (rules.game.roll_numbers). Games started
before get both from their log, as ``replay`` computes them."""

from django.db import migrations


def spend_roll_numbers(apps, schema_editor):
    from rules.game.roll_numbers import ledger

    Game = apps.get_model("battles", "Game")
    GameEvent = apps.get_model("battles", "GameEvent")
    for game in Game.objects.only("pk", "state").iterator():
        if not isinstance(game.state, dict):
            continue
        events = GameEvent.objects.filter(
            game_id=game.pk, kind__in=("dice_drawn", "undone")
        ).order_by("seq")
        rows = [
            {"kind": e.kind, "action": e.action, "payload": e.payload}
            for e in events.only("kind", "action", "payload")
        ]
        rolls, taken_back = ledger(rows)
        state = dict(game.state)
        state["rolls"], state["taken_back"] = rolls, taken_back
        Game.objects.filter(pk=game.pk).update(state=state)


class Migration(migrations.Migration):
    dependencies = [("battles", "0014_data_form_submissions_and_health_probe")]

    operations = [migrations.RunPython(spend_roll_numbers, migrations.RunPython.noop)]

"""``manage.py backup`` / ``manage.py restore``: a round trip on this database (#13).

A game half played, armies, accounts (and whatever else is in the tables:
the backup covers every model) are identical after the restore, the game
is still playable, and its log replays to its snapshot.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core import serializers
from django.core.management import CommandError, call_command
from django.db import connection

from battles.backup import backed_up_models
from battles.models import Army, Game
from battles.models.armies import Owner
from battles.services import armies as army_services
from battles.services import games as services
from rules.game import replay
from tests.support.live import OPPONENT, OWNER, play, two_phone_game

pytestmark = pytest.mark.django_db(transaction=True)


def everything() -> dict[str, list[dict]]:
    """Every row of every table, as Django serializes it."""
    return {
        model._meta.label_lower: serializers.serialize(
            "python", model._base_manager.order_by("pk")
        )
        for model in backed_up_models()
    }


@pytest.fixture
def club(settings):
    """Accounts, armies (one deleted), and a game half played."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    anne = User.objects.create_user("anne", password="a long enough secret")
    call_command("load_demo", verbosity=0)
    people = Army.objects.demo().first().people
    mine = army_services.create_army(Owner(user_id=anne.pk), name="Mine", people=people)
    gone = army_services.create_army(OWNER, name="Soon gone", people=people)
    army_services.delete_army(gone)
    game = two_phone_game()
    play(game, 12)
    game.refresh_from_db()
    return {"anne": anne, "army": mine, "game": game}


def test_a_backup_restores_every_row_and_the_game_plays_on(club, tmp_path):
    path = tmp_path / "club.backup"
    before = everything()
    version = club["game"].version
    call_command("backup", str(path), verbosity=0)

    # Life goes on after the backup: more play, a new account, an army gone.
    play(club["game"], 6, seed=2)
    User.objects.create_user("bruno", password="another long secret")
    Army.objects.filter(pk=club["army"].pk).delete()
    assert everything() != before

    call_command("restore", str(path), "--noinput", verbosity=0)
    assert everything() == before

    game = Game.objects.get(pk=club["game"].pk)
    assert replay(services.rules_events(game)) == game.state
    versions = play(game, 4, seed=3)  # still playable, new events numbered on
    assert versions[-1] > version
    game.refresh_from_db()
    assert replay(services.rules_events(game)) == game.state
    # New rows get fresh keys (the sequences were reset after the load).
    assert User.objects.create_user("carla").pk > club["anne"].pk


def test_a_json_backup_round_trips_on_any_database(club, tmp_path):
    path = tmp_path / "club.json"
    before = everything()
    call_command("backup", str(path), "--format", "json", verbosity=0)
    assert path.read_text().startswith('{"format": "confrontation-backup"')
    play(club["game"], 4, seed=5)
    call_command("restore", str(path), "--noinput", verbosity=0)
    assert everything() == before


def test_a_file_that_is_not_a_backup_is_refused_and_changes_nothing(club, tmp_path):
    before = everything()
    for content in (b"not a backup", b'{"format": "something else"}'):
        path = tmp_path / "bad.backup"
        path.write_bytes(content)
        with pytest.raises(CommandError):
            call_command("restore", str(path), "--noinput", verbosity=0)
    with pytest.raises(CommandError):
        call_command("restore", str(tmp_path / "missing"), "--noinput", verbosity=0)
    assert everything() == before


def test_a_backup_from_a_newer_version_is_refused(club, tmp_path):
    import json

    path = tmp_path / "newer.json"
    call_command("backup", str(path), "--format", "json", verbosity=0)
    data = json.loads(path.read_text())
    data["migrations"].append(["battles", "9999_from_the_future"])
    path.write_text(json.dumps(data))
    before = everything()
    with pytest.raises(CommandError, match="newer version"):
        call_command("restore", str(path), "--noinput", verbosity=0)
    assert everything() == before


def test_the_sqlite_backup_is_a_database_file(club, tmp_path):
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite format needs an SQLite database")
    path = tmp_path / "club.sqlite3"
    call_command("backup", str(path), verbosity=0)
    assert path.read_bytes().startswith(b"SQLite format 3\x00")


def test_both_players_keep_their_seats(club, tmp_path):
    path = tmp_path / "seats.backup"
    call_command("backup", str(path), verbosity=0)
    call_command("restore", str(path), "--noinput", verbosity=0)
    game = Game.objects.get(pk=club["game"].pk)
    holders = {seat.role: seat.guest_key for seat in game.seats.all()}
    assert holders["a"] == OWNER.guest_key
    assert holders["b"] == OPPONENT.guest_key

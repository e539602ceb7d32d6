"""What changed is pushed through the stream, once per viewpoint (issue 25).

After an action, each stream of the game carries the answer its phone would
have fetched (``/board?since=``), as its seat may see it: the other side's
and the spectators' never hold a private card. The process looks at the game
once per action and renders once per viewpoint, however many watch.
"""

from __future__ import annotations

import random
import re
import threading

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import AsyncClient, Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles.identity import SPECTATOR as SPECTATOR_ROLE
from battles.identity import Viewer
from battles.live import stream as live_stream
from battles.live.bus import RESYNC, MemoryBus, hand_over, take_handed
from battles.models.armies import Owner
from battles.models.games import Game, SeatRole
from battles.presenters.board import build_board
from battles.presenters.push import render_changes
from battles.services import games as services
from battles.services.boards import board_read, log_tail
from battles.services.games import perform_action
from battles.views import live as live_view
from rules.game import state as st
from tests.battles.test_live_stream import open_stream
from tests.support.aio import run_async
from tests.support.cast import OPPONENT, OWNER, SPECTATOR, phone_of
from tests.support.game_bot import next_command
from tests.support.live import play, seat, two_phone_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("english"),
]

SIDE_OF = {"a": OWNER, "b": OPPONENT}


def _to_first_draw(game: Game) -> Game:
    """The bot plays the set-up until a side is to draw its first card."""
    rng = random.Random(3)
    for _ in range(40):
        game.refresh_from_db()
        state = game.state
        if state["phase"] == "activation" and state["active"] is None:
            return game
        side, command = next_command(state, rng)
        perform_action(game, side, command)
    raise AssertionError("no activation draw within 40 actions")


@pytest.fixture
def game():
    game = _to_first_draw(two_phone_game())
    connection.close()
    return game


def _act(game_id: int, side: str, command: dict) -> int:
    try:
        game = Game.objects.get(pk=game_id)
        return perform_action(game, side, command).game.version
    finally:
        connection.close()


act = sync_to_async(_act, thread_sensitive=False)


def _fetched(who: Owner, game: Game, since: int) -> str:
    """What this phone would fetch to catch up from ``since`` (htmx)."""
    try:
        client = phone_of(who, Client(HTTP_ACCEPT_LANGUAGE="en"))
        url = reverse("game_board", args=[game.public_id])
        response = client.get(url, {"since": since}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        return response.content.decode()
    finally:
        connection.close()


fetched = sync_to_async(_fetched, thread_sensitive=False)

PERSONAL = re.compile(r'name="(tap)" value="[^"]*"')


def same_but_personal(html: str) -> str:
    """``html`` with its tap keys (each form's own) blanked."""
    return PERSONAL.sub(r'name="\1" value=""', html).strip()


def reserve_cell(html: str, side: str) -> str:
    """The "Reserve" cell of ``side``'s row in the draws table."""
    row = re.search(
        rf'<tr class="side-{side}"><th scope="row">{side.upper()}</th>'
        r'<td class="num">\d+</td><td>(.*?)</td>',
        html,
    )
    assert row, "no draws table in the push"
    return row.group(1)


async def quiet_streams(phones: dict, game: Game, since: int) -> dict:
    """Each phone's stream, opened at ``since``, once it has said nothing
    for a moment (it holds that version: nothing to catch up)."""
    streams = {
        name: await open_stream(phone, game, since=since)
        for name, phone in phones.items()
    }
    for stream in streams.values():
        await stream.quiet_for(0.2)
    return streams


def board(message) -> tuple[int, str]:
    assert message.event == "board", message
    base, _, html = message.data.partition("\n")
    return int(base), html


def test_the_other_side_and_spectators_get_what_they_may_see_pushed(game):
    """The speaker puts its top card in reserve (hidden, IV-B-1); the other
    side then draws: the speaker's stream names its reserve, the spectator's
    does not; then the speaker draws: the other side's push does not name it.
    Each push is what that phone would have fetched, to the byte."""
    speaker = game.state["draw"]["speaker"]
    other = "b" if speaker == "a" else "a"
    phones = {
        "speaker": phone_of(SIDE_OF[speaker], AsyncClient(HTTP_ACCEPT_LANGUAGE="en")),
        "other": phone_of(SIDE_OF[other], AsyncClient(HTTP_ACCEPT_LANGUAGE="en")),
        "spectator": phone_of(SPECTATOR, AsyncClient(HTTP_ACCEPT_LANGUAGE="en")),
    }
    reserved_version = _act(game.pk, speaker, {"type": "draw", "action": "reserve"})
    game.refresh_from_db()
    reserved = game.state["draw"]["reserved"][speaker]
    card_name = game.state["cards"][reserved]["name"]
    assert game.state["draw"]["speaker"] == other

    async def scenario():
        streams = await quiet_streams(phones, game, reserved_version)
        first = await act(game.pk, other, {"type": "draw", "action": "draw"})
        for name in ("speaker", "spectator"):
            await streams[name].messages_until(1)
        await streams["other"].messages_until(1)
        fetches = {
            "speaker": await fetched(SIDE_OF[speaker], game, reserved_version),
            "spectator": await fetched(SPECTATOR, game, reserved_version),
        }
        for stream in streams.values():
            await stream.close()
        return first, {n: s.messages for n, s in streams.items()}, fetches

    first, received, fetches = run_async(scenario())
    # The side that drew has its tap's answer: its stream only says the version.
    assert [(m.event, m.id) for m in received["other"]] == [("version", str(first))]
    for name in ("speaker", "spectator"):
        assert len(received[name]) == 1
        base, html = board(received[name][0])
        assert (base, received[name][0].id) == (reserved_version, str(first))
        assert same_but_personal(html) == same_but_personal(fetches[name])
        # htmx sends the page's CSRF token in a header: no token field.
        assert "csrfmiddlewaretoken" not in html
        assert "live-tap-placeholder" not in html
    assert card_name in reserve_cell(board(received["speaker"][0])[1], speaker)
    assert card_name not in reserve_cell(board(received["spectator"][0])[1], speaker)
    assert card_name not in board(received["spectator"][0])[1]


def test_the_other_side_never_reads_the_speakers_reserve(game):
    speaker = game.state["draw"]["speaker"]
    other = "b" if speaker == "a" else "a"
    _act(game.pk, speaker, {"type": "draw", "action": "reserve"})
    game.refresh_from_db()
    card_name = game.state["cards"][game.state["draw"]["reserved"][speaker]]["name"]
    # The other side plays its activation, until the speaker is to draw again.
    rng = random.Random(5)
    for _ in range(30):
        game.refresh_from_db()
        state = game.state
        if state["active"] is None and state["draw"]["speaker"] == speaker:
            break
        side, command = next_command(state, rng)
        assert side == other
        perform_action(game, side, command)
    assert game.state["draw"]["reserved"][speaker] is not None
    connection.close()
    phone = phone_of(SIDE_OF[other], AsyncClient(HTTP_ACCEPT_LANGUAGE="en"))

    async def scenario():
        stream = await open_stream(phone, game, since=game.version)
        await stream.quiet_for(0.2)
        await act(game.pk, speaker, {"type": "draw", "action": "draw"})
        await stream.messages_until(1)
        await stream.close()
        return stream.messages

    messages = run_async(scenario())
    assert [m.event for m in messages] == ["board"]
    html = board(messages[0])[1]
    assert card_name not in reserve_cell(html, speaker)
    assert "1 card" in reserve_cell(html, speaker)


def test_one_look_per_action_and_one_render_per_viewpoint(game, monkeypatch):
    """Five spectators, both sides: per action the process looks at the game
    once and renders twice (the spectators once, the side that did not act
    once); every stream gets its message."""
    for number in range(4):
        seat(game, Owner(guest_key=f"another-spectator-{number}"), SeatRole.SPECTATOR)
    connection.close()
    watchers = [SPECTATOR] + [f"another-spectator-{n}" for n in range(4)]
    phones = [phone_of(w, AsyncClient(HTTP_ACCEPT_LANGUAGE="en")) for w in watchers]
    phones += [
        phone_of(OWNER, AsyncClient(HTTP_ACCEPT_LANGUAGE="en")),
        phone_of(OPPONENT, AsyncClient(HTTP_ACCEPT_LANGUAGE="en")),
    ]
    looks, renders = [], []
    # The render is the presenter the stream's view hands to the stream.
    changes, render = live_stream._changes, live_view.render_changes

    def counted_changes(*args):
        looks.append(args[1])
        return changes(*args)

    def counted_render(game, base, viewpoints, known, past):
        pages = render(game, base, viewpoints, known, past)
        renders.extend(pages)
        return pages

    monkeypatch.setattr(live_stream, "_changes", counted_changes)
    monkeypatch.setattr(live_view, "render_changes", counted_render)
    speaker = game.state["draw"]["speaker"]

    async def scenario():
        streams = [await open_stream(p, game, since=game.version) for p in phones]
        for stream in streams:
            await stream.quiet_for(0.05)
        version = await act(game.pk, speaker, {"type": "draw", "action": "draw"})
        for stream in streams:
            await stream.messages_until(1)
        for stream in streams:
            await stream.close()
        return version, [s.messages for s in streams]

    version, received = run_async(scenario())
    assert len(looks) == 1
    assert sorted(v.side or "spectator" for v in renders) == sorted(
        ["spectator", "b" if speaker == "a" else "a"]
    )
    for messages in received:
        assert [m.id for m in messages] == [str(version)]
    assert all(m[0].event == "board" for m in received[:5])
    assert not live_stream.open_rooms()


def test_a_burst_faster_than_the_pushes_is_pushed_once_newest_first(game, monkeypatch):
    """Versions that come while the process is still busy looking (here: its
    look thread held) are coalesced: one look, one render per viewpoint, one
    board from the version the phone shows to the newest; no board for the
    versions in between."""
    renders = []
    render = live_view.render_changes

    def counted_render(game, base, viewpoints, known, past):
        pages = render(game, base, viewpoints, known, past)
        renders.append((base, sorted(v.side or "spectator" for v in pages)))
        return pages

    monkeypatch.setattr(live_view, "render_changes", counted_render)
    rng = random.Random(5)
    start = game.version
    release = threading.Event()
    spectator = phone_of(SPECTATOR, AsyncClient(HTTP_ACCEPT_LANGUAGE="en"))
    connection.close()

    async def scenario():
        stream = await open_stream(spectator, game, since=start)
        await stream.quiet_for(0.05)
        # The one look thread is busy: the room's looks wait behind this.
        live_stream._looks.submit(release.wait, 10)
        try:
            for _ in range(3):
                state = (await sync_to_async(_state)(game.pk))["state"]
                side, command = next_command(state, rng)
                newest = await act(game.pk, side, command)
        finally:
            release.set()
        await stream.messages_until(1)
        await stream.quiet_for(0.2)
        await stream.close()
        return newest, stream.messages

    newest, messages = run_async(scenario())
    assert newest > start + 2  # three actions (one event or more each)
    assert [m.id for m in messages] == [str(newest)]
    base, html = board(messages[0])
    assert base == start
    assert same_but_personal(html) == same_but_personal(
        run_async(fetched(SPECTATOR, game, start))
    )
    assert renders == [(start, ["spectator"])]


def _state(game_id: int) -> dict:
    try:
        return Game.objects.values("state").get(pk=game_id)
    finally:
        connection.close()


def test_a_kept_state_serves_the_push_unless_an_undo_came_since(game):
    """The room's kept state stands for the log's snapshot: the same state,
    and no state at all once an undo came (the phone then fetches)."""
    base, kept = game.version, game.state
    speaker = game.state["draw"]["speaker"]
    perform_action(game, speaker, {"type": "draw", "action": "draw"})
    game.refresh_from_db()
    assert services.state_at(game, base, kept) is kept
    assert services.state_at(game, base) == kept
    # The push's log tail, read already, says it without asking the log.
    with CaptureQueriesContext(connection) as asked:
        tail = log_tail(game, base)
        assert services.state_at(game, base, kept, tail) is kept
    assert len(asked) == 1
    perform_action(game, speaker, {"type": "undo", "confirmed": True})
    game.refresh_from_db()
    assert services.state_at(game, base, kept) is None
    assert services.state_at(game, base) is None
    assert services.state_at(game, base, kept, log_tail(game, base)) is None


def test_no_viewpoint_to_render_for_reads_no_log(game):
    """A process where only the tapping phone watches (it has its answer):
    the look renders nothing and reads nothing of the log."""
    base, kept = game.version, game.state
    play(game, 1)
    game.refresh_from_db()
    with CaptureQueriesContext(connection) as asked:
        assert render_changes(game, base, set(), kept) == {}
    assert len(asked) == 0


def test_a_phone_too_far_behind_gets_no_render_and_no_log_read(game):
    """Past CATCH_UP_EVENTS the phone fetches its whole board: the push reads
    nothing of the log (however far behind), and renders nothing."""
    base, kept = game.version, game.state
    while game.version - base <= services.CATCH_UP_EVENTS:
        play(game, 10)
        game.refresh_from_db()
    watching = {
        Viewer(frozenset({"b"}), "en"),
        Viewer(frozenset({SPECTATOR_ROLE}), "en"),
    }
    with CaptureQueriesContext(connection) as asked:
        assert render_changes(game, base, watching, kept) == {}
    assert len(asked) == 0


def _window(game: Game, since: int) -> list[dict]:
    """The log's last forty events, payloads past ``since``: what a phone
    behind the game was read before it was given the events past it alone."""
    window = max(40, services.UNDO_WINDOW, game.version - since)
    return services.latest_events(game, window, payloads_after=since)


def _seen(game: Game, viewer: Viewer, tail: list[dict], since: int) -> tuple:
    read = board_read(game, viewer, viewer.side, since=since, tail=tail)
    context = build_board(game, viewer, read, side=viewer.side, since=since)
    return (
        read.can_undo,
        read.undo_request,
        read.dice_mode_request,
        read.time_call_request,
        [(line.seq, line.text) for line in context["new_lines"]],
        [(line.seq, line.text) for line in context["latest"]],
    )


def test_a_phone_behind_reads_the_events_past_its_version_alone(game):
    """A push (or a phone's catch-up) reads the events past the version the
    phone shows, not the log's last forty: for every viewpoint, the undo
    button, the requests standing and the lines are what the forty gave,
    one to three actions behind, through a played game; once an event about
    the log itself (an undo, or its request) is past that version, the forty
    again."""
    viewers = [
        Viewer(frozenset({"a"}), "en"),
        Viewer(frozenset({"b"}), "en"),
        Viewer(frozenset({SPECTATOR_ROLE}), "en"),
    ]
    rng = random.Random(5)
    versions = [game.version]
    compared = 0
    for _ in range(45):
        game.refresh_from_db()
        if game.finished:
            break
        side, command = next_command(game.state, rng)
        perform_action(game, side, command)
        game.refresh_from_db()
        versions.append(game.version)
        for since in versions[-4:-1]:
            tail = log_tail(game, since)
            assert [e["seq"] for e in tail] == list(range(since + 1, game.version + 1))
            for viewer in viewers:
                assert _seen(game, viewer, tail, since) == _seen(
                    game, viewer, _window(game, since), since
                )
                compared += 1
    assert compared > 100
    # An undo since (or its request): the forty.
    since = game.version
    speaker = next(
        s
        for s in ("a", "b")
        if services.may_undo(game, s) and services.pending_undo_request(game) is None
    )
    services.undo_last_action(game, speaker)
    game.refresh_from_db()
    tail = log_tail(game, since)
    assert len(tail) > game.version - since
    assert tail == _window(game, since)


def test_the_acting_process_hands_its_game_to_its_pushes(game, monkeypatch):
    """Through a played game, after each action of this process (a stream of
    the game here), the look renders from the game as the action saved it
    and from its events: no read of the game's row nor of its log, and the
    very pages a look reading them renders, for both sides and a spectator."""
    monkeypatch.setattr(MemoryBus, "watched", lambda bus, game_id: True)
    viewers = {
        Viewer(frozenset({"a"}), "en"),
        Viewer(frozenset({"b"}), "en"),
        Viewer(frozenset({SPECTATOR_ROLE}), "en"),
    }
    rng = random.Random(7)
    handed_pages = 0
    for _ in range(30):
        game.refresh_from_db()
        if game.finished:
            break
        base, kept = game.version, game.state
        side, command = next_command(kept, rng)
        version = perform_action(game, side, command).game.version
        with CaptureQueriesContext(connection) as asked:
            _, _, pages = live_stream._changes(
                game.pk, base, viewers, render_changes, kept, version
            )
        read = [q["sql"] for q in asked]
        _, _, fresh = live_stream._changes(game.pk, base, viewers, render_changes, kept)
        assert pages == fresh
        if pages:
            assert not [q for q in read if re.search(r'FROM "battles_game(event)?"', q)]
            handed_pages += len(pages)
    assert handed_pages > 40


def test_a_hand_over_older_than_the_news_is_not_used(game, monkeypatch):
    """The bus said a later version than this process's action made (another
    process acted since): the game is read. A hand-over is used once, and
    dropped with its game's room."""
    monkeypatch.setattr(MemoryBus, "watched", lambda bus, game_id: True)
    speaker = game.state["draw"]["speaker"]
    version = perform_action(game, speaker, {"type": "draw", "action": "draw"})
    version = version.game.version
    assert take_handed(game.pk, version + 1) is None  # taken: gone, even unused
    assert take_handed(game.pk, version) is None
    game.refresh_from_db()
    hand_over(game, version - 1, [])
    assert take_handed(game.pk, RESYNC) is None  # a resync's look reads
    hand_over(game, version - 1, [])
    assert take_handed(game.pk, None) is None  # so does a heartbeat's
    hand_over(game, version - 1, [])
    handed = take_handed(game.pk, version)
    assert handed is not None and handed.game is game and handed.since == version - 1
    assert take_handed(game.pk, version) is None
    # The game's room closed before it looked: the hand-over goes with it.
    hand_over(game, version - 1, [])
    live_stream.Room(game.pk).close()
    assert take_handed(game.pk, version) is None


def test_a_sequence_being_built_is_pushed_as_every_phone_of_its_side_starts_it():
    """A sets its sequence while B builds its own (IV-A-1): B's push shows
    the order every phone of side B starts from, what a phone where no card
    was moved fetches, to the byte, and no mark of a phone's own draft. Once
    both are set, A's panel (the Tactics fighter) is pushed, as fetched."""
    game = two_phone_game()
    connection.close()
    state = game.state
    assert state["phase"] == "strategic"
    phones = {
        "a": phone_of(OWNER, AsyncClient(HTTP_ACCEPT_LANGUAGE="en")),
        "b": phone_of(OPPONENT, AsyncClient(HTTP_ACCEPT_LANGUAGE="en")),
    }
    order = {side: st.cards_in_play(state, side) for side in "ab"}
    start = game.version

    async def scenario():
        streams = await quiet_streams(phones, game, start)
        set_a = await act(game.pk, "a", {"type": "set_sequence", "order": order["a"]})
        await streams["b"].messages_until(1)
        fetch_b = await fetched(OPPONENT, game, start)
        set_b = await act(game.pk, "b", {"type": "set_sequence", "order": order["b"]})
        await streams["a"].messages_until(2)
        fetch_a = await fetched(OWNER, game, set_a)
        for stream in streams.values():
            await stream.close()
        messages = {s: x.messages for s, x in streams.items()}
        return set_a, set_b, fetch_a, fetch_b, messages

    set_a, set_b, fetch_a, fetch_b, received = run_async(scenario())
    base, html = board(received["b"][0])
    assert (base, received["b"][0].id) == (start, str(set_a))
    assert "Confirm this sequence" in html and "data-own-draft" not in html
    assert same_but_personal(html) == same_but_personal(fetch_b)
    # A's own tap's version first (its phone has the answer), then B's push.
    assert [m.event for m in received["a"]] == ["version", "board"]
    base, html = board(received["a"][1])
    assert (base, received["a"][1].id) == (set_a, str(set_b))
    assert "Tactics" in html
    assert same_but_personal(html) == same_but_personal(fetch_a)


def test_a_card_moved_on_a_phone_marks_its_draft_and_the_push_keeps_the_sides():
    """B moves its last card up (its session's draft): B's fetch shows that
    order, marked as this phone's own; a push for side B still shows the
    order every phone of it starts from, unmarked (live.js fetches then)."""
    game = two_phone_game()
    cards = st.cards_in_play(game.state, "b")
    names = [game.state["cards"][c]["name"] for c in cards]
    b_phone = phone_of(OPPONENT, Client(HTTP_ACCEPT_LANGUAGE="en"))
    moved = b_phone.post(
        reverse("game_sequence_move", args=[game.public_id]),
        {"card": cards[-1], "direction": "up"},
        HTTP_HX_REQUEST="true",
    )
    assert moved.status_code == 200
    base = game.version
    a_order = st.cards_in_play(game.state, "a")
    perform_action(game, "a", {"type": "set_sequence", "order": a_order})
    game.refresh_from_db()
    own = b_phone.get(
        reverse("game_board", args=[game.public_id]),
        {"since": base},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "data-own-draft" in own
    assert sequence_names(own) == [*names[:-2], names[-1], names[-2]]
    (html,) = render_changes(game, base, {Viewer(frozenset({"b"}), "en")}).values()
    assert "data-own-draft" not in html
    assert sequence_names(html) == names


def test_the_next_turns_sequence_is_pushed_from_the_last_one():
    """From the second turn on, a side's phones start from its last sequence
    (issue 23): so does its push, what such a phone fetches."""
    game = two_phone_game()
    for side in "ab":
        backwards = list(reversed(st.cards_in_play(game.state, side)))
        perform_action(game, side, {"type": "set_sequence", "order": backwards})
    rng = random.Random(3)
    base = game.version
    for _ in range(2000):
        game.refresh_from_db()
        if game.state["turn"] == 2:
            break
        base = game.version
        side, command = next_command(game.state, rng)
        perform_action(game, side, command)
    assert game.state["turn"] == 2 and game.state["phase"] == "strategic"
    for side, who in (("a", OWNER), ("b", OPPONENT)):
        in_play = st.cards_in_play(game.state, side)
        last = [c for c in services.last_sequence(game, side) if c in in_play]
        assert last != in_play  # the army's order would not tell
        (html,) = render_changes(game, base, {Viewer(frozenset({side}), "en")}).values()
        assert sequence_names(html) == [game.state["cards"][c]["name"] for c in last]
        assert same_but_personal(html) == same_but_personal(_fetched(who, game, base))


SEQUENCE_NAME = re.compile(r'<span class="sequence-name">(.*?) <span')


def sequence_names(html: str) -> list[str]:
    """The cards of the sequence a panel shows, in its order."""
    return SEQUENCE_NAME.findall(html)

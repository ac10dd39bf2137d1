"""The sans-I/O session (X2, X5): refusals, bots, timeouts, views that leak nothing, resume."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import xeri
from edge_games import presets
from xeri.session import BOT_KINDS, BotTask, Refusal, Session, Update, run_bot
from xeri.testing import shuffle_hidden

PRESETS = presets()
IDS = [r.name for r in PRESETS]


def check_views(session: Session, update: Update, rng: random.Random) -> None:
    """Every view is the seat's client view, and is the same for any state the seat can't tell."""
    state = session.state
    for seat, view in update.views:
        assert view == xeri.client_view(state, seat)
        if seat is not None:
            other = shuffle_hidden(state, seat, rng)
            assert xeri.client_view(other, seat) == view
        else:
            for s in range(state.rules.seats):  # the spectator sees less than any seat
                assert xeri.client_view(shuffle_hidden(state, s, rng), None) == view


def act(session: Session, action: tuple[str, int]) -> Update | Refusal | None:
    kind, n = action
    seat = session.to_move
    if kind == "submit" and seat is not None:
        moves = session.view(seat)["moves"]
        move = moves[n % len(moves)]
        return session.submit(seat, move if type(move) is str else move[0], session.ply)
    if kind == "index" and seat is not None:
        return session.submit(seat, n % max(1, len(session.view(seat)["moves"])), session.ply)
    if kind == "stale" and seat is not None:
        return session.submit(seat, 0, session.ply - 1 - n % 3)
    if kind == "wrong seat" and seat is not None:
        return session.submit((seat + 1 + n) % len(session.seats), 0, session.ply)
    if kind == "timeout" and seat is not None:
        return session.timeout((seat + n % 2) % len(session.seats))
    return session.bot_turn()


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["submit", "index", "stale", "wrong seat", "timeout", "bot"]),
        st.integers(0, 50),
    ),
    min_size=1,
    max_size=120,
)


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=ACTIONS, seed=st.integers(0, 10**6), cut=st.integers(0, 10**6))
def test_X2_views_leak_nothing_and_a_resumed_session_emits_the_same(rules, actions, seed, cut):
    rng = random.Random(seed)
    kinds = ["human", "random"] + ["greedy"] * (rules.seats - 2)
    session, first = Session.new(rules, kinds, seed=str(seed))
    check_views(session, first, rng)
    rows = list(first.rows)
    emitted: list[object] = []
    cut_at = cut % (len(actions) + 1)
    resumed_rows: list[dict] = []
    for i, action in enumerate(actions):
        if i == cut_at:
            resumed_rows = [json.loads(json.dumps(r)) for r in rows]
        answer = act(session, action)
        emitted.append(answer)
        if isinstance(answer, Update):
            check_views(session, answer, rng)
            assert answer.ply == session.ply
            rows.extend(answer.rows)
    if cut_at == len(actions):
        resumed_rows = [json.loads(json.dumps(r)) for r in rows]
    # The header goes through JSON too, as a server stores it.
    header = json.loads(json.dumps(session.header))
    again = Session.resume(header, resumed_rows)
    assert again.pending() is None
    replayed = [act(again, a) for a in actions[cut_at:]]
    assert replayed == emitted[cut_at:]
    assert again.view(None) == session.view(None)
    assert again.rows == session.rows == len(rows)


def test_X5_refusals_change_nothing_and_say_why():
    session, _ = Session.new(xeri.GREEK, ("human", "human"), seed="x", dealer=1)
    before = session.view(None)
    assert session.to_move == 0
    cases = {
        "out of turn": session.submit(1, 0, 0),
        "stale": session.submit(0, 0, 5),
        "illegal": session.submit(0, 99, 0),
        "not a seat": session.submit(2, 0, 0),
    }
    for code, answer in cases.items():
        assert isinstance(answer, Refusal)
        assert answer.code == code
    illegal = session.submit(0, "7C x 3D", 0)
    assert isinstance(illegal, Refusal)
    assert illegal.code == "illegal"
    hand = set(session.state.hands[0])
    other = next(c for c in xeri.DECK if c not in hand and c not in session.state.table)
    refused = session.submit(0, other.ascii, 0)
    assert isinstance(refused, Refusal)
    assert other.ascii not in refused.message
    assert str(other) not in refused.message
    assert session.submit(0, True, 0).code == "illegal"  # type: ignore[union-attr,arg-type]
    assert session.view(None) == before
    assert session.ply == 0


def test_timeout_plays_the_fallback_bot_for_the_seat_to_move_only():
    session, _ = Session.new(xeri.GREEK, ("human", "human"), seed="t", dealer=1)
    assert isinstance(session.timeout(1), Refusal)
    update = session.timeout(0)
    assert isinstance(update, Update)
    assert [row["seat"] for row in update.rows] == [0]
    assert session.ply == 1


def test_bot_tasks_pickle_and_run_elsewhere():
    session, _ = Session.new(xeri.GERMAN, ("counting", "human"), seed="b", dealer=1)
    task = session.bot_task()
    assert isinstance(task, BotTask)
    assert task.observation == xeri.observe(session.state, 0)
    copy = pickle.loads(pickle.dumps(task))
    index = run_bot(copy)
    assert index == run_bot(task)
    assert isinstance(session.bot_move(task, index), Update)
    assert isinstance(session.bot_move(task, index), Refusal)  # stale now
    assert session.bot_task() is None  # a human is to move


def test_a_whole_match_of_bots_ends_and_every_kind_plays():
    for kind in BOT_KINDS:
        if kind in ("pimc", "ismcts"):
            continue  # the search bots are tested in the bots' tests; slow here
        session, _ = Session.new(xeri.GREEK, (kind, "counting"), seed=kind)
        while not session.is_over:
            assert session.bot_turn() is not None
        assert session.submit(0, 0, session.ply).code == "over"  # type: ignore[union-attr]
        assert session.view(0)["phase"] == "match over"


def test_a_resume_cut_between_a_move_and_its_deal_deals_the_same():
    session, first = Session.new(xeri.GREEK, ("random", "random"), seed="r", dealer=0)
    rows = list(first.rows)
    while True:
        update = session.bot_turn()
        assert update is not None
        rows.extend(update.rows)
        if len(update.rows) > 1:  # the round's last card, then the next deal
            break
    cut = rows[: -len(update.rows) + 1]
    again = Session.resume(session.header, cut)
    pending = again.pending()
    assert pending is not None
    assert list(pending.rows) == list(update.rows[1:])
    assert again.view(1) == session.view(1)


def test_bad_seats_and_journals_are_refused():
    with pytest.raises(xeri.InvalidStateError, match="seats"):
        Session.new(xeri.GREEK, ("human",))
    with pytest.raises(xeri.InvalidStateError, match="seats"):
        Session.new(xeri.GREEK, ("human", "wizard"))
    session, first = Session.new(xeri.GREEK, ("human", "human"), seed="h")
    header = session.header
    header["extra"] = {}
    with pytest.raises(xeri.InvalidStateError, match="seed"):
        Session.resume(header, first.rows)

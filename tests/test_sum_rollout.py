"""The int-coded German rollout (`xeri._families.sums.kernel`) agrees with the public engine.

The checks, for GERMAN and for German variants with each `SumCapture`
option and all of them together:

* the engine, replaying the moves a random int-coded rollout chose, finds
  each of them legal and reaches the same final state, field by field
  (fresh deals and mid-round starts);
* a rollout with a policy (played through the public engine, see
  `xeri.rollout`) shows the policy the engine's states and reaches the
  engine's end;
* the moves the default policy draws from are, at every step of a random
  rollout, exactly the set `SumCapture.moves` gives (counted from the kept
  counts and built one at a time by `_pick` for a player owning no build
  under no option, counted by `_groups` and built by `_decode` otherwise,
  or listed by `_options` under `multi_capture`), the incremental tables
  (the counts of loose sets by sum, capture and item counts, hands' values)
  are the ones computed afresh, and the loose set found from the counts
  at each number is the one listed there;
* every draw is made below the number of moves the engine lists at that
  step (so trails, drawn without building any move, are as likely as the
  rest), and a plain `random.Random` draws the same as one calling
  `randrange`;
* a random rollout ends in a state the validator accepts.
"""

from __future__ import annotations

import random
import secrets

import attrs
import pytest

import xeri
from support import assert_same_state, cards, deal, engine_replay
from xeri import GERMAN, Card, GameState, RolloutView, SumCapture
from xeri._core.validate import check_state
from xeri._families.protocol import XeriKind
from xeri._families.sums import kernel as fast

VARIANTS = [
    GERMAN,
    attrs.evolve(GERMAN, name="german-multi", capture=SumCapture(multi_capture=True)),
    attrs.evolve(GERMAN, name="german-forced", capture=SumCapture(forced_capture=True)),
    attrs.evolve(GERMAN, name="german-self-raise", capture=SumCapture(self_raise=True)),
    attrs.evolve(
        GERMAN,
        name="german-all",
        capture=SumCapture(multi_capture=True, forced_capture=True, self_raise=True),
    ),
    attrs.evolve(GERMAN, name="german-v3", xeri_on_first_card=False, xeri_on_last_card=False),
    attrs.evolve(
        GERMAN,
        name="german-multi-v3",
        capture=SumCapture(multi_capture=True),
        xeri_on_first_card=False,
        xeri_on_last_card=False,
    ),
]
IDS = [rules.name for rules in VARIANTS]


def public_round(state: GameState, rng: random.Random) -> tuple[GameState, list[GameState]]:
    """Play the round through the public engine; return its end and the states played from."""
    seen: list[GameState] = []
    while not state.is_round_over:
        seen.append(state)
        state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    return state, seen


def replaying(seen: list[GameState], end: GameState) -> xeri.Policy:
    """A policy that plays the recorded moves, checking its view against the engine's states."""
    script = iter(seen)

    def policy(view: RolloutView) -> int:
        state = next(script)
        assert view.seat == state.to_move
        assert tuple(view.moves) == xeri.legal_moves(state)
        assert tuple(view.table) == state.table
        assert (view.stock, view.plays) == (len(state.stock), len(state.history))
        return list(view.moves).index(end.history[len(state.history)])

    return policy


def started(rules: xeri.RuleSet, rng: random.Random) -> GameState:
    """A fresh deal, or now and then a later point of the round, as search uses."""
    state = xeri.new_game(rules, rng=rng)
    for _ in range(rng.choice([0, 0, rng.randrange(47)])):
        state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    return state


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_D3_the_engine_replaying_a_random_rollout_reaches_the_same_state(rules):
    for seed in range(60):
        rng = random.Random(seed)
        start = started(rules, rng)
        got = xeri.rollout(start, rng)
        assert_same_state(got, engine_replay(start, got, seed), seed)


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_D3_a_policy_sees_the_engine_s_states_and_reaches_its_end(rules):
    for seed in range(60):
        rng = random.Random(seed)
        start = started(rules, rng)
        end, seen = public_round(start, random.Random(seed + 1000))
        got = xeri.rollout(start, random.Random(0), replaying(seen, end))
        assert_same_state(got, end, seed)


def check_moves(capture, drawn, total, *, table, hand, seat):
    """The int-coded moves drawn from are exactly the public legal moves, each once."""
    shown = tuple(fast._public_item(t) for t in table)
    legal = capture.moves(shown, tuple(xeri.DECK[c] for c in hand), seat)
    public = [fast._public_move(m, table) for m in drawn]
    assert len(public) == len(legal) == total
    assert set(public) == set(legal)


PICK = fast._pick
"""`_pick` itself, as the tests below replace it by a checking wrapper."""


def check_pick(rules, captures, *where):
    """`_pick` (a player owning no build, no option) builds each legal move but the trails once."""
    hand, table, sets, grabs, counts, count, pairs = where
    assert sets == fast._set_counts(table)
    for v in range(1, 11):  # set j as found from the counts is the listing's set j
        assert [fast._set_at(table, sets, v, j) for j in range(sets[v])] == fast._sums(table)[v]
    assert grabs == fast._capture_counts(table, sets)
    assert counts == fast._holding(hand)[1]
    assert count == fast._counters(table, rules.seats)[0]
    assert pairs == fast._pairs(fast._holding(hand)[0])
    total = captures + sum(counts[v] * count[d] for v, d in pairs)
    drawn = [(fast._TRAIL, c, 0, 0) for c in hand]
    drawn += [PICK(i, captures, *where) for i in range(total)]
    # The mover owns no build; any such seat has the same legal moves.
    owners = {t.owner for t in table if type(t) is not int}
    seat = next(s for s in range(rules.seats) if s not in owners)
    check_moves(rules.capture, drawn, len(hand) + total, table=table, hand=hand, seat=seat)


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_D3_D4_D5_default_policy_draws_from_the_legal_moves_at_every_step(rules, monkeypatch):
    capture = rules.capture
    options, groups, decode = fast._options, fast._groups, fast._decode
    steps = 0
    counters = counted = None

    def checked_options(table, sums, hand, seat, *flags):
        nonlocal steps
        assert sums == fast._sums(table)
        found, total = options(table, sums, hand, seat, *flags)
        drawn = [fast._nth(found, r) for r in range(total)]
        check_moves(capture, drawn, total, table=table, hand=hand, seat=seat)
        steps += 1
        return found, total

    def checked_groups(hand, held, counts, sets, found_counters, *rest):
        nonlocal counters, counted
        bits, found_counts = fast._holding(hand)
        assert (held, counts) == (fast._HELD[bits], found_counts)
        counters = found_counters
        counted = groups(hand, held, counts, sets, found_counters, *rest)
        return counted

    def checked_decode(found, r, room, *where):
        # Called when the move drawn is no trail; the trails are numbered first.
        nonlocal steps
        hand, table, sets, seat, _ = where
        assert sets == fast._set_counts(table)
        assert counters == fast._counters(table, rules.seats)
        _, total, _, trailing = counted
        assert trailing in (0, len(hand))
        assert total - trailing == sum(n * k for _, _, n, k in found)
        drawn = [(fast._TRAIL, c, 0, 0) for c in hand[:trailing]]
        drawn += [decode(found, i, room, *where) for i in range(total - trailing)]
        check_moves(capture, drawn, total, table=table, hand=hand, seat=seat)
        steps += 1
        return decode(found, r, room, *where)

    def checked_pick(r, captures, *where):
        nonlocal steps
        steps += 1
        check_pick(rules, captures, *where)
        return PICK(r, captures, *where)

    monkeypatch.setattr(fast, "_options", checked_options)
    monkeypatch.setattr(fast, "_groups", checked_groups)
    monkeypatch.setattr(fast, "_decode", checked_decode)
    monkeypatch.setattr(fast, "_pick", checked_pick)
    rng = random.Random(5)
    for _ in range(40):
        end = xeri.rollout(started(rules, rng), rng)
        assert end.is_round_over
    assert steps > 40 * 12


def test_D3_loose_set_counts_follow_laid_and_taken_cards_and_number_the_listed_sets():
    # Tables play rarely reaches (many small cards) as well as common ones: the
    # counts kept by _lay and _lift are those computed afresh, and set j found
    # from them is set j of the listing, for every value and every j.
    rng = random.Random(4)
    build = xeri.Build(cards=(xeri.DECK[8], xeri.DECK[12]), value=7 + 1, owner=0)
    for _ in range(300):
        numbers = rng.sample(range(40), rng.randrange(13))
        table = numbers + rng.sample(range(40, 52), rng.randrange(3))
        rng.shuffle(table)
        if rng.random() < 0.3:
            table.insert(rng.randrange(len(table) + 1), build)
        table = [t for t in table if t not in (8, 12)]
        sets, grabs, top = [1] + [0] * 10, [0] * 14, 0
        for t in table:
            if type(t) is int and fast._VALUE[t]:
                fast._lay(sets, fast._VALUE[t], top, grabs)
                top += fast._VALUE[t]
        assert sets == fast._set_counts(table)
        for v in range(1, 11):
            listed = [fast._set_at(table, sets, v, j) for j in range(sets[v])]
            assert listed == fast._sums(table)[v]
        for t in rng.sample(table, len(table) // 2):
            table.remove(t)
            if type(t) is int and fast._VALUE[t]:
                fast._lift(sets, fast._VALUE[t], top, grabs)
                top -= fast._VALUE[t]
            assert sets == fast._set_counts(table)
        assert grabs[1:11] == sets[1:11]  # grabs moved with the counts


def test_D4_groups_defer_to_options_when_an_owner_cannot_take_a_build():
    # Seat 0 owns a build of 8 and holds no 8: play never reaches this, so the
    # counting (which relies on D4's slack) gives way to the full listing.
    deck = xeri.DECK
    build = xeri.Build(cards=(deck[8], deck[12]), value=7 + 1, owner=0)
    table = [build, 0]
    hand = [4, 20]
    counters = fast._counters(table, 2)
    sets = fast._set_counts(table)
    bits, counts = fast._holding(hand)
    found = fast._groups(hand, fast._HELD[bits], counts, sets, counters, 0, False, False)
    assert found is None
    bits, counts = fast._holding([4, 28, 29, 44])
    assert fast._HELD[bits] == (2, 8)
    assert counts[8] == 2


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_D4_legal_set_matches_sum_capture_at_reachable_states(rules):
    capture = rules.capture
    rng = random.Random(11)
    for _ in range(20):
        state = xeri.new_game(rules, rng=rng)
        while not state.is_round_over:
            seat = state.to_move
            hand = state.hands[seat]
            mine = fast._legal_set(capture, state.table, hand, seat)
            legal = xeri.legal_moves(state)
            assert len(mine) == len(legal)
            assert set(mine) == set(legal)
            state = xeri.apply(state, rng.choice(legal))


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_D7_D8_a_random_rollout_ends_in_a_valid_scored_state(rules):
    rng = random.Random(9)
    for i in range(40):
        state = started(rules, rng)
        end = xeri.rollout(state, rng if i % 2 else secrets.SystemRandom())
        assert end.is_round_over
        assert len(end.round_results) == len(state.round_results) + 1
        assert end.round_results[:-1] == state.round_results
        assert end.history[: len(state.history)] == state.history
        assert check_state(end).problems == []


def test_D3_rollout_continues_a_match_after_its_first_round():
    rng = random.Random(3)
    state = xeri.rollout(xeri.new_game(GERMAN, rng=rng), rng)
    state = xeri.apply(state, xeri.chance_move(state, rng))
    end = xeri.rollout(state, rng)
    assert end.round_results[:-1] == state.round_results
    assert check_state(end).problems == []


def test_D3_the_default_policy_chooses_each_legal_move_equally_often():
    rng = random.Random(1)
    state = xeri.new_game(GERMAN, rng=rng)
    while len(xeri.legal_moves(state)) < 4:
        state = xeri.new_game(GERMAN, rng=rng)
    counts = dict.fromkeys(xeri.legal_moves(state), 0)
    draws = 1200
    for _ in range(draws):
        counts[xeri.rollout(state, rng).history[0]] += 1
    expected = draws / len(counts)
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi2 < 3 * len(counts) + 20, counts


@pytest.mark.parametrize("first_xeri", [True, False])
def test_D6_P4_a_rollout_s_first_play_sweeping_the_table_is_a_xeri_unless_p4_says_not(
    first_xeri,
):
    # Seat 1 leads with a hand of one 10 and five pictures onto A+2+3+4: the 10 sweeps
    # the table. It is a xeri (D6) unless the rules count none on the first card (P4).
    rules = attrs.evolve(GERMAN, name="german-first", xeri_on_first_card=first_xeri)
    hand = ["10♠", "J♠", "J♥", "Q♠", "Q♥", "K♠"]
    deck = deal(rules, dealer=0, hands={1: hand}, table=["A♣", "2♣", "3♣", "4♣"])
    state = xeri.new_game(rules, deck=deck, dealer=0)
    sweep = xeri.Capture(card=Card.parse("10♠"), taken=cards("A♣ 2♣ 3♣ 4♣"))
    assert sweep in xeri.legal_moves(state)
    rng = random.Random(4)
    swept = 0
    for _ in range(200):
        end = xeri.rollout(state, rng)
        if end.history[0] == sweep:
            swept += 1
            assert end.takes[0].turn == 0
            assert end.takes[0].xeri is (XeriKind.XERI if first_xeri else None)
    assert swept > 5


class Recording(random.Random):
    """A generator that records the bound of each `randrange` call."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.bounds: list[int] = []

    def randrange(self, *args, **kwargs):  # type: ignore[override]
        self.bounds.append(args[0])
        return super().randrange(*args, **kwargs)


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_D3_D4_D5_the_default_policy_draws_among_as_many_moves_as_the_engine_lists(rules):
    # The trails are drawn without building the moves: only the count says that
    # each legal move is drawn equally often, trails included.
    for seed in range(60):
        rng = random.Random(seed)
        start = started(rules, rng)
        recording = Recording(seed)
        end = xeri.rollout(start, recording)
        state, bounds = start, []
        for move in end.history[len(start.history) :]:
            legal = xeri.legal_moves(state)
            if len(legal) > 1:  # one legal move: nothing is drawn
                bounds.append(len(legal))
            state = xeri.apply(state, move)
        assert recording.bounds == bounds, seed
        # A plain random.Random draws the same numbers, without calling randrange.
        assert xeri.rollout(start, random.Random(seed)) == end, seed

"""Bots on tables with astronomical numbers of legal moves: bounded candidates, nothing listed.

CASSINO with both players laying every card free (as `benchmarks/movegen.py`
plays it) reaches tables of 40 to 50 items with up to billions of legal
moves. There every bot, the command line's hint and the endgame solver
answer without listing the moves: `xeri.bots.candidates` gives at most
`CANDIDATES` of them (every trail and single-item capture, and a sample
drawn by index), and below the cap it gives the moves themselves and never
draws from the generator. Counted, not timed.
"""

from __future__ import annotations

import random

import pytest

import xeri
from xeri import CASSINO, SumCapture, Trail
from xeri._core import legal
from xeri.bots import (
    CANDIDATES,
    SAMPLED,
    CountingBot,
    GreedyBot,
    ISMCTSBot,
    PIMCBot,
    candidates,
    heuristic,
    solve_endgame,
)
from xeri.cli._common import _bot
from xeri.cli._play import _STRONGEST


class _NoDraws(random.Random):
    def randrange(self, *args, **kwargs):  # any call is the failure
        raise AssertionError("the generator was drawn from")


def _trailed(rules: xeri.RuleSet, seed: int, at_least: int):
    """States of a round where both players lay every card free while they may."""
    rng = random.Random(seed)
    state = xeri.new_game(rules, rng=rng)
    found = []
    while state.to_move is not None and not state.is_round_over:
        moves = xeri.legal_moves(state)
        if len(moves) >= at_least:
            found.append(state)
        free = Trail(card=state.hands[state.to_move][0])
        state = xeri.apply(state, free if free in moves else moves[0])
    return found


@pytest.fixture(scope="module")
def huge():
    """The state with the most legal moves of one such CASSINO round (over a billion)."""
    states = _trailed(CASSINO, 0, CANDIDATES + 1)
    return max(states, key=lambda s: len(xeri.legal_moves(s)))


@pytest.fixture
def no_listing(monkeypatch):
    """Refuse listing the moves of a large table by the rule, or more than the cap of them."""
    listed = SumCapture.moves

    def moves(self, table, hand, seat):
        if len(table) > 10 and self.count_moves(table, hand, seat) > CANDIDATES:
            raise AssertionError("more moves than the cap were listed")
        return listed(self, table, hand, seat)

    monkeypatch.setattr(SumCapture, "moves", moves)
    lazy = type(xeri.legal_moves(_trailed(CASSINO, 0, CANDIDATES + 1)[-1]))
    assert lazy is not legal.LegalMoves  # counted, not listed
    short = lazy._list

    def listed_moves(self):
        if len(self) > CANDIDATES:
            pytest.fail(f"{len(self):,} moves were listed")
        return short(self)

    monkeypatch.setattr(lazy, "_list", listed_moves)


def test_the_position_is_as_large_as_the_benchmark_s(huge):
    assert len(huge.table) >= 40
    assert len(xeri.legal_moves(huge)) > 10**9


def test_D3_candidates_are_legal_sorted_and_bounded_and_hold_every_trail(huge, no_listing):
    moves = xeri.legal_moves(huge)
    hand = huge.hands[huge.to_move]
    chosen = candidates(moves, random.Random(1), hand=hand, table=huge.table)
    assert len(chosen) <= len(hand) * (len(huge.table) + 1) + SAMPLED
    assert len(chosen) <= CANDIDATES
    assert all(move in moves for move in chosen)
    assert list(chosen) == sorted(set(chosen), key=xeri.move_sort_key)
    trails = [Trail(card=card) for card in hand if Trail(card=card) in moves]
    assert trails
    assert set(trails) <= set(chosen)
    again = candidates(moves, random.Random(1), hand=hand, table=huge.table)
    assert again == chosen  # the same generator, the same sample


def test_below_the_cap_candidates_are_the_moves_and_draw_nothing():
    state = xeri.new_game(CASSINO, rng=random.Random(4))
    moves = xeri.legal_moves(state)
    hand = state.hands[state.to_move]
    assert candidates(moves, _NoDraws(), hand=hand, table=state.table) is moves
    small = candidates(moves, random.Random(1), hand=hand, table=state.table, cap=2, sample=1)
    assert len(small) < len(moves)
    assert all(move in moves for move in small)


@pytest.mark.parametrize(
    "bot",
    [GreedyBot(), CountingBot(), PIMCBot(samples=2), ISMCTSBot(iterations=4)],
    ids=lambda bot: type(bot).__name__,
)
def test_bots_choose_a_legal_move_on_the_largest_table_without_listing(huge, no_listing, bot):
    move = bot.choose(xeri.observe(huge, huge.to_move), random.Random(2))
    assert move in xeri.legal_moves(huge)


def test_the_heuristic_bots_score_at_most_the_cap(huge, no_listing, monkeypatch):
    scored = []
    previewed = heuristic.preview

    def preview(observation, move):
        scored.append(move)
        return previewed(observation, move)

    monkeypatch.setattr(heuristic, "preview", preview)
    observation = xeri.observe(huge, huge.to_move)
    for bot in (GreedyBot(), CountingBot()):
        scored.clear()
        bot.choose(observation, random.Random(3))
        assert 0 < len(scored) <= CANDIDATES


def test_below_the_cap_the_heuristic_bots_draw_nothing():
    rng = random.Random(5)
    state = xeri.new_game(CASSINO, rng=rng)
    while state.to_move is not None and not state.is_round_over:
        observation = xeri.observe(state, state.to_move)
        assert len(xeri.legal_moves(state)) <= CANDIDATES
        for bot in (GreedyBot(), CountingBot()):
            bot.choose(observation, _NoDraws())
        moves = xeri.legal_moves(state)
        state = xeri.apply(state, moves[rng.randrange(len(moves))])


def test_the_command_line_s_hint_answers_on_the_largest_table_without_listing(huge, no_listing):
    hinter = _bot(_STRONGEST)  # the bot `xeri play` asks for a hint, without its clock
    move = hinter.choose(xeri.observe(huge, huge.to_move), random.Random(6))
    assert move in xeri.legal_moves(huge)


def test_the_endgame_solver_gives_up_on_more_moves_than_its_budget(no_listing):
    last = [s for s in _trailed(CASSINO, 0, CANDIDATES + 1) if not s.stock]
    assert last
    with pytest.raises(xeri.ArgumentError, match="budget"):
        solve_endgame(last[-1], max_nodes=CANDIDATES)


def test_a_rule_that_counts_but_would_list_to_check_gives_the_sample_only(huge, monkeypatch):
    moves = xeri.legal_moves(huge)
    monkeypatch.setattr(legal, "_lazy", lambda cls: (True, False))  # no lazy membership
    monkeypatch.setattr(type(moves), "_list", lambda self: pytest.fail("the moves were listed"))
    hand = huge.hands[huge.to_move]
    chosen = candidates(moves, random.Random(7), hand=hand, table=huge.table)
    assert 0 < len(chosen) <= SAMPLED

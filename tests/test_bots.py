"""Bots (X2): legal moves on every rule set, determinism, their documented choices, the solver.

A bot is handed an observation only, never a state; the greedy and the
counting bot's choices are checked on hand-built Greek and German positions
(G6, G7, G10, D3, D8); the endgame solver is checked against a brute-force
minimax written here over the public `legal_moves` and `apply`.
"""

from __future__ import annotations

import pickle
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xeri
from edge_games import all_rules, cards_in, hidden_cards, states
from support import cards, deal, play
from xeri import (
    GERMAN,
    GREEK,
    GREEK_FOUR,
    ArgumentError,
    Capture,
    Card,
    GameState,
    Observation,
    Rank,
    RuleSet,
    observe,
)
from xeri._agents.sampling import _Plan
from xeri.bots import (
    Bot,
    CountingBot,
    EndgameSolution,
    GreedyBot,
    ISMCTSBot,
    PIMCBot,
    RandomBot,
    solve_endgame,
)
from xeri.bots import search as search_module
from xeri.bots.endgame import _solve
from xeri.testing import rule_sets

PRESETS = (GREEK, GREEK_FOUR, GERMAN)
FAST_BOTS = (RandomBot(), GreedyBot(), CountingBot())
# Search bots with tiny budgets: the tests check legality, not strength.
SEARCH_BOTS = (PIMCBot(samples=2), ISMCTSBot(iterations=8))
BOTS = FAST_BOTS + SEARCH_BOTS


def bot_id(bot: Bot) -> str:
    return type(bot).__name__


ISMCTS_FORMS = (
    ISMCTSBot(iterations=6, paired=True),
    ISMCTSBot(iterations=8, depth=2),
    ISMCTSBot(iterations=8, model_others=True),
)


@pytest.mark.parametrize("rules", [GREEK, GREEK_FOUR, GERMAN], ids=lambda r: r.name)
@pytest.mark.parametrize("bot", ISMCTS_FORMS, ids=["paired", "depth-2", "model-others"])
def test_X2_every_form_of_ismcts_plays_legal_moves_to_the_end(rules, bot):
    rng = random.Random(11)
    state = xeri.new_game(rules, rng=rng)
    while not state.is_round_over:
        seen = observe(state, state.to_move)
        move = bot.choose(seen, rng)
        assert move in xeri.legal_moves(seen)
        state = xeri.apply(state, move)
    assert len(state.history) == 52 - rules.table_size


def test_paired_ismcts_replays_exactly_with_a_seeded_generator():
    state = xeri.new_game(GREEK, rng=random.Random(4))
    seen = observe(state, state.to_move)
    bot = ISMCTSBot(iterations=10, paired=True)
    assert bot.choose(seen, random.Random(9)) == bot.choose(seen, random.Random(9))


def without_endgame(bot: Bot) -> Bot:
    """The search bot with the exact endgame off; other bots as they are.

    A six-card German endgame takes the solver seconds to tens of seconds
    (60,000 to 230,000 positions), too long for these tests; the solver is
    checked on small German endgames below.
    """
    return attrs.evolve(bot, endgame=False) if isinstance(bot, (PIMCBot, ISMCTSBot)) else bot


def play_round(rules: RuleSet, bot: Bot, seed: int) -> GameState:
    """One round with `bot` in every seat; every move it picks is legal for its observation."""
    rng = random.Random(seed)
    state = xeri.new_game(rules, rng=rng)
    while not state.is_round_over:
        if state.is_chance:  # a redeal of the initial table
            state = xeri.apply(state, xeri.chance_move(state, rng))
            continue
        seen = observe(state, state.to_move)
        move = bot.choose(seen, rng)
        assert move in xeri.legal_moves(seen)
        state = xeri.apply(state, move)
    return state


# --------------------------------------------------------------------------
# Every bot plays every rule set


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
@pytest.mark.parametrize("bot", FAST_BOTS, ids=bot_id)
def test_X2_a_bot_plays_whole_rounds_of_every_preset(bot, rules):
    for seed in range(3):
        state = play_round(rules, bot, seed)
        assert len(state.history) == 52 - rules.table_size


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
@pytest.mark.parametrize("bot", SEARCH_BOTS, ids=bot_id)
def test_X2_a_search_bot_plays_a_whole_round_of_every_preset(bot, rules):
    if rules is GERMAN:
        bot = without_endgame(bot)
    state = play_round(rules, bot, 1)
    assert len(state.history) == 52 - rules.table_size


@pytest.mark.parametrize("bot", FAST_BOTS, ids=bot_id)
@settings(max_examples=15, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32))
def test_X2_a_bot_plays_a_whole_round_of_generated_rule_sets(bot, rules, seed):
    state = play_round(rules, bot, seed)
    assert len(state.history) == 52 - rules.table_size


@pytest.mark.parametrize("bot", SEARCH_BOTS, ids=bot_id)
@settings(max_examples=5, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32))
def test_X2_a_search_bot_plays_a_whole_round_of_generated_rule_sets(bot, rules, seed):
    # The endgame solver is off for generated rule sets: with two sides and
    # big hands it can be asked for a whole round at once (see
    # test_a_search_bot_falls_back_when_the_endgame_is_too_big_to_solve).
    state = play_round(rules, without_endgame(bot), seed)
    assert len(state.history) == 52 - rules.table_size


# --------------------------------------------------------------------------
# What a bot is given


OBSERVATION_FIELDS = {
    "rules",
    "seat",
    "phase",
    "dealer",
    "to_move",
    "hand",
    "hand_sizes",
    "face_down",
    "table",
    "stock_size",
    "history",
    "takes",
    "round_results",
    "bottom_card",
    "redealt",
    "replaced",  # public: the initial-table cards put face up under the stock (T2)
}


def test_X2_an_observation_has_no_field_for_other_hands_or_the_stock():
    assert {f.name for f in attrs.fields(Observation)} == OBSERVATION_FIELDS
    assert not {"hands", "stock", "dealing"} & OBSERVATION_FIELDS


@pytest.mark.parametrize("rules", all_rules(), ids=lambda r: r.name)
def test_X2_no_hidden_card_is_reachable_from_an_observation(rules):
    for state in states(rules, 6, rounds=1, every=5):
        for seat in range(rules.seats):
            hidden = hidden_cards(state, seat)
            seen = observe(state, seat)
            # Every card inside the observation: hand, table, history, takes
            # and the bottom card. The redealt tables were shown to all, and
            # their cards went back into the stock: public cards in hidden
            # places, left out here.
            assert not cards_in(attrs.evolve(seen, redealt=())) & hidden
            assert seen.stock_size == len(state.stock)


@pytest.mark.parametrize("bot", BOTS, ids=bot_id)
def test_X2_a_bot_handed_a_state_refuses_it(bot):
    state = xeri.new_game(GREEK, rng=random.Random(1))
    with pytest.raises(ArgumentError, match="a bot needs an Observation, not GameState"):
        bot.choose(state, random.Random(1))  # type: ignore[arg-type]


@pytest.mark.parametrize("bot", BOTS, ids=bot_id)
def test_a_bot_refuses_the_observation_of_a_seat_not_to_move(bot):
    state = xeri.new_game(GREEK, dealer=0, rng=random.Random(1))
    with pytest.raises(ArgumentError, match="seat 0 is not to move"):
        bot.choose(observe(state, 0), random.Random(1))
    with pytest.raises(ArgumentError, match="seat 0 is not to move"):
        bot.choose(observe(xeri.start(GREEK), 0), random.Random(1))  # chance deals first
    after = xeri.apply(state, xeri.legal_moves(state)[0])
    assert bot.choose(observe(after, 0), random.Random(1)) in xeri.legal_moves(after)


@pytest.mark.parametrize("bot", BOTS, ids=bot_id)
def test_a_bot_is_a_frozen_value_that_pickles(bot):
    assert isinstance(bot, Bot)
    assert pickle.loads(pickle.dumps(bot)) == bot
    assert hash(bot) == hash(attrs.evolve(bot))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        bot.x = 1  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "make",
    [
        lambda: PIMCBot(samples=0),
        lambda: PIMCBot(samples=2.0),
        lambda: PIMCBot(seconds=0),
        lambda: ISMCTSBot(iterations=-1),
        lambda: ISMCTSBot(seconds="1"),
    ],
)
def test_a_search_bot_refuses_a_budget_that_is_not_positive(make):
    with pytest.raises(ArgumentError, match="must be a positive"):
        make()


# --------------------------------------------------------------------------
# Determinism


def sample_observations() -> list[Observation]:
    """Observations of the seat to move: early and late in Greek, Greek-four and German rounds."""
    out = []
    for rules in PRESETS:
        rng = random.Random(3)
        state = xeri.new_game(rules, rng=rng)
        for plays in (0, 9, 20):
            while len(state.history) < plays:
                state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
            out.append(observe(state, state.to_move))
    return out


@pytest.mark.parametrize("bot", BOTS, ids=bot_id)
def test_the_same_seeded_generator_gives_the_same_move(bot):
    for seen in sample_observations():
        move = bot.choose(seen, random.Random(5))
        assert move in xeri.legal_moves(seen)
        assert bot.choose(seen, random.Random(5)) == move
        assert type(bot)(**attrs.asdict(bot)).choose(seen, random.Random(5)) == move


class NoRandom:
    """A generator that must not be used."""

    def shuffle(self, x: list[Card], /) -> None:
        raise AssertionError("shuffle was called")

    def randrange(self, stop: int, /) -> int:
        raise AssertionError("randrange was called")


@pytest.mark.parametrize("bot", [GreedyBot(), CountingBot()], ids=bot_id)
def test_the_greedy_and_counting_bots_never_draw_from_the_generator(bot):
    for seen in sample_observations():
        assert bot.choose(seen, NoRandom()) == bot.choose(seen, random.Random(0))


@pytest.mark.parametrize("bot", SEARCH_BOTS, ids=bot_id)
def test_a_search_bot_with_a_time_budget_still_decides(bot):
    # A huge count with a small time budget: the clock stops the search.
    huge = (
        attrs.evolve(bot, samples=10**9, seconds=0.01)
        if isinstance(bot, PIMCBot)
        else attrs.evolve(bot, iterations=10**9, seconds=0.01)
    )
    seen = sample_observations()[0]
    assert huge.choose(seen, random.Random(1)) in xeri.legal_moves(seen)


# --------------------------------------------------------------------------
# Hand-built positions


def greek(hands: dict[int, str], table: str, plays: str = "") -> Observation:
    """The observation of the seat to move after dealer 0 dealt these and these cards were played.

    Seat 1 plays first ([G5][rules-g5]); the table's last card is the top.
    """
    deck = deal(GREEK, dealer=0, hands={s: cards(h) for s, h in hands.items()}, table=cards(table))
    state = xeri.new_game(GREEK, deck=deck, dealer=0)
    assert state.phase is xeri.Phase.PLAY  # no redeal
    state = play(state, *plays.split())
    return observe(state, state.to_move)


def german(
    hands: dict[int, str], table: str, plays: tuple[xeri.PlayerMove, ...] = ()
) -> Observation:
    """The observation of the seat to move after a German deal by dealer 0 and these plays.

    Seat 1 plays first.
    """
    deck = deal(GERMAN, dealer=0, hands={s: cards(h) for s, h in hands.items()}, table=cards(table))
    state = xeri.new_game(GERMAN, deck=deck, dealer=0)
    for move in plays:
        state = xeri.apply(state, move)
    return observe(state, state.to_move)


def choose(bot: Bot, seen: Observation) -> xeri.PlayerMove:
    move = bot.choose(seen, random.Random(0))
    assert move in xeri.legal_moves(seen)
    return move


def test_G7_greedy_takes_a_xeri_over_an_ordinary_jack_capture():
    # Seat 1 takes the table with 5♦, seat 0 lays Q♣ alone; seat 1's J♦
    # comes before its Q♦ in move order and takes the Q♣ without a xeri.
    seen = greek({0: "Q♣", 1: "5♦ Q♦ J♦ 2♥ 3♥ 4♥"}, "3♣ 4♦ 6♥ 5♠", "5♦ Q♣")
    assert seen.table == cards("Q♣")
    assert xeri.legal_moves(seen).index(Card.parse("J♦")) < xeri.legal_moves(seen).index(
        Card.parse("Q♦")
    )
    assert choose(GreedyBot(), seen) == Card.parse("Q♦")


def test_G12_greedy_takes_a_lone_10_of_diamonds_with_a_10_not_a_jack():
    seen = greek({0: "10♦", 1: "5♦ J♠ 10♠ 2♥ 3♥ 4♥"}, "3♣ 4♦ 6♥ 5♠", "5♦ 10♦")
    assert choose(GreedyBot(), seen) == Card.parse("10♠")  # 13 points, not 3


def test_G7_greedy_takes_a_lone_jack_with_a_jack():
    seen = greek({0: "J♥", 1: "5♦ J♣ 2♥ 3♥ 4♥ 8♥"}, "3♣ 4♦ 6♥ 5♠", "5♦ J♥")
    assert choose(GreedyBot(), seen) == Card.parse("J♣")  # a jack xeri


def test_G10_greedy_plays_the_most_points_first():
    # 5♦ and J♣ both take the pile; the Jack is worth a point more.
    seen = greek({1: "5♦ J♣ 2♥ 3♥ 4♥ 8♥"}, "3♣ 10♦ 6♥ 5♠")
    assert choose(GreedyBot(), seen) == Card.parse("J♣")


def test_D8_greedy_prefers_points_to_cards():
    # 10♣ takes 10♦ (2 points, 2 cards) or 3♠ + 7♥ (no points, 3 cards).
    seen = german({1: "10♣ K♠ Q♦ K♦ Q♠ 8♥"}, "10♦ 3♠ 7♥ 9♣")
    assert choose(GreedyBot(), seen) == Capture(card=Card.parse("10♣"), taken=cards("10♦"))


def test_D3_greedy_breaks_a_tie_in_points_by_the_most_cards():
    # Seat 1 lays K♠, seat 0 lays 3♥; then 9♣ takes 2♠ + 7♦ (first in move
    # order) or the three 3s, one card more; none is worth a point.
    trails = (xeri.Trail(card=Card.parse("K♠")), xeri.Trail(card=Card.parse("3♥")))
    seen = german({0: "3♥", 1: "9♣ K♠ Q♦ K♦ Q♠ J♥"}, "2♠ 7♦ 3♣ 3♦", trails)
    assert seen.hand == cards("9♣ J♥ Q♦ Q♠ K♦")
    first = xeri.legal_moves(seen)[0]
    assert first == Capture(card=Card.parse("9♣"), taken=cards("2♠ 7♦"))
    expected = Capture(card=Card.parse("9♣"), taken=cards("3♣ 3♦ 3♥"))
    assert choose(GreedyBot(), seen) == expected


def test_G10_greedy_breaks_a_tie_in_points_and_cards_by_the_card_worth_less():
    # Nothing takes the pile: every move is worth 0 points and 0 cards. The
    # A♠ comes first in move order but is worth a point (as the K♥ is); the
    # first of the cards worth nothing is played.
    seen = greek({1: "A♠ 8♣ 9♣ K♥ 2♥ 3♥"}, "3♣ 4♦ 6♥ 5♠")
    assert xeri.legal_moves(seen)[0] == Card.parse("A♠")
    assert choose(GreedyBot(), seen) == Card.parse("2♥")


def test_G10_greedy_breaks_a_full_tie_by_move_order():
    seen = greek({1: "8♣ 9♣ 2♥ 3♥ 4♥ 7♥"}, "3♣ 4♦ 6♥ 5♠")
    assert choose(GreedyBot(), seen) == xeri.legal_moves(seen)[0] == Card.parse("2♥")


def test_G7_counting_lays_no_card_the_next_seat_can_likely_take_as_a_xeri():
    # The pile is empty after seat 1's capture. The 7♠ was on the table and
    # seat 0 holds the other three 7s: nobody can take a lone 7 by its rank.
    # Three Kings, 2s and 9s are unseen.
    seen = greek({0: "K♠ 7♣ 7♦ 7♥ 2♦ 9♦", 1: "5♦"}, "3♣ 4♦ 7♠ 5♠", "5♦")
    assert seen.table == ()
    assert choose(CountingBot(), seen).rank is Rank.SEVEN  # type: ignore[union-attr]
    # The greedy bot sees no difference and lays the first card worth nothing.
    assert choose(GreedyBot(), seen) == Card.parse("2♦")


def test_G7_counting_keeps_the_sweeper_for_a_large_pile():
    # A pile of two cards worth nothing: 6♣ takes it by rank, J♣ sweeps it.
    seen = greek({0: "9♣ 6♣ J♣ 2♦ 8♦ K♠", 1: "5♦ 6♦"}, "3♣ 4♦ 7♠ 5♠", "5♦ 9♣ 6♦")
    assert seen.table == cards("9♣ 6♦")
    assert choose(CountingBot(), seen) == Card.parse("6♣")
    # The greedy bot takes the Jack's point.
    assert choose(GreedyBot(), seen) == Card.parse("J♣")


def test_G7_counting_lays_a_card_rather_than_sweep_a_small_pile():
    # No card takes the two-card pile by rank; a lone 7 is safe to add.
    seen = greek({0: "9♣ J♣ 7♣ 7♦ 7♥ K♠", 1: "5♦ 6♦"}, "3♣ 4♦ 7♠ 5♠", "5♦ 9♣ 6♦")
    assert choose(CountingBot(), seen) != Card.parse("J♣")
    # Without a price on the sweeper it sweeps.
    assert choose(CountingBot(sweeper_value=0.0), seen) == Card.parse("J♣")


def test_G7_counting_sweeps_a_large_pile_with_the_jack():
    # Five cards worth 3 points with the Jack, and no card of the top's rank.
    seen = greek({1: "J♣ 2♦ 3♦ 8♣ 9♥ K♦"}, "3♣ 10♦ 6♥ A♠")
    assert choose(CountingBot(), seen) == Card.parse("J♣")


# --------------------------------------------------------------------------
# The endgame solver


def brute_force(state: GameState, side: int) -> int:
    """The round's value for `side` (its total minus the other's), both sides playing their best.

    Plain minimax over every legal move, without pruning or memory.
    """
    if state.to_move is None:
        total = state.round_results[-1].total
        return total[side] - total[1 - side]
    values = [brute_force(xeri.apply(state, move), side) for move in xeri.legal_moves(state)]
    return max(values) if state.rules.sides[state.to_move] == side else min(values)


def endgame(rules: RuleSet, seed: int, held: int) -> GameState:
    """A random round played on until the stock is empty and the mover holds `held` cards."""
    rng = random.Random(seed)
    state = xeri.new_game(rules, rng=rng)
    while state.stock or len(state.hands[state.to_move]) > held:
        state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    return state


def move_values(state: GameState) -> dict[xeri.PlayerMove, int]:
    """Each legal move's brute-force value for the mover's side."""
    side = state.rules.sides[state.to_move]
    return {m: brute_force(xeri.apply(state, m), side) for m in xeri.legal_moves(state)}


def check_solution(state: GameState) -> EndgameSolution:
    """`solve_endgame` has the brute-force value, and its move reaches it."""
    values = move_values(state)
    solution = solve_endgame(state)
    assert solution.value == max(values.values())
    assert values[solution.move] == solution.value
    assert solution.nodes >= 1
    return solution


@pytest.mark.parametrize("seed", range(25))
def test_G10_the_solver_agrees_with_brute_force_on_greek_endgames(seed):
    for held in (1, 2, 3):
        state = endgame(GREEK, seed, held)
        assert not state.stock
        assert all(1 <= len(h) <= 3 for h in state.hands if h)
        check_solution(state)


@pytest.mark.parametrize("seed", range(8))
def test_D8_the_solver_agrees_with_brute_force_on_german_endgames(seed):
    for held in (1, 2):
        check_solution(endgame(GERMAN, seed, held))


ADJACENT = attrs.evolve(GREEK_FOUR, name="greek-four-adjacent-test", sides=(0, 0, 1, 1))
"""Partners side by side: a side moves twice in a row."""


@pytest.mark.parametrize("rules", [GREEK_FOUR, ADJACENT], ids=lambda r: r.name)
@pytest.mark.parametrize("seed", range(4))
def test_F7_the_solver_agrees_with_brute_force_with_partners(rules, seed):
    # A full state of the four-player game, studied with every card known.
    check_solution(endgame(rules, seed, 2))


@settings(max_examples=30, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32))
def test_the_solver_agrees_with_brute_force_on_generated_rule_sets(rules, seed):
    if rules.num_sides != 2:
        return
    rng = random.Random(seed)
    state = xeri.new_game(rules, rng=rng)
    while state.stock or sum(map(len, state.hands)) > 4:
        if state.is_chance:
            if state.is_round_over:  # this round has no small endgame to solve
                return
            state = xeri.apply(state, xeri.chance_move(state, rng))
        else:
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    check_solution(state)


def test_the_solvers_move_is_the_first_best_in_search_order():
    # EndgameSolution.move: among equals, the first the search tried: the
    # moves that win the most points at once first, then legal-move order.
    for seed in range(40):
        for held in (2, 3):
            state = endgame(GREEK, seed, held)
            values = move_values(state)
            best = max(values.values())
            order = sorted(xeri.legal_moves(state), key=lambda m: -xeri.preview(state, m).points)
            first = next(m for m in order if values[m] == best)
            assert solve_endgame(state).move == first, (seed, held)


def test_the_solver_refuses_more_than_two_sides():
    rules = attrs.evolve(GREEK, name="greek-three-test", seats=3, sides=(0, 1, 2), hand_size=4)
    state = endgame(rules, 1, 2)
    with pytest.raises(ArgumentError, match="two-sided games, not 3 sides"):
        solve_endgame(state)


def test_the_solver_refuses_a_state_where_nobody_is_to_move():
    over = endgame(GREEK, 2, 1)
    while over.to_move is not None:
        over = xeri.apply(over, xeri.legal_moves(over)[0])
    for state in (xeri.start(GREEK), over):
        assert state.is_chance or state.is_over
        with pytest.raises(ArgumentError, match="a seat to move"):
            solve_endgame(state)
    with pytest.raises(ArgumentError, match="a seat to move"):
        solve_endgame(observe(endgame(GREEK, 2, 1), 0))  # type: ignore[arg-type]


def test_the_solver_gives_up_past_its_node_limit():
    state = endgame(GREEK, 3, 6)
    with pytest.raises(ArgumentError, match="passed its budget of 10 positions"):
        solve_endgame(state, max_nodes=10)


def test_the_solver_gives_up_past_its_time_limit():
    # The clock is read every 64 positions; a budget of a nanosecond has passed by then.
    state = endgame(GREEK, 3, 6)
    with pytest.raises(ArgumentError, match=r"passed its budget of .* or 1e-09 seconds"):
        solve_endgame(state, max_seconds=1e-9)


@pytest.mark.parametrize("bot", SEARCH_BOTS, ids=bot_id)
def test_G10_a_search_bot_plays_the_solvers_value_once_the_round_is_determined(bot):
    # Two players, an empty stock: every unseen card is in the other hand.
    for seed in range(10):
        for held in (2, 3, 4):
            state = endgame(GREEK, seed, held)
            values = move_values(state)
            move = bot.choose(observe(state, state.to_move), random.Random(seed))
            assert values[move] == max(values.values()), (seed, held)


@pytest.mark.parametrize("bot", SEARCH_BOTS, ids=bot_id)
def test_a_search_bot_falls_back_when_the_endgame_is_too_big_to_solve(bot, monkeypatch):
    # One deal of 24 cards each: the stock is empty from the first play, so
    # the round is "determined" at once; the bots are let call the solver on
    # 48 cards (they stop at far fewer). With the solver's default limit the
    # bot searches two million positions (over a minute) and then gives up;
    # here the limit is lowered to reach that point quickly.
    monkeypatch.setattr("xeri.bots.search._ENDGAME_NODES", 5_000)
    monkeypatch.setattr("xeri.bots.search._ENDGAME_CARDS", {True: 48, False: 48})
    answers = []

    def solve(*args):
        answers.append(_solve(*args))
        return answers[-1]

    monkeypatch.setattr("xeri.bots.search._solve", solve)
    rules = attrs.evolve(GREEK, name="greek-one-deal-test", hand_size=24, redeal=xeri.Redeal.NEVER)
    state = xeri.new_game(rules, dealer=0, rng=random.Random(1))
    assert not state.stock
    seen = observe(state, state.to_move)
    assert bot.choose(seen, random.Random(1)) in xeri.legal_moves(seen)
    assert answers == [None]  # the solver gave up, and the bot sampled instead


def test_the_solver_refuses_a_budget_that_is_not_positive():
    state = endgame(GREEK, 2, 1)
    for nodes in (0, -1, 2.0, True):
        with pytest.raises(ArgumentError, match="max_nodes must be a positive int"):
            solve_endgame(state, max_nodes=nodes)  # type: ignore[arg-type]  # the point of the test
    for seconds in (0, -1.0, float("nan"), float("inf"), "1"):
        with pytest.raises(ArgumentError, match="max_seconds must be a positive number"):
            solve_endgame(state, max_seconds=seconds)  # type: ignore[arg-type]  # the point


def test_the_solver_tells_the_search_bots_it_gave_up_without_raising():
    # The bots fall back to sampling on this signal; no exception is caught for it, so
    # an illegal move inside the search (a bug) could never pass for a large endgame.
    state = endgame(GREEK, 3, 6)
    assert _solve(state, 10, None) is None
    assert _solve(state, 2_000_000, None) == solve_endgame(state)


# --------------------------------------------------------------------------
# The deadline of a decision (CPU time), on top of the fixed counts


class FakeCPU:
    """A thread clock that moves `step` seconds every time it is read: no real time is measured."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def counting_draws(monkeypatch) -> list[int]:
    """Count the states the search bots draw from their sampling plan."""
    draws: list[int] = []
    real = _Plan.draw

    def draw(self, rng):
        draws.append(1)
        return real(self, rng)

    monkeypatch.setattr(_Plan, "draw", draw)
    return draws


@pytest.mark.parametrize(
    "bot",
    [PIMCBot(samples=10**9, cpu_seconds=0.1), ISMCTSBot(iterations=10**9, cpu_seconds=0.1)],
    ids=["pimc", "ismcts"],
)
@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_the_cpu_deadline_stops_a_huge_count_with_a_legal_move(bot, rules, monkeypatch):
    # Every read of the clock moves it a tenth of the deadline: the search
    # stops after a few units of work, long before its count, with a legal move.
    monkeypatch.setattr("xeri.bots.search.time.thread_time", FakeCPU(0.01))
    draws = counting_draws(monkeypatch)
    for seen in sample_observations_of(rules):
        draws.clear()
        move = without_endgame(bot).choose(seen, random.Random(2))
        assert move in xeri.legal_moves(seen)
        assert 1 <= len(draws) <= 10


def sample_observations_of(rules: RuleSet) -> list[Observation]:
    return [s for s in sample_observations() if s.rules is rules and len(xeri.legal_moves(s)) > 1]


class ScriptedCPU:
    """A thread clock that reads `times` in turn, then the last of them for ever."""

    def __init__(self, *times: float) -> None:
        self.times = list(times)

    def __call__(self) -> float:
        return self.times.pop(0) if len(self.times) > 1 else self.times[0]


def test_the_cpu_deadline_is_asked_after_every_sample_so_the_next_would_not_pass_it(monkeypatch):
    # Start at 0 (deadline 0.1); after the first sample 0.04 (the next, as
    # long, would end at 0.08: go on); after the second 0.08 (0.12: stop).
    # The clock is read before each playout of a sample after the first
    # (0.04, 0.04, ... all inside the deadline), so the script repeats those.
    seen = sample_observations()[0]
    moves = len(xeri.legal_moves(seen))
    monkeypatch.setattr(
        "xeri.bots.search.time.thread_time", ScriptedCPU(0.0, 0.04, *[0.04] * moves, 0.08)
    )
    draws = counting_draws(monkeypatch)
    PIMCBot(samples=50, endgame=False, cpu_seconds=0.1).choose(seen, random.Random(1))
    assert len(draws) == 2


def test_a_long_sample_stops_at_the_deadline_mid_way_with_a_legal_move(monkeypatch):
    # The deadline passes during the second sample, after its first playout:
    # the search stops there, every move has had a playout, the means decide.
    seen = sample_observations()[0]
    moves = len(xeri.legal_moves(seen))
    assert moves > 2
    monkeypatch.setattr("xeri.bots.search.time.thread_time", ScriptedCPU(0.0, 0.01, 0.02, 0.5))
    draws = counting_draws(monkeypatch)
    margins = []
    real = search_module._margin

    def margin(total, side):
        margins.append(1)
        return real(total, side)

    monkeypatch.setattr(search_module, "_margin", margin)
    move = PIMCBot(samples=50, endgame=False, cpu_seconds=0.1).choose(seen, random.Random(1))
    assert move in xeri.legal_moves(seen)
    assert len(draws) == 2
    assert len(margins) == moves + 1


def test_a_fixed_count_has_no_deadline_so_the_count_alone_stops_the_search(monkeypatch):
    monkeypatch.setattr("xeri.bots.search.time.thread_time", FakeCPU(10.0))
    draws = counting_draws(monkeypatch)
    seen = sample_observations()[0]
    PIMCBot(samples=7, endgame=False).choose(seen, random.Random(1))
    assert len(draws) == 7
    draws.clear()
    ISMCTSBot(iterations=5, endgame=False).choose(seen, random.Random(1))
    assert len(draws) == 5


def test_the_deadline_is_a_tenth_of_a_second_at_the_default_count_and_none_with_a_fixed_one():
    assert PIMCBot().cpu_deadline() == ISMCTSBot().cpu_deadline() == 0.1
    assert PIMCBot(samples=3).cpu_deadline() is None
    assert ISMCTSBot(iterations=3).cpu_deadline() is None
    assert ISMCTSBot(iterations=3, cpu_seconds=0.5).cpu_deadline() == 0.5
    assert PIMCBot(cpu_seconds=0.02).cpu_deadline() == 0.02
    with pytest.raises(ArgumentError, match=r"PIMCBot\.cpu_seconds must be a positive number"):
        PIMCBot(cpu_seconds=0)


@pytest.mark.parametrize("bot", SEARCH_BOTS, ids=bot_id)
def test_the_endgame_solver_stops_at_the_decisions_deadline_and_the_bot_samples(bot, monkeypatch):
    # The whole last deal of a two-player Greek round: the solver is called,
    # the clock has passed the deadline at its first check, it gives up and
    # the bot samples (fewer units than its count) and still plays legally.
    state = endgame(GREEK, 4, 6)
    assert sum(map(len, state.hands)) == 12
    monkeypatch.setattr("xeri.bots.search.time.thread_time", FakeCPU(1.0))
    answers = []

    def solve(*args):
        answers.append(_solve(*args))
        return answers[-1]

    monkeypatch.setattr("xeri.bots.search._solve", solve)
    seen = observe(state, state.to_move)
    timed = attrs.evolve(bot, cpu_seconds=0.1)
    assert timed.choose(seen, random.Random(3)) in xeri.legal_moves(seen)
    assert answers == [None]


def test_the_solver_stops_when_told_its_time_is_up():
    state = endgame(GREEK, 3, 6)
    assert _solve(state, 2_000_000, lambda: True) is None
    assert _solve(state, 2_000_000, lambda: False) == solve_endgame(state)


@pytest.mark.parametrize("bot", [PIMCBot(), ISMCTSBot()], ids=["pimc", "ismcts"])
def test_a_default_search_bot_solves_the_whole_last_deal_of_greek(bot, monkeypatch):
    # Twelve cards left, none unseen by the mover: the exact move, not a
    # sample (these two endgames take the solver about 5,000 positions; the
    # deadline is lifted so that a busy machine cannot cut the solver short).
    bot = attrs.evolve(bot, cpu_seconds=1e9)
    answers = []

    def solve(*args):
        answers.append(_solve(*args))
        return answers[-1]

    monkeypatch.setattr("xeri.bots.search._solve", solve)
    for seed in (3, 7):
        state = endgame(GREEK, seed, 6)
        assert sum(map(len, state.hands)) == 12
        solution = solve_endgame(state)
        seen = observe(state, state.to_move)
        values = {m: -solve_value(xeri.apply(state, m), state) for m in xeri.legal_moves(state)}
        answers.clear()
        assert values[bot.choose(seen, random.Random(seed))] == solution.value
        assert len(answers) == 1
        assert answers[0] is not None


def solve_value(child: GameState, parent: GameState) -> int:
    """The value of `child` for the side to move in `parent`, negated (solver's sign)."""
    side = parent.rules.sides[parent.to_move]
    if child.to_move is None:
        total = child.round_results[-1].total
        return total[1 - side] - total[side]
    value = solve_endgame(child).value
    return value if child.rules.sides[child.to_move] != side else -value


@pytest.mark.parametrize("bot", [PIMCBot(samples=12), ISMCTSBot(iterations=12)], ids=bot_id)
@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_a_search_bot_with_fixed_counts_and_no_deadline_replays_exactly(bot, rules):
    exact = attrs.evolve(without_endgame(bot), cpu_seconds=None)
    for seen in sample_observations_of(rules):
        move = exact.choose(seen, random.Random(8))
        assert exact.choose(seen, random.Random(8)) == move


# --------------------------------------------------------------------------
# The pile games' playout policy counts what its mover has seen


def pile_pick(state: GameState, seed: int) -> Card:
    """The card the search bots' pile playout policy lays for the seat to move in `state`."""
    from xeri._agents.rollouts import RolloutView  # noqa: PLC0415  # only these tests
    from xeri.bots.search import _policy_for  # noqa: PLC0415  # only these tests

    policy = _policy_for(state.rules, random.Random(seed))
    policy.start(state)  # type: ignore[attr-defined]  # the pile policy counts from a state
    view = RolloutView(state.rules)
    view.seat = state.to_move  # type: ignore[assignment]  # a seat is to move
    view.moves = xeri.legal_moves(state)
    view.table, view.hands, view.stock = state.table, state.hands, len(state.stock)
    return view.moves[policy(view)].card


def test_G7_the_pile_playout_lays_a_rank_whose_other_cards_are_all_seen():
    # Three nines lie on the pile: nobody can take the fourth by its rank,
    # while two queens, two kings and three sevens are unseen by the mover.
    deck = deal(
        GREEK,
        dealer=0,
        hands={1: cards("9♠ K♠ K♦ Q♠ Q♦ 7♠")},
        table=cards("9♣ 9♦ 9♥ 4♣"),
    )
    state = xeri.new_game(GREEK, deck=deck, dealer=0)
    assert state.to_move == 1
    for seed in range(10):
        assert pile_pick(state, seed) == Card.parse("9♠")


def test_X2_the_pile_playout_lays_the_same_card_whatever_the_hidden_cards_are():
    # It reads no hidden card: states that differ only in what the mover
    # cannot see (other hands, stock) give the same pick for the same seed.
    for seed in range(6):
        state = endgame(GREEK, seed, 6) if seed % 2 else None
        if state is None:
            rng = random.Random(seed)
            state = xeri.new_game(GREEK, rng=rng)
            for _ in range(7):
                state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
        seen = observe(state, state.to_move)
        picks = {pile_pick(xeri.determinize(seen, random.Random(k)), seed) for k in range(8)}
        assert len(picks) == 1

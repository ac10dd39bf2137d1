"""`xeri.simulate`: identical results on every executor, sound statistics, checked input.

Every deal's randomness derives from the seed and the deal's index alone, so
the same seed gives the same `SimulationResult` in this process, on threads,
on processes and on a Dask cluster, however the deals are chunked.
"""

from __future__ import annotations

import json
import math
import multiprocessing
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest
from distributed import Client, LocalCluster

import xeri
from xeri import GREEK, GREEK_FOUR, ArgumentError, SimulationResult, simulate
from xeri.bots import GreedyBot, RandomBot

BOTS = (GreedyBot(), RandomBot())
DEALS = 12
SEED = 2024


@pytest.fixture(scope="module")
def baseline() -> SimulationResult:
    """The in-process result every executor must reproduce."""
    return simulate(GREEK, BOTS, deals=DEALS, seed=SEED)


@pytest.fixture(scope="module")
def dask_executor():
    # One worker process, as a cluster runs the chunks: each is serialised
    # to it by Dask. It starts in about two seconds; threads_per_worker=1
    # keeps it light on a loaded machine, and no dashboard is served.
    with (
        LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client.get_executor()


def test_the_default_chunks_give_the_in_process_result(baseline):
    assert baseline.games == baseline.rounds == 2 * DEALS
    assert baseline.deals == DEALS
    assert baseline.seed == SEED
    assert baseline.duplicate
    assert not baseline.matches
    assert len(baseline.differences) == DEALS
    assert baseline.rules == "greek"
    assert baseline.bots == ("GreedyBot()", "RandomBot()")


@pytest.mark.parametrize("chunk_size", [1, 5, DEALS, 100])
def test_the_chunk_size_does_not_change_the_result(baseline, chunk_size):
    result = simulate(GREEK, BOTS, deals=DEALS, seed=SEED, chunk_size=chunk_size)
    assert result == baseline


def test_a_thread_pool_gives_the_in_process_result(baseline):
    with ThreadPoolExecutor(2) as executor:
        result = simulate(GREEK, BOTS, deals=DEALS, seed=SEED, executor=executor, chunk_size=2)
    assert result == baseline


def test_a_process_pool_gives_the_in_process_result(baseline):
    # Spawned workers: forking a process that runs threads (a Dask cluster
    # may have left some) is unsafe, and Python 3.12 warns about it.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=context) as executor:
        result = simulate(GREEK, BOTS, deals=DEALS, seed=SEED, executor=executor, chunk_size=3)
    assert result == baseline


def test_a_dask_cluster_gives_the_in_process_result(baseline, dask_executor):
    result = simulate(GREEK, BOTS, deals=DEALS, seed=SEED, executor=dask_executor, chunk_size=3)
    assert result == baseline
    assert result.to_dict() | {"seconds": None} == baseline.to_dict() | {"seconds": None}


def test_a_custom_rule_set_and_its_bots_are_sent_to_other_processes():
    # A rule set that is not registered pickles as its fields.
    rules = xeri.RuleSet(name="simulate-custom", hand_size=4, redeal=xeri.Redeal.NEVER)
    here = simulate(rules, BOTS, deals=4, seed=3)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as executor:
        there = simulate(rules, BOTS, deals=4, seed=3, executor=executor, chunk_size=2)
    assert there == here
    assert here.rules == "simulate-custom"


# --------------------------------------------------------------------------
# Seeds


def test_the_same_seed_gives_the_same_result_and_another_seed_another(baseline):
    assert simulate(GREEK, BOTS, deals=DEALS, seed=SEED) == baseline
    other = simulate(GREEK, BOTS, deals=DEALS, seed=SEED + 1)
    assert other != baseline
    assert other.differences != baseline.differences


def test_without_a_seed_the_recorded_seed_reproduces_the_result():
    first = simulate(GREEK, BOTS, deals=4)
    assert type(first.seed) is int
    assert simulate(GREEK, BOTS, deals=4, seed=first.seed) == first
    # Two draws of a seed differ (63 random bits).
    assert simulate(GREEK, BOTS, deals=1).seed != simulate(GREEK, BOTS, deals=1).seed


def test_the_timings_vary_and_take_no_part_in_equality(baseline):
    again = simulate(GREEK, BOTS, deals=DEALS, seed=SEED)
    assert len(again.seconds) == len(BOTS)
    assert all(s >= 0 for s in again.seconds)
    assert again == baseline


# --------------------------------------------------------------------------
# What is counted


def test_F1_partners_share_a_bot_in_the_four_player_game():
    result = simulate(GREEK_FOUR, BOTS, deals=4, seed=5)
    assert result.games == result.rounds == 8
    # Each bot plays both seats of its side: 48 plays of a round, 24 each.
    assert result.decisions == (8 * 24, 8 * 24)
    assert sum(result.round_wins) + result.round_draws == 8
    assert len(result.differences) == 4


def test_duplicate_deals_seat_each_bot_on_every_side():
    single = simulate(GREEK, BOTS, deals=6, seed=8, duplicate=False)
    double = simulate(GREEK, BOTS, deals=6, seed=8, duplicate=True)
    assert (single.games, single.rounds) == (6, 6)
    assert (double.games, double.rounds) == (12, 12)
    assert not single.duplicate
    # Every round has 48 plays: 24 per bot when each plays one side.
    assert single.decisions == (6 * 24, 6 * 24)
    assert double.decisions == (12 * 24, 12 * 24)


def test_a_bot_against_itself_on_duplicate_deals_measures_no_difference():
    # Both seatings of a deal play the same cards with the same bot on each
    # side and the same draws: the duplicate pair cancels exactly.
    result = simulate(GREEK, (GreedyBot(), GreedyBot()), deals=5, seed=4)
    assert result.differences == (0.0,) * 5
    assert result.points[0] == result.points[1]


def test_G10_round_points_and_wins_add_up():
    result = simulate(GREEK, BOTS, deals=10, seed=6)
    assert sum(result.round_wins) + result.round_draws == result.rounds
    # Without xeris a Greek round is worth 25 points (22 on a 26-26 tie).
    assert sum(result.points) >= 22 * result.rounds
    assert math.isclose(sum(result.mean_points), sum(result.points) / result.rounds)
    assert math.isclose(
        result.difference, result.mean_points[0] - result.mean_points[1], abs_tol=1e-9
    )


def test_G11_matches_count_match_wins():
    result = simulate(GREEK, BOTS, deals=3, seed=9, matches=True)
    assert result.matches
    assert result.games == 6
    assert result.rounds > result.games  # a match to 151 takes several rounds
    # A Greek match cannot end drawn: it goes on until one side alone reaches the target.
    assert sum(result.match_wins) == result.games


@pytest.mark.parametrize("seed", range(6))
def test_F8_a_match_is_won_by_most_round_wins_and_drawn_on_equal_wins(seed):
    # One match of four rounds: bot 0 plays side 0, bot 1 side 1.
    bots = (RandomBot(), RandomBot())
    result = simulate(GREEK_FOUR, bots, deals=1, seed=seed, duplicate=False, matches=True)
    assert (result.games, result.rounds) == (1, 4)
    wins = result.round_wins
    assert sum(wins) + result.round_draws == 4
    expected = (int(wins[0] > wins[1]), int(wins[1] > wins[0]))
    assert result.match_wins == expected


def test_F8_match_wins_add_up_to_the_matches_not_drawn():
    result = simulate(GREEK_FOUR, (RandomBot(), RandomBot()), deals=6, seed=1, matches=True)
    assert (result.games, result.rounds) == (12, 48)
    assert sum(result.match_wins) <= result.games


def test_single_rounds_win_no_matches():
    result = simulate(GREEK, BOTS, deals=3, seed=9)
    assert result.match_wins == (0, 0)


def test_progress_counts_the_deals_done_up_to_all_of_them():
    calls: list[tuple[int, int]] = []
    simulate(GREEK, BOTS, deals=7, seed=1, chunk_size=3, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(3, 7), (6, 7), (7, 7)]


def test_progress_with_an_executor_increases_to_all_the_deals():
    calls: list[tuple[int, int]] = []
    with ThreadPoolExecutor(2) as executor:
        simulate(
            GREEK,
            BOTS,
            deals=9,
            seed=1,
            chunk_size=2,
            executor=executor,
            progress=lambda d, t: calls.append((d, t)),
        )
    done = [d for d, _ in calls]
    assert len(calls) == 5
    assert done == sorted(done)
    assert len(set(done)) == len(done)
    assert calls[-1] == (9, 9)
    assert {t for _, t in calls} == {9}


# --------------------------------------------------------------------------
# The interval


def test_the_interval_holds_the_difference():
    result = simulate(GREEK, BOTS, deals=10, seed=12)
    low, high = result.interval
    assert low < result.difference < high
    assert math.isclose(result.difference, sum(result.differences) / 10)


def test_one_deal_gives_an_infinite_interval():
    result = simulate(GREEK, BOTS, deals=1, seed=12)
    assert result.interval == (-math.inf, math.inf)


def test_greedy_beats_random_on_duplicate_deals():
    # A real check of the bots and of the statistics: the greedy bot's edge
    # is several points a round, clear of zero over 40 duplicate deals.
    result = simulate(GREEK, BOTS, deals=40, seed=11)
    low, _ = result.interval
    assert low > 0
    assert result.mean_points[0] > result.mean_points[1]
    assert result.round_wins[0] > result.round_wins[1]


# --------------------------------------------------------------------------
# Reporting


def test_to_dict_is_json_ready_and_keeps_the_figures(baseline):
    data = json.loads(json.dumps(baseline.to_dict()))
    assert data["seed"] == SEED
    assert data["bots"] == ["GreedyBot()", "RandomBot()"]
    assert data["deals"] == DEALS
    assert data["difference"] == baseline.difference
    assert data["interval"] == list(baseline.interval)
    assert data["mean_points"] == list(baseline.mean_points)
    assert data["round_wins"] == list(baseline.round_wins)


def test_the_table_names_each_bot_and_the_interval(baseline):
    text = baseline.table()
    assert "GreedyBot()" in text
    assert "RandomBot()" in text
    low, high = baseline.interval
    assert f"[{low:+.3f}, {high:+.3f}]" in text
    assert f"{baseline.difference:+.3f}" in text
    assert f"over {DEALS} deals" in text
    assert f"seed {SEED}" in text


# --------------------------------------------------------------------------
# Bad input


@pytest.mark.parametrize("bots", [(), (GreedyBot(),), (GreedyBot(), RandomBot(), RandomBot())])
def test_one_bot_per_side_is_required(bots):
    with pytest.raises(ArgumentError, match="one bot per side"):
        simulate(GREEK, bots, deals=2, seed=1)


def test_F1_the_four_player_game_takes_one_bot_per_partnership():
    with pytest.raises(ArgumentError, match="2 sides, 4 bots"):
        simulate(GREEK_FOUR, BOTS * 2, deals=2, seed=1)


@pytest.mark.parametrize("deals", [0, -1, 1.5, True, None])
def test_deals_must_be_a_positive_int(deals):
    with pytest.raises(ArgumentError, match="deals must be a positive int"):
        simulate(GREEK, BOTS, deals=deals, seed=1)


@pytest.mark.parametrize("chunk_size", [0, -3, 2.0, False])
def test_chunk_size_must_be_a_positive_int(chunk_size):
    with pytest.raises(ArgumentError, match="chunk_size must be a positive int"):
        simulate(GREEK, BOTS, deals=2, seed=1, chunk_size=chunk_size)


def test_the_rules_must_be_a_rule_set():
    with pytest.raises(ArgumentError, match="needs a RuleSet"):
        simulate("greek", BOTS, deals=2, seed=1)  # type: ignore[arg-type]

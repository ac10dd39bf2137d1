"""The bot registry, bots of one's own, the search bots' defaults, the playouts, the league (X2).

Every shipped kind, by the registry's name, returns a legal move on every
preset and on generated rule sets, never reads beyond its observation
(look-alike observations: the same choice for the same generator), and
replays exactly with fixed counts and a seed. Nothing here is timed.
"""

from __future__ import annotations

import io
import random
import sys

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xeri
from xeri import (
    CASSINO,
    GERMAN,
    GREEK,
    GREEK_FOUR,
    PISTI,
    SCOPA,
    ArgumentError,
    Build,
    Capture,
    Card,
    Combine,
    IllegalMoveError,
    Trail,
    XeriError,
    observe,
)
from xeri._agents.rollouts import RolloutView
from xeri._core.engine import moves_on
from xeri.bots import (
    LEVELS,
    CountingBot,
    FunctionBot,
    GreedyBot,
    ISMCTSBot,
    PIMCBot,
    RandomBot,
    as_bot,
    bot_name,
    family,
    load_bot,
    make,
    playout_policy,
    registry,
)
from xeri.bots.league import PairResult, fit_ratings, play_league, rate_bot
from xeri.bots.search import _Finish
from xeri.cli import main
from xeri.testing import rule_sets

PRESETS = (GREEK, GREEK_FOUR, GERMAN, PISTI, SCOPA, CASSINO)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


def small(name: str) -> xeri.bots.Bot:
    """The registry's bot of `name`, a search bot with a tiny fixed budget."""
    kind = {k.name: k for k in registry()}[name]
    return kind.make(**({kind.budget: 3} if kind.budget else {}))


KINDS = tuple(kind.name for kind in registry())


def observations(rules: xeri.RuleSet, seed: int, count: int) -> list[xeri.Observation]:
    """Observations of the seat to move, at random points of random rounds."""
    rng = random.Random(seed)
    out: list[xeri.Observation] = []
    while len(out) < count:
        state = xeri.new_game(rules, rng=rng)
        stop = rng.randrange(0, 3 * rules.hand_size * rules.seats)
        plays = 0
        while not state.is_round_over:
            if state.is_chance:
                state = xeri.apply(state, xeri.chance_move(state, rng))
                continue
            if plays == stop:
                out.append(observe(state, state.to_move))
                break
            moves = xeri.legal_moves(state)
            state = xeri.apply(state, moves[rng.randrange(len(moves))])
            plays += 1
    return out


# --------------------------------------------------------------------------
# The registry


def test_X2_the_registry_lists_the_kinds_weakest_first_and_the_levels_map_onto_them():
    assert KINDS == ("random", "greedy", "counting", "pimc", "ismcts")
    assert [k.cls for k in registry()] == [
        RandomBot,
        GreedyBot,
        CountingBot,
        PIMCBot,
        ISMCTSBot,
    ]
    assert LEVELS == (
        ("easy", "greedy"),
        ("medium", "counting"),
        ("hard", "pimc"),
        ("expert", "ismcts"),
    )
    for level, kind in LEVELS:
        assert type(make(level)) is type(make(kind))
        assert bot_name(make(level)) == kind


def test_make_takes_a_kind_or_level_in_any_case_and_passes_settings_on():
    assert make(" Counting ") == CountingBot()
    assert make("EXPERT") == ISMCTSBot()
    assert make("pimc", samples=7, seconds=0.5) == PIMCBot(samples=7, seconds=0.5)
    assert make("hard", samples=4) == PIMCBot(samples=4)
    with pytest.raises(XeriError, match=r"no bot is called 'nobody'; known: random, greedy"):
        make("nobody")
    with pytest.raises(XeriError, match="the greedy bot does not take these settings"):
        make("greedy", samples=3)
    with pytest.raises(ArgumentError, match=r"PIMCBot\.samples must be a positive int or None"):
        make("pimc", samples=0)


def test_bot_name_names_shipped_kinds_and_other_bots_by_class():
    assert [bot_name(small(name)) for name in KINDS] == list(KINDS)
    assert bot_name(FunctionBot(function=first_move)) == "FunctionBot"


# --------------------------------------------------------------------------
# Bots of one's own


def first_move(observation: xeri.Observation, rng: object) -> xeri.PlayerMove:
    return xeri.legal_moves(observation)[0]


def illegal_move(observation: xeri.Observation, rng: object) -> xeri.PlayerMove:
    return xeri.Trail(card=Card.parse("A♠"))


class OwnBot:
    def choose(self, observation: xeri.Observation, rng: object) -> xeri.PlayerMove:
        return first_move(observation, rng)


def test_X2_a_plain_function_is_a_bot_once_wrapped_and_simulate_wraps_it():
    bot = as_bot(first_move)
    assert bot == FunctionBot(function=first_move)
    assert repr(bot) == "FunctionBot(function=first_move)"
    seen = observations(GREEK, 1, 1)[0]
    assert bot.choose(seen, random.Random(1)) == xeri.legal_moves(seen)[0]
    wrapped = xeri.simulate(GREEK, (first_move, RandomBot()), deals=2, seed=4)
    explicit = xeri.simulate(GREEK, (bot, RandomBot()), deals=2, seed=4)
    assert wrapped == explicit
    assert wrapped.bots[0] == "FunctionBot(function=first_move)"


def test_a_bot_is_passed_through_and_anything_else_is_refused_saying_how_to_wrap_it():
    own = OwnBot()
    assert as_bot(own) is own
    with pytest.raises(XeriError, match=r"xeri.bots.FunctionBot\(function=...\)"):
        as_bot(42)
    with pytest.raises(
        XeriError, match=r"OwnBot is a class, not a bot: pass an instance, OwnBot\(\)"
    ):
        as_bot(OwnBot)
    with pytest.raises(XeriError, match="is not a bot"):
        xeri.simulate(GREEK, ("greedy", RandomBot()), deals=1)
    with pytest.raises(XeriError, match="FunctionBot needs a function"):
        FunctionBot(function=3)  # type: ignore[arg-type]


def test_X5_a_function_bot_that_returns_an_illegal_move_is_refused_by_name():
    seen = observations(GREEK, 2, 1)[0]
    with pytest.raises(IllegalMoveError, match=r"FunctionBot\(function=illegal_move\) returned"):
        FunctionBot(function=illegal_move).choose(seen, random.Random(1))


def test_load_bot_imports_a_function_a_class_or_an_instance(tmp_path, monkeypatch):
    (tmp_path / "own_bots_for_tests.py").write_text(
        "import xeri\n"
        "def first(observation, rng):\n"
        "    return xeri.legal_moves(observation)[0]\n"
        "class Last:\n"
        "    def choose(self, observation, rng):\n"
        "        return xeri.legal_moves(observation)[-1]\n"
        "LAST = Last()\n"
        "NUMBER = 3\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        seen = observations(GREEK, 3, 1)[0]
        moves = xeri.legal_moves(seen)
        assert load_bot("own_bots_for_tests:first").choose(seen, random.Random(0)) == moves[0]
        assert load_bot("own_bots_for_tests:Last").choose(seen, random.Random(0)) == moves[-1]
        assert load_bot("own_bots_for_tests:LAST").choose(seen, random.Random(0)) == moves[-1]
        with pytest.raises(XeriError, match="own_bots_for_tests has no attribute nothing"):
            load_bot("own_bots_for_tests:nothing")
        with pytest.raises(XeriError, match="a int is not a bot"):
            load_bot("own_bots_for_tests:NUMBER")
        with pytest.raises(XeriError, match="cannot import no_such_module_here"):
            load_bot("no_such_module_here:bot")
        with pytest.raises(XeriError, match="is named MODULE:ATTRIBUTE"):
            load_bot("own_bots_for_tests:")
    finally:
        sys.modules.pop("own_bots_for_tests", None)


# --------------------------------------------------------------------------
# Every bot, every preset, generated rule sets


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
@pytest.mark.parametrize("name", KINDS)
def test_X2_every_registered_bot_plays_legal_moves_on_every_preset(name, rules):
    bot = small(name)
    for seen in observations(rules, 7, 3):
        assert bot.choose(seen, random.Random(5)) in xeri.legal_moves(seen)


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
@pytest.mark.parametrize("bot", [PIMCBot(), ISMCTSBot()], ids=["pimc", "ismcts"])
def test_X2_the_search_bots_at_their_defaults_play_legal_moves_on_every_preset(bot, rules):
    seen = observations(rules, 8, 1)[0]
    assert bot.choose(seen, random.Random(2)) in xeri.legal_moves(seen)


def test_D4_a_reply_with_no_move_on_a_large_table_is_an_empty_sequence_not_an_error():
    # Found by the league: on CASSINO the counting bot weighs the next seat's
    # reply with each card it may hold; an owner of a build (D4) holding only
    # the ace can neither trail nor take nor build here, so that reply has no
    # move. On a table of more than ten items the moves are counted lazily,
    # and the count 0 was refused as a broken capture rule.
    build = Build(cards=tuple(map(Card.parse, ("10♥", "10♦", "10♣"))), value=10, owner=0)
    loose = ("9♥", "Q♣", "6♠", "K♣", "8♠", "5♦", "7♣", "4♣", "8♦", "2♣")
    table = (build, *map(Card.parse, loose))
    ace = Card.parse("A♦")
    replies = moves_on(CASSINO, table, (ace,), 0)
    assert len(replies) == 0
    assert tuple(replies) == ()
    assert len(moves_on(CASSINO, table, (ace,), 1)) > 0  # not the owner: it may trail
    # The game where it happened now plays through.
    result = xeri.simulate(CASSINO, (RandomBot(), CountingBot()), deals=7, seed=2026)
    assert len(result.differences) == 7


@pytest.mark.parametrize("name", KINDS)
@settings(max_examples=8, deadline=None)
@given(rules=rule_sets(decks=True), seed=st.integers(0, 2**32))
def test_X2_every_registered_bot_plays_legal_moves_on_generated_rule_sets(name, rules, seed):
    bot = small(name)
    if isinstance(bot, (PIMCBot, ISMCTSBot)):
        # The solver can be asked for a whole round of a generated rule set at
        # once; test_bots checks its fallback. Here: the sampling and playouts.
        bot = type(bot)(
            **{kind.budget: 2 for kind in registry() if kind.cls is type(bot)}, endgame=False
        )
    for seen in observations(rules, seed, 2):
        assert bot.choose(seen, random.Random(seed)) in xeri.legal_moves(seen)


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
@pytest.mark.parametrize("name", KINDS)
def test_X2_look_alike_observations_give_the_same_choice_for_the_same_generator(name, rules):
    """Two states that differ only in what the seat cannot see give one observation and one move."""
    bot = small(name)
    seen = observations(rules, 9, 1)[0]
    one = xeri.determinize(seen, random.Random(1))
    other = next(s for k in range(2, 50) if (s := xeri.determinize(seen, random.Random(k))) != one)
    assert one != other
    a, b = observe(one, seen.seat), observe(other, seen.seat)
    assert a == b == seen
    assert bot.choose(a, random.Random(77)) == bot.choose(b, random.Random(77))


@pytest.mark.parametrize("rules", [GREEK, GREEK_FOUR, SCOPA], ids=lambda r: r.name)
@pytest.mark.parametrize("name", KINDS)
def test_X2_a_seeded_simulation_replays_exactly_with_fixed_counts(name, rules):
    bots = (small(name), GreedyBot())
    first = xeri.simulate(rules, bots, deals=1, seed=12)
    assert first == xeri.simulate(rules, bots, deals=1, seed=12)


@pytest.mark.parametrize("bot", [PIMCBot(), ISMCTSBot()], ids=["pimc", "ismcts"])
def test_X2_the_defaults_are_fixed_counts_so_a_decision_replays_exactly(bot):
    # The CPU deadline is the safety net over the default counts; lifted (a
    # deadline no decision reaches), nothing but the seed decides (with it,
    # a busy or slow machine could cut one of two runs short).
    exact = attrs.evolve(bot, cpu_seconds=1e9)
    for rules in (GREEK, GREEK_FOUR, PISTI):
        seen = observations(rules, 10, 1)[0]
        assert exact.choose(seen, random.Random(3)) == exact.choose(seen, random.Random(3))


# --------------------------------------------------------------------------
# The defaults, per family


def test_the_families_of_the_presets():
    assert [family(r) for r in PRESETS] == ["pile", "partners", "sums", "pile", "sums", "sums"]


def pile_work(seen: xeri.Observation, fixed: float, per_play: float) -> int:
    """The pile families' default count: 0.075 s of playouts at their cost, over the moves."""
    left = sum(seen.hand_sizes) + seen.stock_size
    playouts = min(4000, int(75_000 / (fixed + per_play * left)))
    return max(4, playouts // len(xeri.legal_moves(seen)))


def test_the_search_defaults_come_from_the_family_and_a_keyword_changes_one_setting():
    greek = observations(GREEK, 11, 1)[0]
    four = observations(GREEK_FOUR, 11, 1)[0]
    german = observations(GERMAN, 11, 1)[0]
    cassino = observations(CASSINO, 11, 1)[0]
    moves = len(xeri.legal_moves(greek))
    work = pile_work(greek, 70.0, 5.0)
    iterations, paired, model = ISMCTSBot().settings(greek)
    assert (paired, model) == (True, True)
    assert iterations == work
    assert PIMCBot().samples_for(greek) == work
    assert PIMCBot().samples_for(four) == pile_work(four, 90.0, 6.0)
    assert PIMCBot().samples_for(german) == max(4, 300 // len(xeri.legal_moves(german)))
    assert PIMCBot().samples_for(cassino) == max(4, 200 // len(xeri.legal_moves(cassino)))
    assert ISMCTSBot(iterations=9).settings(greek) == (9, True, True)
    assert ISMCTSBot(paired=False).settings(greek) == (work * moves, False, True)
    assert ISMCTSBot(model_others=False).settings(greek)[1:] == (True, False)
    assert PIMCBot(samples=5).samples_for(greek) == 5
    with pytest.raises(ArgumentError, match=r"ISMCTSBot\.paired must be True, False or None"):
        ISMCTSBot(paired=1)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rules", "truncated"), [(GREEK, True), (PISTI, True), (GREEK_FOUR, False)]
)
def test_the_pile_families_truncate_their_playouts_by_default_except_with_partners(
    rules, truncated
):
    # Where the two forms choose differently, the default chooses as the family's form.
    differ = 0
    for k, seen in enumerate(observations(rules, 21, 40)):
        if len(xeri.legal_moves(seen)) < 2:
            continue
        samples = PIMCBot().samples_for(seen)
        forms = {
            flag: PIMCBot(samples=samples, truncate=flag).choose(seen, random.Random(k))
            for flag in (True, False)
        }
        if forms[True] == forms[False]:
            continue
        differ += 1
        assert PIMCBot(cpu_seconds=60.0).choose(seen, random.Random(k)) == forms[truncated]
        if differ == 3:
            break
    assert differ == 3


def test_the_pile_defaults_plan_more_playouts_when_fewer_plays_are_left():
    # A playout costs about its plays: late in a round a decision affords more.
    rng = random.Random(3)
    state = xeri.new_game(GREEK, rng=rng)
    early = observe(state, state.to_move)
    while state.stock or len(state.hands[state.to_move]) > 5:
        state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    late = observe(state, state.to_move)
    assert pile_work(late, 70.0, 5.0) * len(xeri.legal_moves(late)) > 2 * (
        pile_work(early, 70.0, 5.0) * len(xeri.legal_moves(early))
    )
    assert PIMCBot().samples_for(late) == pile_work(late, 70.0, 5.0)


# --------------------------------------------------------------------------
# The playout policy: partners and builds


def view(rules, seat, hands, table, moves):
    v = RolloutView(rules)
    v.seat, v.hands, v.table, v.moves = seat, hands, table, moves
    return v


def test_F1_the_playout_lays_a_card_the_partner_can_take_not_one_the_opponent_can():
    # Seat 0 lays on a pile topped by a 3; seat 1 (an opponent) holds a 9,
    # seat 2 (the partner) a 5: the 5 is laid for the partner, never the 9.
    hands = [list(cards("9♠ 5♠ 8♥")), list(cards("9♦ 2♣")), list(cards("5♦ 2♦")), []]
    hand = hands[0]
    for seed in range(20):
        pick = playout_policy(random.Random(seed))(view(GREEK_FOUR, 0, hands, cards("3♣"), hand))
        assert hand[pick] == Card.parse("5♠")


def test_G7_the_playout_lays_no_card_the_opponent_can_take_as_a_xeri_on_an_empty_table():
    hands = [list(cards("9♠ 5♠")), list(cards("9♦ 2♣"))]
    for seed in range(10):
        pick = playout_policy(random.Random(seed))(view(GREEK, 0, hands, (), hands[0]))
        assert hands[0][pick] == Card.parse("5♠")


def test_D3_the_playout_takes_the_capture_worth_most_not_the_most_cards():
    table = cards("10♦ 3♠ 4♠ 2♥")
    hand = cards("10♠ 9♣")
    moves = (
        Capture(card=Card.parse("9♣"), taken=cards("3♠ 4♠ 2♥")),
        Capture(card=Card.parse("10♠"), taken=cards("10♦")),
        Trail(card=Card.parse("10♠")),
        Trail(card=Card.parse("9♣")),
    )
    pick = playout_policy(random.Random(0))(view(GERMAN, 0, [list(hand), []], table, moves))
    assert moves[pick] == moves[1]  # the 10♦ is worth 2 points, the three cards none


def test_D3_the_playout_builds_what_it_can_take_next_turn_and_not_what_it_cannot():
    table = cards("5♠ K♥")
    build = Combine(card=Card.parse("3♣"), onto=Card.parse("5♠"), value=8)
    trail = Trail(card=Card.parse("Q♦"))
    moves = (build, Trail(card=Card.parse("3♣")), trail)
    keeps = [list(cards("3♣ 8♦ Q♦")), list(cards("2♥"))]
    pick = playout_policy(random.Random(0))(view(GERMAN, 0, keeps, table, moves))
    assert moves[pick] == build
    lacks = [list(cards("3♣ 7♦ Q♦")), list(cards("2♥"))]
    assert moves[playout_policy(random.Random(0))(view(GERMAN, 0, lacks, table, moves))] != build


def test_D3_the_playout_takes_an_opponents_build_with_its_card():
    owned = Build(cards=cards("2♠ 5♠"), value=7, owner=1)
    moves = (Capture(card=Card.parse("7♣"), taken=(owned,)), Trail(card=Card.parse("7♣")))
    hands = [list(cards("7♣")), list(cards("4♥"))]
    assert playout_policy(random.Random(0))(view(GERMAN, 0, hands, (owned,), moves)) == 0


# --------------------------------------------------------------------------
# The league and `xeri rate`


def pair(first, second, values):
    return PairResult(
        first=first, second=second, per_deal=tuple(values), difference=0.0, interval=(0.0, 0.0)
    )


def test_fit_ratings_orders_the_bots_by_their_paired_wins_with_intervals_around_them():
    pairs = [
        pair(0, 1, [-1.0] * 8 + [2.0] * 2),  # bot 1 beats bot 0 on 8 deals of 10
        pair(1, 2, [-3.0] * 9 + [0.0]),  # bot 2 beats bot 1 on 9, one deal equal
        pair(0, 2, [-1.0] * 10),
    ]
    ratings, intervals = fit_ratings(pairs, 3, resamples=50, seed=1)
    assert ratings[0] == 0.0
    assert ratings[0] < ratings[1] < ratings[2]
    for rating, (low, high) in zip(ratings, intervals, strict=True):
        assert low <= rating <= high
    assert fit_ratings(pairs, 3, resamples=50, seed=1) == (ratings, intervals)


def test_play_league_rates_greedy_above_random_on_the_same_deals():
    league = play_league(PISTI, [RandomBot(), GreedyBot()], names=["random", "greedy"], deals=6)
    assert league.bots == ("random", "greedy")
    assert len(league.pairs) == 1
    assert league.pairs[0].difference < 0  # random minus greedy
    assert league.ratings[1] > league.ratings[0] == 0.0
    assert league.table().splitlines()[1].startswith("greedy")
    with pytest.raises(XeriError, match="a league needs two bots at least"):
        play_league(GREEK, [RandomBot()], deals=1)


def test_rate_bot_plays_the_ladder_and_the_bot_against_each():
    league = rate_bot(SCOPA, first_move, ladder=("random", "greedy"), deals=2)
    assert league.bots == ("random", "greedy", "yours")
    assert [(p.first, p.second) for p in league.pairs] == [(0, 1), (0, 2), (1, 2)]


def test_the_rate_command_rates_a_bot_of_ones_own(tmp_path, monkeypatch):
    (tmp_path / "rated_bot_for_tests.py").write_text(
        "import xeri\ndef first(observation, rng):\n    return xeri.legal_moves(observation)[0]\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    try:
        code = main(
            ["rate", "rated_bot_for_tests:first", "--rules", "pisti", "--deals", "2",
             "--ladder", "random,greedy"],
            stdout=out,
            stderr=err,
        )  # fmt: skip
    finally:
        sys.modules.pop("rated_bot_for_tests", None)
    assert (code, err.getvalue()) == (0, "")
    lines = out.getvalue().splitlines()
    assert lines[0] == (
        "Rating rated_bot_for_tests:first on pisti: 2 duplicate deals against each of random,"
        " greedy."
    )
    assert lines[1].startswith("  greedy against random: ")
    assert "Bradley-Terry ratings over the deals (Elo scale, random = 0):" in lines
    assert any(line.startswith("  yours ") for line in lines)


# --------------------------------------------------------------------------
# Truncated playouts (the sums family's default)


def last_deal(rules: xeri.RuleSet, seed: int) -> xeri.Observation:
    """The observation of the seat to move once the stock is empty."""
    rng = random.Random(seed)
    state = xeri.new_game(rules, rng=rng)
    while state.stock or state.is_chance:
        if state.is_chance:
            state = xeri.apply(state, xeri.chance_move(state, rng))
            continue
        moves = xeri.legal_moves(state)
        state = xeri.apply(state, moves[rng.randrange(len(moves))])
    return observe(state, state.to_move)


@pytest.mark.parametrize("rules", [GERMAN, SCOPA, CASSINO], ids=lambda r: r.name)
def test_D7_a_truncated_playout_in_the_last_deal_is_priced_by_the_rounds_own_totals(rules):
    seen = last_deal(rules, 13)
    state = xeri.determinize(seen, random.Random(1))
    truncated = _Finish(seen, truncate=True)(state, None, playout_policy(random.Random(4)))
    whole = xeri.rollout(state, random.Random(4), playout_policy(random.Random(4)))
    assert tuple(truncated) == whole.round_results[-1].total


def test_a_truncated_playout_stops_at_the_end_of_the_deal_and_prices_what_each_side_took(
    monkeypatch,
):
    seen = observations(GERMAN, 14, 1)[0]
    assert seen.stock_size > 0
    finish = _Finish(seen, truncate=True)
    assert finish.stop >= len(seen.history) + sum(seen.hand_sizes)
    priced = []
    real = _Finish._priced
    monkeypatch.setattr(_Finish, "_priced", lambda self, st: priced.append(st) or real(self, st))
    state = xeri.determinize(seen, random.Random(2))
    values = finish(state, None, playout_policy(random.Random(5)))
    (end,) = priced
    assert len(end.history) == finish.stop
    assert not end.is_round_over
    # the deal is over; the next one is dealt from the stock, every hand full
    assert len(end.stock) == seen.stock_size - GERMAN.seats * GERMAN.hand_size
    assert all(len(hand) == GERMAN.hand_size for hand in end.hands)
    assert len(values) == 2
    assert sum(values) > 0


@pytest.mark.parametrize("rules", [GREEK, GERMAN], ids=lambda r: r.name)
@pytest.mark.parametrize("truncate", [True, False])
def test_X2_the_search_bots_play_legal_moves_with_and_without_truncated_playouts(rules, truncate):
    for seen in observations(rules, 15, 2):
        for bot in (
            PIMCBot(samples=2, truncate=truncate),
            ISMCTSBot(iterations=2, truncate=truncate),
        ):
            assert bot.choose(seen, random.Random(1)) in xeri.legal_moves(seen)

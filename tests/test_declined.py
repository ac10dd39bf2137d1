"""The search bots' belief about declined captures in the pile games (G6, X2).

A seat that lays a card on a pile whose top card it could take by rank
most likely holds no card of that rank: the counting bot, the greedy bot
and most players take when they can. The search bots (`infer`, on by
default in the pile games) draw their samples accordingly, softly: a state
that breaks the reading keeps a small weight. These tests check what the
reading reads (the current deal's public plays alone), what the draws give,
the soft fallback and that the bots still replay exactly.
"""

from __future__ import annotations

import random

import attrs
import pytest

import xeri
from support import cards, deal
from xeri import GREEK, GREEK_FOUR, PISTI, Card, GameState, Rank, observe
from xeri._agents import sampling
from xeri._agents.sampling import _Belief, _Plan
from xeri.bots import CountingBot, ISMCTSBot, PIMCBot

SEAT_1 = "9♠ K♠ K♦ Q♠ Q♦ 7♠"
"""Seat 1's hand in the hand-built deal: no 4 and no Jack."""


def declined_state(hand_1: str = SEAT_1) -> GameState:
    """Seat 1 leads and lays the 9♠ on a pile topped by the 4♣: no take.

    Seat 0 (the dealer) is then to move, holding no 4 and no Jack: every
    other 4 and every Jack is unseen by it.
    """
    deck = deal(
        GREEK,
        dealer=0,
        hands={0: cards("A♣ A♦ 6♣ 6♦ 8♣ 8♦"), 1: cards(hand_1)},
        table=cards("2♣ 3♦ 5♥ 4♣"),
    )
    state = xeri.new_game(GREEK, deck=deck, dealer=0)
    assert state.to_move == 1
    state = xeri.apply(state, Card.parse("9♠"))
    assert state.to_move == 0
    assert len(state.table) == 5  # the 9♠ took nothing
    return state


def holds(state: GameState, seat: int, ranks: set[Rank]) -> bool:
    return any(card.rank in ranks for card in state.hands[seat])


def test_G6_a_lay_on_a_pile_tells_the_rank_of_its_top_and_the_sweeper():
    seen = observe(declined_state(), 0)
    plan = _Plan(seen)
    avoid = plan.declined(3)
    # Seat 1 laid on a 4 with five cards on the pile: no 4 and no Jack,
    # among the cards seat 0 has not seen.
    assert set(avoid) == {1}
    assert {card.rank for card in avoid[1]} == {Rank.FOUR, Rank.JACK}
    assert avoid[1] == frozenset(c for c in plan.pool if c.rank in {Rank.FOUR, Rank.JACK})
    # A pile smaller than the bound says nothing of the sweeper.
    assert {card.rank for card in plan.declined(6)[1]} == {Rank.FOUR}


def test_G6_a_capture_or_the_first_card_on_an_empty_pile_tells_nothing():
    seen = observe(xeri.new_game(GREEK, rng=random.Random(3)), 1)
    assert _Plan(seen).declined(3) == {}
    # Seat 0 takes the pile with the 9♦ after the lay: a capture, no reading of it.
    deck = deal(
        GREEK,
        dealer=0,
        hands={0: cards("9♦ A♦ 6♣ 6♦ 8♣ 8♦"), 1: cards(SEAT_1)},
        table=cards("2♣ 3♦ 5♥ 4♣"),
    )
    state = xeri.new_game(GREEK, deck=deck, dealer=0)
    state = xeri.apply(xeri.apply(state, Card.parse("9♠")), Card.parse("9♦"))
    assert not state.table
    # Seen from seat 1: seat 0 took; nothing is read of it.
    assert _Plan(observe(state, 1)).declined(3) == {}


def test_G6_a_rank_the_seat_has_since_played_is_not_read():
    # Seat 1 laid the 9♠ on the 4♣, then later played a 4: it declines, so
    # its 4s are not read (its Jacks still are).
    deck = deal(
        GREEK,
        dealer=0,
        hands={0: cards("A♣ A♦ 6♣ 6♦ 8♣ 8♦"), 1: cards("9♠ 4♦ K♦ Q♠ Q♦ 7♠")},
        table=cards("2♣ 3♦ 5♥ 4♣"),
    )
    state = xeri.new_game(GREEK, deck=deck, dealer=0)
    for card in ("9♠", "A♣", "4♦", "A♦"):
        state = xeri.apply(state, Card.parse(card))
    avoid = _Plan(observe(state, 0)).declined(3)
    # Its lay of the 4♦ on the A♣ still says: no Ace (and no Jack).
    assert {card.rank for card in avoid[1]} == {Rank.ACE, Rank.JACK}


def test_G6_earlier_deals_are_not_read():
    # After a deal ends the hands are dealt again: a lay of the last deal
    # says nothing of the new hand.
    rng = random.Random(5)
    state = xeri.new_game(GREEK, rng=rng)
    bot = CountingBot()
    per_deal = GREEK.seats * GREEK.hand_size
    while len(state.history) < per_deal:
        state = xeri.apply(state, bot.choose(observe(state, state.to_move), rng))
    seen = observe(state, state.to_move)
    assert len(seen.history) == per_deal
    assert _Plan(seen).declined(3) == {}


class Recorder:
    """Every state a bot's belief draws, with whether it came from the plain plan."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.draws: list[tuple[GameState, bool]] = []
        draw = _Belief.draw

        def recorded(belief: _Belief, rng: random.Random) -> GameState:
            before = belief.slipped
            state = draw(belief, rng)
            self.draws.append((state, belief.slipped > before))
            return state

        monkeypatch.setattr(_Belief, "draw", recorded)


@pytest.mark.parametrize("bot", [PIMCBot(samples=20), ISMCTSBot(iterations=20)], ids=repr)
def test_G6_every_draw_not_from_the_fallback_gives_the_decliner_no_such_card(bot, monkeypatch):
    recorder = Recorder(monkeypatch)
    bot.choose(observe(declined_state(), 0), random.Random(4))
    assert len(recorder.draws) >= 20
    kept = [state for state, slipped in recorder.draws if not slipped]
    assert kept
    for state in kept:
        assert not holds(state, 1, {Rank.FOUR, Rank.JACK})
    # The soft part: one draw in a few comes from the plain plan here.
    assert any(slipped for _, slipped in recorder.draws)


def test_G6_the_forced_fallback_draws_uniformly_and_gives_the_decliner_such_cards(monkeypatch):
    monkeypatch.setattr(sampling, "_SLIP", (1, 1))  # a decline as likely as a lay: no belief
    recorder = Recorder(monkeypatch)
    ISMCTSBot(iterations=40).choose(observe(declined_state(), 0), random.Random(4))
    assert all(slipped for _, slipped in recorder.draws)
    assert any(holds(state, 1, {Rank.FOUR, Rank.JACK}) for state, _ in recorder.draws)


def test_G6_a_reading_no_state_keeps_falls_back_to_the_plain_draw(monkeypatch):
    seen = observe(declined_state(), 0)
    plan = _Plan(seen)
    monkeypatch.setattr(_Plan, "declined", lambda self, pile: {1: frozenset(self.pool)})
    belief = _Belief(plan, infer=True)
    assert belief.kept is None
    rng = random.Random(2)
    assert all(observe(belief.draw(rng), 0) == seen for _ in range(5))


def test_G6_without_infer_the_belief_is_the_plain_draw():
    belief = _Belief(_Plan(observe(declined_state(), 0)), infer=False)
    assert belief.kept is None
    plain = _Plan(observe(declined_state(), 0))
    assert belief.draw(random.Random(7)) == plain.draw(random.Random(7))


def test_the_default_reads_declines_in_the_pile_games_only():
    assert ISMCTSBot().infer is None
    assert ISMCTSBot(infer=False) != ISMCTSBot()
    with pytest.raises(xeri.ArgumentError, match=r"ISMCTSBot\.infer"):
        ISMCTSBot(infer=1)  # type: ignore[arg-type]
    with pytest.raises(xeri.ArgumentError, match=r"PIMCBot\.infer"):
        PIMCBot(infer="yes")  # type: ignore[arg-type]


@pytest.mark.parametrize("bot", [PIMCBot(samples=16), ISMCTSBot(iterations=16)], ids=repr)
def test_X2_look_alike_observations_give_the_same_choice_whatever_the_decliner_holds(bot):
    # Seat 1 holds no 4 in one deal and the 4♦ in the other (it declined
    # to take with it): seat 0 sees the same, and the bot chooses the same.
    honest = declined_state()
    sly = declined_state("9♠ K♠ K♦ Q♠ Q♦ 4♦")
    seen = observe(honest, 0)
    assert observe(sly, 0) == seen
    assert holds(sly, 1, {Rank.FOUR})
    assert not holds(honest, 1, {Rank.FOUR})
    for seed in range(3):
        assert bot.choose(observe(sly, 0), random.Random(seed)) == bot.choose(
            seen, random.Random(seed)
        )


@pytest.mark.parametrize("rules", [GREEK, GREEK_FOUR, PISTI], ids=lambda r: r.name)
@pytest.mark.parametrize("bot", [PIMCBot(samples=6), ISMCTSBot(iterations=6)], ids=repr)
def test_X2_a_reading_bot_plays_legal_moves_and_replays_exactly(bot, rules):
    rng = random.Random(9)
    state = xeri.new_game(rules, rng=rng)
    exact = attrs.evolve(bot, endgame=False)
    while not state.is_round_over:
        if state.is_chance:
            state = xeri.apply(state, xeri.chance_move(state, rng))
            continue
        seen = observe(state, state.to_move)
        seed = rng.randrange(1 << 30)
        move = exact.choose(seen, random.Random(seed))
        assert move in xeri.legal_moves(seen)
        assert exact.choose(seen, random.Random(seed)) == move
        state = xeri.apply(state, move)


def test_X2_the_reading_holds_for_the_counting_bot_whatever_its_cards():
    # The counting bot takes whenever it can by rank, and sweeps piles of
    # three or more: its true hands never break the reading.
    for rules in (GREEK, GREEK_FOUR, PISTI):
        rng = random.Random(12)
        bot = CountingBot()
        for _ in range(2):
            state = xeri.new_game(rules, rng=rng)
            while not state.is_round_over:
                if state.is_chance:
                    state = xeri.apply(state, xeri.chance_move(state, rng))
                    continue
                seen = observe(state, state.to_move)
                for seat, avoid in _Plan(seen).declined(3).items():
                    assert not avoid & set(state.hands[seat])
                state = xeri.apply(state, bot.choose(seen, rng))

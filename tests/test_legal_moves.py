"""`legal_moves` as a lazy, countable sequence (`xeri.LegalMoves`).

* For states reached by random play under every `SumCapture` option and
  every pair of options (from the option table), and Scopa's values: the
  count equals the number of moves `SumCapture.moves` lists, each index
  (negative ones too) gives the listed move of that index, slices give
  tuples, every listed move is `in` the sequence and moves of other hands
  are not, and the sequence equals the tuple.
* Positions of tables of 30 to 50 items, reached by players who lay every
  card free (CASSINO, German with `multi_capture`): the sequence answers
  with sane counts, and an index and a membership test agree with each other
  and with `apply`, without listing anything.
* Custom capture rules that implement only `moves` are listed, once; a
  rule's optional `count_moves`/`move_at`/`has_move` are used when the class
  that defines them is the one that defines `moves` (and `play`).
* `apply`, `parse_move` and membership never list the moves.
"""

# Test names carry the clause id as written in the rules (test_D3_..., test_C4_...).

from __future__ import annotations

import itertools
import pickle
import random

import attrs
import pytest

import xeri
from xeri import CASSINO, GERMAN, GREEK, Capture, Combine, LegalMoves, SumCapture, Trail
from xeri._core import engine, legal
from xeri._families.sums import lazy
from xeri._families.sums.rule import SCOPA_VALUES

OPTIONS = SumCapture.OPTIONS


_OTHER_VALUES = {
    "values": SCOPA_VALUES,
    "total": 15,  # K1: needs builds=False, so it comes with few others
    "sweepers": (  # Basra's: the Jacks and the 7♦ take the whole table (W1)
        xeri.Sweeper(cards=(xeri.Rank.JACK,)),
        xeri.Sweeper(cards=(xeri.Card.parse("7♦"),), xeri=xeri.XeriKind.XERI, xeri_up_to=10),
    ),
    "jack_xeri_ranks": (xeri.Rank.JACK,),
}


def _changed(option: xeri.Option) -> object:
    return _OTHER_VALUES.get(option.name, not option.default)


def _capture(*options: xeri.Option) -> SumCapture | None:
    try:
        return SumCapture(**{o.name: _changed(o) for o in options})  # type: ignore[arg-type]
    except xeri.RuleSetError:
        return None


CAPTURES = [SumCapture()] + [
    c
    for size in (1, 2)
    for mix in itertools.combinations(OPTIONS, size)
    if (c := _capture(*mix)) is not None
]


def _positions(rules: xeri.RuleSet, seed: int, trail: float):
    """The states of one random round; players lay a card free with probability `trail`."""
    rng = random.Random(seed)
    state = xeri.new_game(rules, rng=rng)
    while state.to_move is not None:
        yield state
        moves = xeri.legal_moves(state)
        free = Trail(card=state.hands[state.to_move][0])
        laid = free in moves and rng.random() < trail
        state = xeri.apply(state, free if laid else moves[rng.randrange(len(moves))])


def _cold() -> None:
    lazy.plan.cache_clear()


@pytest.mark.parametrize("capture", CAPTURES, ids=repr)
def test_D3_C4_S3_the_lazy_sequence_is_the_listed_tuple(capture, always_lazy):
    rules = attrs.evolve(GERMAN, name="t", capture=capture)
    rng = random.Random(7)
    for seed in range(3):
        # multi_capture lists grow fast with the table: fewer cards laid free
        for state in _positions(rules, seed, trail=0.3 if capture.multi_capture else 0.6):
            seat = state.to_move
            listed = capture.moves(state.table, state.hands[seat], seat)
            _cold()
            moves = xeri.legal_moves(state)
            assert len(moves) == len(listed)
            picks = range(len(listed)) if len(listed) < 40 else rng.sample(range(len(listed)), 40)
            for i in picks:
                assert moves[i] == listed[i]
                assert moves[i - len(listed)] == listed[i]
                assert listed[i] in moves
            assert moves[1:4] == listed[1:4]
            per_card = [(c, len(list(g))) for c, g in itertools.groupby(m.card for m in listed)]
            assert moves.count_by_card() == tuple(per_card)  # counted by the plan: not listed
            assert moves._listed is None
            assert moves == listed
            assert tuple(moves) == listed
            other = state.hands[1 - seat]
            for move in capture.moves(state.table, other, seat)[:5]:
                assert move not in moves  # another hand's card
            with pytest.raises(IndexError):
                moves[len(listed)]


@pytest.mark.parametrize(
    "rules",
    [CASSINO, attrs.evolve(GERMAN, name="multi", capture=SumCapture(multi_capture=True))],
    ids=["cassino", "german-multi"],
)
def test_D3_C4_tables_of_every_card_laid_free_are_counted_and_indexed_without_listing(
    rules, monkeypatch
):
    def refuse(*args):
        raise AssertionError("the moves were listed")

    seen = 0
    for state in _positions(rules, seed=3, trail=1.0):
        if len(state.table) < 30:
            continue
        monkeypatch.setattr(SumCapture, "moves", refuse)
        _cold()
        moves = xeri.legal_moves(state)
        count = len(moves)
        assert count >= len(state.hands[state.to_move])
        rng = random.Random(count)
        for i in {0, count // 2, count - 1, rng.randrange(count)}:
            move = moves[i]
            assert move in moves
            assert move.card in state.hands[state.to_move]
            after = xeri.apply(state, move)
            assert len(after.history) == len(state.history) + 1
        monkeypatch.undo()
        seen += 1
    assert seen >= 5


def test_D3_counts_agree_with_listing_on_smaller_tables_of_cards_laid_free(always_lazy):
    rules = attrs.evolve(GERMAN, name="multi", capture=SumCapture(multi_capture=True))
    for seed in range(2):
        for state in _positions(rules, seed, trail=1.0):
            if len(state.table) > 15:
                break
            seat = state.to_move
            listed = rules.capture.moves(state.table, state.hands[seat], seat)
            _cold()
            moves = xeri.legal_moves(state)
            assert len(moves) == len(listed)
            assert [moves[i] for i in range(0, len(listed), 7)] == list(listed[::7])


@pytest.fixture
def always_lazy(monkeypatch):
    """Count every table lazily, small ones included (they are listed at once otherwise)."""
    monkeypatch.setattr(engine, "_SMALL_TABLE", -1)
    monkeypatch.setattr(engine, "_SMALL_SUMS", -1)


@pytest.mark.parametrize("lazy_too", [False, True], ids=["listed", "lazy"])
def test_the_sequence_is_a_read_only_tuple_and_its_repr_names_no_card(lazy_too, monkeypatch):
    if lazy_too:
        monkeypatch.setattr(engine, "_SMALL_SUMS", -1)
    state = xeri.new_game(GERMAN, rng=random.Random(1))
    moves = xeri.legal_moves(state)
    assert isinstance(moves, LegalMoves)
    assert isinstance(moves, tuple)
    assert (type(moves) is not LegalMoves) == lazy_too
    with pytest.raises(AttributeError):
        moves.seat = 0  # type: ignore[attr-defined]
    text = repr(moves)
    assert text == f"<LegalMoves: {len(moves)} moves>"
    assert not any(str(card) in text or card.ascii in text for card in xeri.DECK)
    listed = tuple(moves)
    assert hash(moves) == hash(listed)
    assert moves.index(moves[2]) == 2
    assert moves.count(moves[1]) == 1
    assert list(reversed(moves)) == list(listed)[::-1]
    assert list(moves) == list(listed)
    assert moves + () == listed
    assert moves <= listed
    assert pickle.loads(pickle.dumps(moves)) == listed


def test_no_seat_to_move_gives_an_empty_sequence():
    state = xeri.start(GREEK)
    moves = xeri.legal_moves(state)
    assert len(moves) == 0
    assert not moves
    assert moves == ()
    assert repr(moves) == "<LegalMoves: 0 moves>"


def test_D3_apply_parse_move_and_membership_never_list_the_moves(monkeypatch, always_lazy):
    state = xeri.new_game(CASSINO, rng=random.Random(5))
    move = xeri.legal_moves(state)[3]

    def refuse(*args):
        raise AssertionError("the moves were listed")

    monkeypatch.setattr(SumCapture, "moves", refuse)
    _cold()
    assert move in xeri.legal_moves(state)
    assert xeri.parse_move(state, str(move)) == move
    xeri.apply(state, move)
    with pytest.raises(xeri.IllegalMoveError, match="names no legal move"):
        xeri.parse_move(state, f"{move.card} takes {move.card}")


@attrs.frozen(kw_only=True)
class _Listing(SumCapture):
    """A subclass that changes `moves` alone: counted by listing, as any custom rule."""

    calls: list[int] = attrs.field(factory=list, eq=False, repr=False)

    def moves(self, table, hand, seat):
        self.calls.append(1)
        return super().moves(table, hand, seat)


def test_a_rule_that_overrides_moves_alone_is_listed_once():
    capture = _Listing()
    rules = attrs.evolve(GERMAN, name="listing", capture=capture)
    state = xeri.new_game(rules, rng=random.Random(2))
    moves = xeri.legal_moves(state)
    n = len(moves)
    assert moves[n - 1] in moves
    assert tuple(moves) == SumCapture().moves(
        state.table, state.hands[state.to_move], state.to_move
    )
    assert len(capture.calls) == 1


@attrs.frozen(kw_only=True)
class _Counting(xeri.PileCapture):
    """A custom pile rule that counts, indexes and checks by itself."""

    def moves(self, table, hand, seat):
        raise AssertionError("listed")

    def count_moves(self, table, hand, seat):
        return len(hand)

    def move_at(self, table, hand, seat, index):
        return hand[index]

    def has_move(self, table, hand, seat, move):
        return move in hand


def test_a_custom_rule_s_optional_methods_answer_len_index_and_membership(always_lazy):
    rules = attrs.evolve(GREEK, name="counting", capture=_Counting())
    state = xeri.new_game(rules, rng=random.Random(2))
    moves = xeri.legal_moves(state)
    hand = state.hands[state.to_move]
    assert len(moves) == len(hand)
    assert moves[-1] == hand[-1]
    assert hand[0] in moves
    assert Capture(card=hand[0], taken=()) not in moves
    assert Combine(card=hand[0], onto=hand[1], value=3) not in moves


def test_count_by_card_bisects_for_a_rule_without_it_and_checks_a_rule_s_answer(
    always_lazy, monkeypatch
):
    state = next(s for s in _positions(CASSINO, 3, trail=1.0) if len(s.table) > 8)
    seat = state.to_move
    listed = CASSINO.capture.moves(state.table, state.hands[seat], seat)
    expected = tuple((c, len(list(g))) for c, g in itertools.groupby(m.card for m in listed))
    assert len(expected) > 1
    assert xeri.legal_moves(state).count_by_card() == expected
    assert tuple.__new__(LegalMoves, listed).count_by_card() == expected  # a listed sequence
    monkeypatch.setattr(legal, "_by_card", lambda cls: False)  # as for a rule without it
    moves = xeri.legal_moves(state)
    assert moves.count_by_card() == expected
    assert moves._listed is None  # by bisection over the indices
    monkeypatch.undo()
    monkeypatch.setattr(engine, "_SMALL_TABLE", -1)
    monkeypatch.setattr(engine, "_SMALL_SUMS", -1)
    wrong = expected[:-1]
    monkeypatch.setattr(SumCapture, "count_by_card", lambda self, table, hand, seat: wrong)
    with pytest.raises(xeri.RuleSetError, match="count_by_card returned"):
        xeri.legal_moves(state).count_by_card()

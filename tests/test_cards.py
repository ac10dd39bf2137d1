import copy
import pickle

import pytest

from xeri import DECK, Card, NotationError, Rank, Suit, XeriError


def test_deck_has_52_distinct_sorted_cards():
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert list(DECK) == sorted(DECK)
    assert [c.index for c in DECK] == list(range(52))


@pytest.mark.parametrize("text", ["10D", "10♦", "TD", "td", " 10d "])
def test_parse_spellings_of_ten_of_diamonds(text):
    card = Card.parse(text)
    assert card is Card(rank=Rank.TEN, suit=Suit.DIAMONDS)
    assert str(card) == "10♦"
    assert card.rank is Rank.TEN
    assert card.suit is Suit.DIAMONDS


def test_every_card_round_trips_through_str_ascii_and_repr():
    for card in DECK:
        assert Card.parse(str(card)) is card
        assert Card.parse(card.ascii) is card
        assert eval(repr(card), {"Card": Card}) is card


def test_cards_are_interned_through_pickle_and_copy():
    card = Card.parse("J♣")
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card


def test_card_is_its_own_move_card():
    card = Card.parse("7♥")
    assert card.card is card


@pytest.mark.parametrize("text", ["", "1D", "11H", "10X", "ZZ", "10", "♦", "JJ", "10♦♦"])
def test_parse_refuses_non_cards(text):
    with pytest.raises(NotationError, match="not a card name"):
        Card.parse(text)


@pytest.mark.parametrize(("rank", "suit"), [(0, 0), (14, 0), (1, 4), (1, -1), ("A", 0), (1.0, 0)])
def test_constructor_refuses_bad_rank_or_suit(rank, suit):
    with pytest.raises(XeriError):
        Card(rank=rank, suit=suit)


def test_parse_refuses_non_strings():
    with pytest.raises(NotationError, match="must be a string"):
        Card.parse(10)  # type: ignore[arg-type]


def test_errors_are_value_errors():
    assert issubclass(NotationError, ValueError)


def test_picture_ranks():
    assert [r for r in Rank if r.is_picture] == [Rank.JACK, Rank.QUEEN, Rank.KING]

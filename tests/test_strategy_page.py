"""The page "Strategy, measured" shows what its data files hold.

`benchmarks/strategy.py render` writes the page's tables from
`benchmarks/results/strategy.json` and `benchmarks/results/ladder.jsonl`.
These tests read the committed files and measure nothing: the page must be
up to date with the data, every row must show its counts and an interval
that agrees with its verdict, the images it shows must exist, and the exact
redeal figures must agree with the closed forms of [G4] and [F4].
"""

from __future__ import annotations

import importlib.util
import re
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import xeri

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "strategy.md"


def _script():
    name = "_xeri_benchmarks_strategy"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / "strategy.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


strategy = _script()
TEXT = PAGE.read_text(encoding="utf-8")
NUMBER = r"[+-]?\d+(?:\.\d+)?"
INTERVAL = re.compile(rf"\[({NUMBER}), ({NUMBER})\]")


def _block(name: str) -> str:
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    assert TEXT.count(start) == 1, f"the page has no single {start}"
    assert TEXT.count(end) == 1, f"the page has no single {end}"
    return TEXT.split(start)[1].split(end)[0]


def _rows(name: str) -> list[list[str]]:
    """The body rows of the block's table, as cells."""
    lines = [line for line in _block(name).splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in lines[2:]]


def _count(cell: str) -> int:
    assert re.fullmatch(r"\d{1,3}(?:,\d{3})*", cell), f"{cell!r} is not a count"
    return int(cell.replace(",", ""))


def _interval(cell: str) -> tuple[float, float]:
    match = INTERVAL.fullmatch(cell)
    assert match, f"{cell!r} is not an interval"
    return float(match[1]), float(match[2])


def test_blocks_are_in_page_order():
    starts = [TEXT.index(f"<!-- {name}:start -->") for name in strategy.BLOCKS]
    assert starts == sorted(starts)
    for name in strategy.BLOCKS:
        assert _block(name).strip(), f"the {name} block is empty: run strategy.py render"


def test_page_shows_what_the_data_files_hold():
    ladder = strategy.read_ladder(strategy.LADDER_JSONL)
    data = strategy.read_strategy(strategy.STRATEGY_JSON)
    assert data is not None, "benchmarks/results/strategy.json is missing: run strategy.py measure"
    league = strategy.read_league(strategy.LEAGUE_JSON)
    speed = strategy.read_speed(strategy.SPEED_JSONL)
    expected = strategy.fill(TEXT, strategy.blocks(ladder, data, league, speed))
    assert expected == TEXT, "docs/strategy.md is stale: run `python benchmarks/strategy.py render`"


def test_every_ladder_row_has_its_deals_and_an_interval_that_agrees_with_its_verdict():
    rows = _rows("ladder")
    if not rows:
        assert "has not been measured" in _block("ladder")
        assert not strategy.LADDER_JSONL.exists()
        return
    width = len(rows[0])
    # The ladder's table first; the timings of the defaults follow as a table of their own.
    ladder = rows[: next((i for i, cells in enumerate(rows) if len(cells) != width), len(rows))]
    assert width == 11
    assert len(ladder) >= 12
    for cells in ladder:
        rules, step, verdict, difference, interval, _, _, deals, _, rounds, _ = cells
        assert _count(deals) > 0
        assert _count(rounds) == 2 * _count(deals), "each duplicate deal is played twice"
        low, high = _interval(interval)
        assert low <= float(difference) <= high
        expected = "holds" if low > 0 else "reversed" if high < 0 else "not separated"
        assert verdict == expected, f"{rules} {step}: {verdict} for [{low}, {high}]"
    for rules in {cells[0] for cells in ladder}:
        assert re.search(rf"^\* On {rules} ", _block("ladder"), re.MULTILINE), rules


def test_every_league_row_has_a_rating_inside_its_interval_and_every_preset_its_table():
    rows = _rows("league")
    if not rows:
        assert "has not been measured" in _block("league")
        assert not strategy.LEAGUE_JSON.exists()
        return
    for cells in rows:
        _, _, rating, interval, _ = cells
        low, high = _interval(interval)
        assert low <= float(rating) <= high
    for rules in {cells[0] for cells in rows}:
        assert any(c[1] == "`random`" and c[2] == "+0" for c in rows if c[0] == rules), rules


def test_every_dealer_row_has_its_deals_and_rounds():
    rows = _rows("dealer")
    assert {cells[0] for cells in rows} == {"GREEK", "GREEK_FOUR", "GERMAN"}
    assert any("ISMCTSBot" in cells[1] for cells in rows), "the strongest bot is measured"
    for cells in rows:
        rules, _, difference, interval, dealer, other, wins, deals, rounds = cells
        seats = xeri.find_rules(strategy.SHOWN_BACK[rules]).seats
        assert _count(rounds) == seats * _count(deals), "one game per rotation of the hands"
        low, high = _interval(interval)
        assert low <= float(difference) <= high
        assert abs(float(dealer) - float(other) - float(difference)) < 0.02
        won = [_count(n) for n in wins.split(" / ")]
        assert sum(won) == _count(rounds)


def test_every_xeri_row_has_its_rounds():
    rows = _rows("xeri")
    assert len(rows) == len(_rows("dealer"))
    for cells in rows:
        _, _, rounds, per_round, jacks, points, interval, dealer, other, per_xeri = cells
        assert _count(rounds) > 0
        jack, _, xeris = jacks.partition(" of ")
        assert _count(jack) <= _count(xeris)
        assert abs(_count(xeris) / _count(rounds) - float(per_round)) < 0.001
        low, high = _interval(interval)
        assert low <= float(points) <= high
        assert abs(float(dealer) + float(other) - float(points)) < 0.02
        assert 10 <= float(per_xeri) <= 20 or _count(xeris) == 0


def test_every_redeal_row_shows_the_exact_figure():
    rows = _rows("redeal")
    assert len(rows) == 3
    for cells in rows:
        rules, _, deals, redealt, share, interval, exact, _, _ = cells
        shown = strategy.SHOWN_BACK[rules]
        assert _count(redealt) <= _count(deals)
        assert abs(_count(redealt) / _count(deals) - float(share)) < 0.0001
        _interval(interval)
        exact_share, _ = strategy.exact_redeal(xeri.find_rules(shown))
        assert exact == f"{float(exact_share):.4f}"


def test_G4_exact_redeal_share_is_the_chance_for_a_table_drawn_from_the_deck():
    share, mean = strategy.exact_redeal(xeri.GREEK)
    # A Jack on top, or no Jack on top and the card below it of the top card's rank.
    assert share == Fraction(4, 52) + Fraction(48, 52) * Fraction(3, 51) == Fraction(29, 221)
    # Some redealt rounds are redealt more than once.
    assert share < mean


def test_F4_exact_redeal_share_is_the_chance_for_a_table_drawn_from_the_deck():
    share, _ = strategy.exact_redeal(xeri.GREEK_FOUR)
    # No Jack on top and four distinct ranks, the top card first.
    fine = Fraction(48, 52) * Fraction(48, 51) * Fraction(44, 50) * Fraction(40, 49)
    assert share == 1 - fine


def test_D2_german_xeri_is_never_redealt():
    assert strategy.exact_redeal(xeri.GERMAN) == (0, 0)


@pytest.mark.parametrize("rules", [xeri.GREEK, xeri.GREEK_FOUR, xeri.GERMAN], ids=str)
def test_rotations_give_every_hand_to_every_seat_from_the_engine_deal(rules):
    for index in range(12):
        games = strategy.rotations(rules, 7, index)
        assert len(games) == rules.seats
        reference = xeri.new_game(
            rules, dealer=index % rules.seats, rng=strategy._deal_rng(7, rules, index)
        )
        for turn, (dealer, deck, reshuffles) in enumerate(games):
            state = xeri.apply(xeri.start(rules, dealer=dealer), xeri.Deal(deck=deck))
            for stock in reshuffles:
                state = xeri.apply(state, xeri.Reshuffle(stock=stock))
            if turn == 0:
                assert state == reference
            for seat in range(rules.seats):
                assert state.hands[seat] == reference.hands[(seat - turn) % rules.seats]
            assert state.table == reference.table
            size = rules.hand_size
            assert state.stock == strategy._rotated(reference.stock, rules.seats, size, turn)
            assert state.redealt == reference.redealt


def test_render_without_data_says_so():
    texts = strategy.blocks([], None)
    assert "has not been measured" in texts["ladder"]
    assert "has not been measured" in texts["league"]
    assert all("Not measured yet" in texts[name] for name in ("dealer", "xeri", "redeal"))


def test_images_on_the_page_exist_and_are_small():
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", TEXT)
    assert images, "the page shows its plots"
    for image in images:
        path = PAGE.parent / image
        assert path.is_file(), f"{image} is missing: run strategy.py render"
        assert path.stat().st_size < 100_000, f"{image} is too large for the repository"

"""Make the tutorial's picture of a table: a real game of Greek Xeri as one seat sees it.

Run from the repository (it needs Pillow, from the `docs` extra, and a font
with the suit symbols, found through fontconfig or given with `--font`):

    python tools/table_picture.py docs/images/table.png

It deals a seeded match, lets the counting bot (Player 1) and the greedy bot
(Player 2) play the first moves, then draws what Player 1's observation
holds, and nothing else: Player 2's hand face down, the pile fanned with its
top card last, the stock as a number, each side's captures as a face-down
heap with its count and xeris, and Player 1's own hand face up. The same
seed and number of moves make the same picture.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))  # this checkout's library, whatever is installed

import xeri  # noqa: E402  # after the path: the checkout's, not an installed copy
from xeri.bots import CountingBot, GreedyBot  # noqa: E402  # likewise

SEED, MOVES, SEAT = 2, 28, 0
WIDTH, HEIGHT = 900, 520
CARD_W, CARD_H = 70, 100
FELT = (22, 92, 60)
INK = (25, 25, 25)
RED = (200, 30, 40)
BACK = (40, 70, 150)
LABEL = (235, 240, 235)


def _font_file(path: str | None) -> str:
    if path is not None:
        return path
    found = shutil.which("fc-match")
    if found is None:
        raise SystemExit("no fontconfig to find a font: pass --font FILE.ttf")
    return subprocess.run(
        [found, "-f", "%{file}", "sans:charset=2660 2665 2666 2663"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def position() -> xeri.Observation:
    """Player 1's observation after the first moves of the seeded match."""
    rng = random.Random(SEED)
    state = xeri.new_game(xeri.GREEK, dealer=1, rng=rng)
    bots = (CountingBot(), GreedyBot())
    for _ in range(MOVES):
        seat = state.to_move
        if seat is None:
            raise SystemExit("the picture's moves must stay inside the first round")
        state = xeri.apply(state, bots[seat].choose(xeri.observe(state, seat), rng))
    return xeri.observe(state, SEAT)


class _Painter:
    def __init__(self, font_file: str) -> None:
        self.image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
        self.draw = ImageDraw.Draw(self.image)
        self.small = ImageFont.truetype(font_file, 20)
        self.big = ImageFont.truetype(font_file, 40)
        self.label = ImageFont.truetype(font_file, 18)

    def card(self, x: int, y: int, card: xeri.Card | None) -> None:
        """A card at (x, y): face up, or its back when `card` is None."""
        box = (x, y, x + CARD_W, y + CARD_H)
        if card is None:
            self.draw.rounded_rectangle(box, radius=8, fill=BACK, outline=LABEL, width=2)
            self.draw.rounded_rectangle(
                (x + 7, y + 7, x + CARD_W - 7, y + CARD_H - 7), radius=5, outline=LABEL, width=1
            )
            return
        self.draw.rounded_rectangle(box, radius=8, fill=(250, 250, 246), outline=INK, width=2)
        colour = RED if card.suit in (xeri.Suit.HEARTS, xeri.Suit.DIAMONDS) else INK
        text = str(card)
        self.draw.text((x + 7, y + 5), text, font=self.small, fill=colour)
        suit = text[-1]
        self.draw.text(
            (x + CARD_W // 2, y + CARD_H // 2 + 8), suit, font=self.big, fill=colour, anchor="mm"
        )

    def text(self, x: int, y: int, words: str) -> None:
        self.draw.text((x, y), words, font=self.label, fill=LABEL)


def render(seen: xeri.Observation, font_file: str) -> Image.Image:
    """The picture of one seat's observation."""
    paint = _Painter(font_file)
    other = 1 - seen.seat
    # The other hand, face down: only its size is known.
    paint.text(40, 18, f"Player {other + 1}: {seen.hand_sizes[other]} cards, hidden")
    for i in range(seen.hand_sizes[other]):
        paint.card(40 + i * 38, 44, None)
    # The stock, face down, and the pile fanned, its top card last.
    paint.text(40, 182, f"stock: {seen.stock_size} cards")
    for i in range(3):
        paint.card(40 + i * 3, 208 - i * 3, None)
    paint.text(220, 182, f"pile: {len(seen.table)} cards, the top card decides")
    for i, item in enumerate(seen.table):  # a pile game's table holds cards only
        paint.card(220 + i * 46, 208, item if isinstance(item, xeri.Card) else None)
    # Each side's captures this round, face down, counted.
    captured = seen.captured_counts
    xeris = [sum(1 for t in seen.takes if t.xeri is not None and t.seat == s) for s in (0, 1)]
    for row, side in enumerate((other, seen.seat)):
        y = 40 + row * 330
        mark = f", {xeris[side]} xeri" + ("s" if xeris[side] != 1 else "") if xeris[side] else ""
        paint.text(610, y, f"Player {side + 1} took {captured[side]} cards{mark}")
        if captured[side]:
            for i in range(min(4, captured[side])):
                paint.card(670 + i * 4, y + 30 - i * 2, None)
    # The own hand, face up, and whose turn it is.
    paint.text(40, 350, f"Player {seen.seat + 1} (you): your hand")
    for i, card in enumerate(seen.hand):
        paint.card(40 + i * (CARD_W + 10), 376, card)
    turn = "your turn" if seen.to_move == seen.seat else f"Player {other + 1} to play"
    paint.text(40, HEIGHT - 30, f"Round {len(seen.round_results) + 1}, {turn}")
    return paint.image


def main(argv: list[str] | None = None) -> int:
    """Play the seeded moves and write the picture."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the PNG to write")
    parser.add_argument("--font", default=None, help="a TrueType font file with the suits")
    args = parser.parse_args(argv)
    render(position(), _font_file(args.font)).save(args.out, optimize=True)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Make the picture of the terminal game on the home page: a real `xeri play` in tmux.

Run from the repository (it needs tmux, Pillow from the `docs` extra, and a
monospace font with the suit symbols, found through fontconfig or given
with `--font`):

    python tools/terminal_picture.py docs/images/play.png

It starts `python -m xeri play` (this checkout's `src` first on the path) in
a detached tmux session of 80 columns, types the answers, captures the pane
with its colours (`tmux capture-pane -e`) and draws the text, colours
included, into a PNG. The game is seeded, and `--fast` keeps the bots from
pausing, so the same command makes the same picture.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
COLUMNS, ROWS = 80, 37
GAME = ["play", "--rules", "greek", "--against", "counting", "--seed", "9", "--fast"]
GAME += ["--color", "always"]
ANSWERS = ["kh"]
SESSION = "xeri-picture"

BACKGROUND = (30, 30, 36)
FOREGROUND = (220, 220, 220)
RED = (235, 90, 90)
PALETTE = {31: RED, 32: (120, 200, 120), 33: (220, 200, 110), 34: (120, 150, 230)}
_SGR = re.compile(r"\x1b\[([0-9;]*)m")


def _font(path: str | None, size: int) -> ImageFont.FreeTypeFont:
    if path is None:
        found = shutil.which("fc-match")
        if found is None:
            raise SystemExit("no fontconfig to find a monospace font: pass --font FILE.ttf")
        path = subprocess.run(
            [found, "-f", "%{file}", "monospace:charset=2660 2665 2666 2663"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    return ImageFont.truetype(path, size)


def _tmux(*argv: str) -> str:
    return subprocess.run(["tmux", *argv], capture_output=True, text=True, check=True).stdout


def capture(answers: list[str]) -> str:
    """The pane of a `xeri play` in tmux after the answers are typed, escape codes included."""
    env = f"PYTHONPATH={shlex.quote(str(ROOT / 'src'))} TERM=xterm-256color"
    command = f"{env} {shlex.quote(sys.executable)} -m xeri {shlex.join(GAME)}; sleep 30"
    subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True, check=False)
    _tmux("new-session", "-d", "-s", SESSION, "-x", str(COLUMNS), "-y", str(ROWS), command)
    try:
        time.sleep(2.0)
        for answer in answers:
            _tmux("send-keys", "-t", SESSION, answer, "Enter")
            time.sleep(1.0)
        return _tmux("capture-pane", "-t", SESSION, "-p", "-e")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", SESSION], capture_output=True, check=False)


def render(pane: str, font: ImageFont.FreeTypeFont) -> Image.Image:
    """The pane's text drawn as a terminal: the colours of its escape codes, 80 columns."""
    lines = pane.rstrip("\n").split("\n")[-ROWS:]
    _, top, _, bottom = font.getbbox("M")
    cell_w, cell_h = round(font.getlength("M")), round((bottom - top) * 1.45)
    pad = cell_w
    image = Image.new(
        "RGB", (COLUMNS * cell_w + 2 * pad, len(lines) * cell_h + 2 * pad), BACKGROUND
    )
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        colour, reverse, column = FOREGROUND, False, 0
        parts = _SGR.split(line)
        for index, part in enumerate(parts):
            if index % 2:  # an escape sequence's parameters
                for code in map(int, filter(None, part.split(";"))) if part else [0]:
                    if code == 0:
                        colour, reverse = FOREGROUND, False
                    elif code == 39:
                        colour = FOREGROUND
                    elif code == 7:
                        reverse = True
                    elif code == 27:
                        reverse = False
                    elif code in PALETTE:
                        colour = PALETTE[code]
                continue
            for char in part:
                x, y = pad + column * cell_w, pad + row * cell_h
                if reverse:
                    draw.rectangle((x, y, x + cell_w, y + cell_h), fill=colour)
                    draw.text((x, y), char, font=font, fill=BACKGROUND)
                else:
                    draw.text((x, y), char, font=font, fill=colour)
                column += 1
    return image


def main(argv: list[str] | None = None) -> int:
    """Capture the game and write the picture."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the PNG to write")
    parser.add_argument("--font", default=None, help="a monospace TrueType font file")
    parser.add_argument("--size", type=int, default=16, help="the font size in pixels")
    args = parser.parse_args(argv)
    if shutil.which("tmux") is None:
        raise SystemExit("tmux is needed: it runs the game in a terminal of 80 columns")
    os.environ.setdefault("LANG", "C.UTF-8")
    pane = capture(ANSWERS)
    render(pane, _font(args.font, args.size)).save(args.out, optimize=True)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

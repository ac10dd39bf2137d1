"""The long fuzzing run of `from_json` and `parse_move`, for maintainers.

One command, from the repository root (needs the `test` extra)::

    python tests/fuzz/fuzz_json.py --minutes 30

It runs the properties of `tests/test_fuzz.py` (whatever the text,
`from_json` raises only `InvalidStateError` and every accepted text writes
back to itself; `parse_move` raises only `IllegalMoveError`) in batches of
hypothesis examples with fresh random seeds until the time is up, with more
changes per document than the suite makes. The first failure stops the run;
hypothesis prints the failing example and the `@reproduce_failure` line to
paste into the test. `--batch` sets the examples per batch (default 20,000).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path


def main() -> None:
    """Fuzz until the time is up or a property fails."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--batch", type=int, default=20_000)
    args = parser.parse_args()

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import json  # noqa: PLC0415  # imported when run, not when pytest collects the file

    from hypothesis import HealthCheck, given, settings  # noqa: PLC0415
    from hypothesis import strategies as st  # noqa: PLC0415

    import test_fuzz as tf  # noqa: PLC0415  # the suite's helpers, from tests/
    import xeri  # noqa: PLC0415

    batch = settings(
        max_examples=args.batch,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )

    @batch
    @given(st.sampled_from(range(len(tf.corpus()))), st.integers(1, 6), st.integers(0, 2**64))
    def mutated(index: int, changes: int, seed: int) -> None:
        rng = random.Random(seed)
        doc = json.loads(tf.corpus()[index])
        for _ in range(changes):
            doc = tf.mutate(rng, doc, tf.random_value(rng))
        tf.check_loading(tf.render(rng, doc))

    @batch
    @given(st.text() | st.binary().map(lambda b: b.decode("utf-8", "replace")))
    def text(value: str) -> None:
        tf.check_loading(value)

    @batch
    @given(st.data(), tf.MOVE_TEXT)
    def moves(data: st.DataObject, value: str) -> None:
        state = data.draw(st.sampled_from(tf.move_states()))
        try:
            move = xeri.parse_move(state, value)
        except xeri.IllegalMoveError:
            return
        assert move in xeri.legal_moves(state)

    end = time.monotonic() + args.minutes * 60
    rounds = 0
    while time.monotonic() < end:
        for prop in (mutated, text, moves):
            started = time.monotonic()
            prop()
            rounds += 1
            print(  # progress of a command-line run
                f"{prop.__name__}: {args.batch} examples in {time.monotonic() - started:.0f} s",
                flush=True,
            )
    print(f"no failure in {rounds} batches")  # the run's result


if __name__ == "__main__":
    main()

"""`python -m xeri`: the command line, see `xeri.cli`."""

from xeri.cli import main

if __name__ == "__main__":
    raise SystemExit(main())

"""The shape of a capture family's table of options: one [`Option`][xeri.Option] per field.

Each family (`xeri._families.pile`, `xeri._families.sums`) keeps ONE table
of the options of its capture rule. The serializer reads its field names,
defaults and format versions from it, the CLI its words, the test
strategies its names and defaults, and the rollout's gate which options its
fast kernel plays: no other list of option names exists.
"""

from __future__ import annotations

import attrs

__all__ = ["Option"]


@attrs.frozen(kw_only=True)
class Option:
    """One option of a capture rule, as its family's table describes it.

    Examples:
        >>> import xeri
        >>> sorted(o.name for o in xeri.SumCapture.OPTIONS if o.kernel)
        ['forced_capture', 'multi_capture', 'self_raise']
    """

    name: str
    """The field of the capture rule."""
    default: object
    """Its default value (the value of the family's first game)."""
    since: int
    """The format version in which the option appeared; options newer than version 1 are
    written only when they differ from the default, so older documents are written again
    byte for byte. 3 marks an option newer than the documents of version 2 (documents
    still carry version 2: one without the option reads as before)."""
    kernel: bool
    """Whether the family's fast rollout kernel plays every value of the option; when False,
    the kernel is used only while the option holds its default."""
    words: str | None
    """How the CLI's rules table names the option when it differs from its default
    (None: not shown there)."""
    doc: str
    """One line on what the option does, with the clause of the rules it follows."""
    needs: str | None = None
    """The option that must be on for this one to mean anything (the CLI leaves its words
    out otherwise), or None."""

    def differs(self, rule: object) -> bool:
        """Whether `rule` holds another value than the default for this option.

        Args:
            rule: a capture rule of the family.

        Returns:
            True when the field differs from `default`.
        """
        return bool(getattr(rule, self.name) != self.default)

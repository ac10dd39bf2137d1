"""MkDocs hooks of the documentation site (`hooks:` in `mkdocs.yml`).

The copy button of a console example copies only its code. A Python session
(`>>> ` and `... ` prompts, with the output below each statement) pasted
whole into an interpreter or a file is a SyntaxError; so every code block
whose first line is a prompt gets a `data-copy` attribute holding its
statements without the prompts and without the output, which the copy
button of mkdocs-material copies instead of the text shown.
"""

from __future__ import annotations

import html
import re

_CODE = re.compile(r"(<code)(>)(.*?)(</code>)", flags=re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


def session_code(text: str) -> str | None:
    """The statements of a console session without prompts or output; None if not a session.

    `>>> x = 1` gives `x = 1`, a `... ` line its continuation, and a lone
    `...` (a blank line inside a block) an empty line; a blank line closes a
    block before the next statement, as an interpreter needs; every other
    line is output and left out.
    """
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    if not first.startswith(">>>"):
        return None
    code: list[str] = []
    in_block = False  # the last statement went on over `... ` lines
    for line in lines:
        if line.startswith(">>>"):
            if in_block and code and code[-1]:
                code.append("")  # the end of a block, as an interpreter needs it
            code.append(line[4:])
            in_block = False
        elif line.startswith("..."):
            code.append(line[4:])
            in_block = True
    return "\n".join(code).rstrip("\n") + "\n"


def _with_copy(match: re.Match[str]) -> str:
    text = html.unescape(_TAG.sub("", match[3]))
    code = session_code(text)
    if code is None:
        return match[0]
    attribute = html.escape(code, quote=True).replace("\n", "&#10;")
    return f'{match[1]} data-copy="{attribute}"{match[2]}{match[3]}{match[4]}'


def copy_only_code(page_html: str) -> str:
    """The HTML of a page with a `data-copy` on every code block that is a console session."""
    return _CODE.sub(_with_copy, page_html)


def on_page_content(html_text: str, **kwargs: object) -> str:
    """MkDocs hook: each page's HTML, console sessions copyable as code."""
    return copy_only_code(html_text)

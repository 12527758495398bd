"""Text written into Markdown: names and labels shown as text, never run as HTML.

Markdown passes HTML through, and many renderers show it: a system name or a class
label such as ``<img src=x onerror=alert(1)>`` would run in the reader's browser. So
``&``, ``<`` and ``>`` are written as HTML entities (as the HTML report writes
them), and in a table cell ``|`` is escaped and a line break becomes a space.
"""

import html


def markdown_text(value: object) -> str:
    """``value`` as Markdown text: HTML's special characters as entities."""
    return html.escape(str(value), quote=False)


def markdown_cell(value: object) -> str:
    """``value`` as the text of one Markdown table cell."""
    return " ".join(markdown_text(value).replace("|", "\\|").splitlines())

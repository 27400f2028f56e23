"""A document as lines of text: what the importer may read, and one sentence for what it may not.

Plain text is read as it is. Markdown's headings (``#``, setext underlines) are found by
markdown-it-py, the CommonMark parser that rich already brings, so a ``#`` inside a code block is
not taken for a heading. Word files are read with python-docx: paragraphs in order, a "Heading N"
or "Title" style gives the heading level, table rows become tab-separated lines. PDF is refused:
its text comes out in drawing order (columns, running heads, hyphenated words), so no library
gives the words faithfully in reading order; converting it to text first lets an admin check it.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from tabletop.core.errors import UserError
from tabletop.core.i18n import t

# A rulebook's text is well under 1 MB (the TI4 full rules reference is ~400 KB); a bigger
# file is almost certainly not one, and reading it whole would hold the memory for nothing.
MAX_BYTES = 8 * 1024 * 1024
TEXT_SUFFIXES = (".txt", ".text", "")
MARKDOWN_SUFFIXES = (".md", ".markdown")
WORD_SUFFIXES = (".docx",)
SUFFIXES = TEXT_SUFFIXES + MARKDOWN_SUFFIXES + WORD_SUFFIXES


@dataclass(frozen=True)
class Line:
    """One non-blank line: its text (markup markers removed), how many blank lines came before
    it, its 1-based line number in the file, and a heading level when the markup gives one."""

    text: str
    blanks_before: int
    number: int
    level: int | None = None
    whole: bool = False  # a paragraph the file marks as one (Word): never joined to the next


def read_document(path: Path) -> list[Line]:
    """The document's non-blank lines; UserError with one sentence when it cannot be imported."""
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        raise UserError(t("import.pdf"))
    if suffix not in SUFFIXES:
        raise UserError(t("import.kind", suffix=suffix, path=str(path)[:200], kinds=", ".join(s for s in SUFFIXES if s)))
    try:
        if path.is_dir():
            raise UserError(t("import.folder", path=str(path)[:200]))
        if not path.is_file():
            raise UserError(t("import.no_file", path=str(path)[:200]))
        if path.stat().st_size > MAX_BYTES:
            raise UserError(t("import.too_big", limit=MAX_BYTES // (1024 * 1024)))
        raw = path.read_bytes()
    except (OSError, ValueError):
        raise UserError(t("import.unreadable", path=str(path)[:200])) from None
    if suffix in WORD_SUFFIXES:
        lines = _word_lines(raw)
    else:
        text = _text(raw)
        lines = _markdown_lines(text) if suffix in MARKDOWN_SUFFIXES else _plain_lines(text)
    if not any(line.text.strip() for line in lines):
        raise UserError(t("import.empty"))
    return lines


def _text(raw: bytes) -> str:
    if b"\x00" in raw:
        raise UserError(t("import.binary"))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(t("import.not_utf8")) from None
    # control characters other than tab and line or page breaks mean a binary file read as text
    if re.search(r"[\x01-\x08\x0e-\x1f\x7f]", text):
        raise UserError(t("import.binary"))
    # every kind of line break as one: pdftotext ends pages with a form feed
    return re.sub(r"\r\n?|[\x0b\x0c\x85\u2028\u2029]", "\n", text)


def _plain_lines(text: str, levels: dict[int, int] | None = None, drop: set[int] | None = None) -> list[Line]:
    out: list[Line] = []
    blanks = 0
    for number, raw in enumerate(text.split("\n"), 1):
        if drop and number in drop:  # a setext underline: markup, not a line or a gap
            continue
        if not raw.strip():
            blanks += 1
            continue
        level = (levels or {}).get(number)
        value = raw.rstrip()
        if level is not None:
            value = re.sub(r"^\s{0,3}#{1,6}\s+|\s+#+\s*$", "", value).strip()
        out.append(Line(value, blanks, number, level))
        blanks = 0
    return out


def _markdown_lines(text: str) -> list[Line]:
    """Headings as markdown-it-py finds them; a setext underline (=== or ---) is markup, dropped."""
    from markdown_it import MarkdownIt

    levels: dict[int, int] = {}
    underlines: set[int] = set()
    for token in MarkdownIt("commonmark").parse(text):
        if token.type == "heading_open" and token.map:
            first, end = token.map
            levels[first + 1] = int(token.tag[1])
            if token.markup in ("=", "-"):
                underlines.add(end)
    return _plain_lines(text, levels, underlines)


def _word_lines(raw: bytes) -> list[Line]:
    import io

    import docx  # python-docx
    from docx.opc.exceptions import PackageNotFoundError
    from docx.table import Table

    try:
        document = docx.Document(io.BytesIO(raw))
        blocks = list(document.iter_inner_content())
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, SyntaxError):  # lxml's XML errors are SyntaxErrors
        raise UserError(t("import.binary")) from None
    out: list[Line] = []
    number = 0
    for block in blocks:
        if isinstance(block, Table):
            texts, level = _table_lines(block), None
        else:
            style = (block.style.name if block.style is not None else "") or ""
            # Word draws a list's bullets itself: its text has none, the item is marked as one here
            mark = "• " if style.startswith("List Bullet") else ""
            texts, level = [mark + block.text], (1 if style == "Title" else _heading_level(style))
        for value in texts:
            number += 1
            if value.strip():
                out.append(Line(value.rstrip(), 1, number, level, whole=True))
    return out


def _table_lines(table) -> list[str]:
    """A table's rows as tab-separated lines; a merged cell once (python-docx repeats it for
    every column it spans); a table inside a cell as its own rows after the row that holds it."""
    lines: list[str] = []
    for row in table.rows:
        seen: list = []  # the cells' XML elements, held (an id alone could be reused)
        cells, inner = [], []
        for cell in row.cells:
            if any(cell._tc is element for element in seen):
                continue
            seen.append(cell._tc)
            cells.append(" ".join(p.text for p in cell.paragraphs))
            inner += [line for nested in cell.tables for line in _table_lines(nested)]
        lines += ["\t".join(cells), *inner]
    return lines


def _heading_level(style: str) -> int | None:
    match = re.fullmatch(r"Heading (\d)", style)
    return int(match.group(1)) if match else None

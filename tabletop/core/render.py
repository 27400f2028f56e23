"""Answers as library-neutral pages: embeds, buttons and selects described as plain data that
fits every Discord limit. Each front end turns them into its medium: the Discord cogs into
discord.py objects, the console and the command line into text (``tabletop.console.printed``);
``core.payloads`` gives the exact JSON Discord receives and checks it against Discord's limits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tabletop.core.components import Component
from tabletop.core.i18n import current, t
from tabletop.core.text import UNSAFE_CHARS

# Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits)
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
EMBED_TOTAL_MAX = 6000
CONTENT_MAX = 2000
BUTTON_LABEL_MAX = 80
SELECT_OPTIONS_MAX = 25
SELECT_LABEL_MAX = 100
SELECT_DESCRIPTION_MAX = 100
CUSTOM_ID_MAX = 100
ROWS_MAX = 5
BUTTONS_PER_ROW = 5
# A paged answer's ◀ ▶: they turn one message's pages, which only the front end showing them
# holds (a page number is not worth a database row), so it turns them itself (`local`).
PAGER = Component("page", "page:{step}", local=True, step="prev|next")
_STEPS = {"prev": -1, "next": 1}


def page_step(custom_id: str | None) -> int:
    """-1 or +1 for a pager's ◀ ▶, 0 for any other button."""
    match = PAGER.pattern.fullmatch(custom_id or "")
    return _STEPS[match["step"]] if match else 0


# Our own budget for a page's description: a screenful to read, well inside every limit.
PAGE_BUDGET = 2000

COLOR_RULE = 0x3B6EA5
COLOR_HIGHLIGHT = 0xE0A526
COLOR_OK = 0x3BA55D
COLOR_ERROR = 0xD9534F

_MD_SPECIAL = re.compile(r"([*_~`|\\])")
_MD_LINE_START = re.compile(r"^([>#-])", re.MULTILINE)


def escape_md(text: str) -> str:
    """Make rules text show literally in Discord markdown."""
    return _MD_LINE_START.sub(r"\\\1", _MD_SPECIAL.sub(r"\\\1", text))


def plain(markdown: str) -> str:
    """Our markdown back to plain text (for the console and the fidelity checks)."""
    out = re.sub(r"(?<!\\)(\*\*|__)", "", markdown)
    out = re.sub(r"(?<![\\*])\*(?=\S)(.+?)(?<=[^\s\\])\*", r"\1", out)  # *italic*
    out = re.sub(r"^(> |>$|-# )", "", out, flags=re.MULTILINE)  # as Discord: ">99%" is no quote
    return re.sub(r"\\(.)", r"\1", out)


_CONTROL = re.compile(f"[{UNSAFE_CHARS}]")  # tabs and line breaks stay: text is laid out in lines


def harmless(value: str) -> str:
    """Control characters shown as symbols, never sent to the terminal: '\\x1b[31m' cannot
    recolour it, and bidi overrides cannot reorder what is shown."""

    def picture(m: re.Match) -> str:
        ch = m.group(0)
        return chr(0x2400 + ord(ch)) if ord(ch) < 0x20 else "␡" if ch == "\x7f" else "�"

    return _CONTROL.sub(picture, value)


@dataclass
class Embed:
    title: str = ""
    description: str = ""
    fields: list[tuple[str, str]] = field(default_factory=list)
    footer: str = ""
    color: int = COLOR_RULE
    image: str = ""  # "attachment://chart.png": a file sent with the message
    # blocks after the description, each a part of its own in a card (an agenda's outcomes);
    # read one after another, they continue the description
    sections: list[str] = field(default_factory=list)

    @property
    def body(self) -> str:
        """The description and its sections, as one reads them."""
        return "\n".join(x for x in (self.description, *self.sections) if x)

    def total(self) -> int:
        texts = (self.title, self.description, self.footer, *self.sections)
        return sum(len(x) for x in texts) + sum(len(n) + len(v) for n, v in self.fields)


@dataclass
class Button:
    label: str
    custom_id: str  # empty for a link
    style: str = "secondary"  # primary | secondary | success | danger
    disabled: bool = False
    emoji: str = ""
    url: str = ""  # a link button (Discord style 5): opens the address, sends nothing back


@dataclass
class SelectOption:
    label: str
    value: str
    description: str = ""


@dataclass
class Select:
    custom_id: str
    placeholder: str
    options: list[SelectOption]


@dataclass(frozen=True)
class Attachment:
    """A file sent with a message (a chart), by name; an embed may show it as attachment://name."""

    name: str
    data: bytes


@dataclass
class Reply:
    """One message: text, embeds, rows of components and files. ``ephemeral`` is a delivery hint."""

    content: str = ""
    embeds: list[Embed] = field(default_factory=list)
    rows: list[list] = field(default_factory=list)
    ephemeral: bool = False
    files: list[Attachment] = field(default_factory=list)
    follow_ups: list[Reply] = field(default_factory=list)  # messages of their own, posted after this one


@dataclass
class Paged:
    """A long answer as pages, opened at `start`; `rows` (buttons, menus) show under every page
    after the ◀ ▶ row. Front ends page through it; `replies()` is every page."""

    pages: list[Embed]
    start: int = 0
    rows: list[list] = field(default_factory=list)
    locale: str = field(default_factory=current)  # its ◀ ▶ keep the asker's language
    note: str = ""  # a line above the pages ("found in another game")
    files: list[Attachment] = field(default_factory=list)  # sent with the first message

    def reply(self, page: int | None = None, ephemeral: bool = False) -> Reply:
        page = self.start if page is None else max(0, min(page, len(self.pages) - 1))
        rows = []
        if len(self.pages) > 1:
            rows.append(
                [
                    Button(t("prev", self.locale), PAGER.id(step="prev"), emoji="◀", disabled=page == 0),
                    Button(t("next", self.locale), PAGER.id(step="next"), emoji="▶", disabled=page == len(self.pages) - 1),
                ]
            )
        return Reply(content=self.note, embeds=[self.pages[page]], rows=rows + self.rows, ephemeral=ephemeral, files=self.files)

    def replies(self) -> list[Reply]:
        return [self.reply(i) for i in range(len(self.pages))]


def split_text(text: str, budget: int) -> list[str]:
    """Split text into chunks within budget: at lines, then sentences, then characters.
    Joining the chunks with newlines (between lines) or directly gives the text back."""
    if len(text) <= budget:
        return [text]
    chunks: list[str] = []
    current = ""
    for line in text.split("\n"):
        pieces = [line]
        if len(line) > budget:
            pieces = [p for p in re.split(r"(?<=[.!?。！？])(?=\s)", line) if p]
            pieces = [x for p in pieces for x in (_hard_split(p, budget) if len(p) > budget else [p])]
            # continuation pieces of one line are joined without a newline
            for i, piece in enumerate(pieces):
                sep = "\n" if (i == 0 and current) else ""
                if len(current) + len(sep) + len(piece) > budget and current:
                    chunks.append(current)
                    current, sep = "", ""
                current += sep + piece
            continue
        sep = "\n" if current else ""
        if len(current) + len(sep) + len(line) > budget and current:
            chunks.append(current)
            current, sep = "", ""
        current += sep + line
    if current:
        chunks.append(current)
    return chunks


def _hard_split(text: str, budget: int) -> list[str]:
    return [text[i : i + budget] for i in range(0, len(text), budget)]


def paginate(blocks: list[str], budget: int = PAGE_BUDGET) -> list[tuple[str, set[int]]]:
    """Pack blocks into pages of at most `budget` characters, never splitting a block that
    fits on a page. Returns (text, indexes of the blocks on that page)."""
    pages: list[tuple[str, set[int]]] = []
    text, members = "", set[int]()
    for i, block in enumerate(blocks):
        for chunk in split_text(block, budget):
            sep = "\n\n" if text else ""
            if text and len(text) + len(sep) + len(chunk) > budget:
                pages.append((text, members))
                text, members, sep = "", set(), ""
            text += sep + chunk
            members.add(i)
    if text or not pages:
        pages.append((text, members))
    return pages


def chunk_lines(items: list[str], budget: int, sep: str = ", ") -> list[str]:
    """Join items into strings within budget, splitting between items (and inside any item
    longer than the budget), so nothing is dropped."""
    out, current = [], ""
    for item in items:
        for piece in _hard_split(item, budget) if len(item) > budget else [item]:
            add = (sep if current else "") + piece
            if current and len(current) + len(add) > budget:
                out.append(current)
                current, add = "", piece
            current += add
    if current:
        out.append(current)
    return out


def truncate_label(text: str, limit: int) -> str:
    """Labels of buttons and choices are names, not rules text: shorten with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def footer_page(page: int, pages: int, prefix: str = "") -> str:
    label = t("page", page=page, pages=pages) if pages > 1 else ""
    return " · ".join(x for x in (prefix, label) if x)

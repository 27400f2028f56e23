"""Answers as library-neutral pages: embeds, buttons and selects described as plain data that
fits every Discord limit. The Discord cogs turn them into discord.py objects; the console prints
them; ``core.payloads`` gives the exact JSON Discord receives and checks it against Discord's limits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

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
# A paged answer's ◀ ▶: they turn one message's pages, so they live in its view, not in the
# component registry (a page number is not worth a database row).
PAGE_PREV, PAGE_NEXT = "page:prev", "page:next"


def page_step(custom_id: str | None) -> int:
    """-1 or +1 for a pager's ◀ ▶ (which every front end turns itself), 0 for any other button."""
    return {PAGE_PREV: -1, PAGE_NEXT: 1}.get(custom_id or "", 0)


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

    STYLES = {"primary": 1, "secondary": 2, "success": 3, "danger": 4}

    def to_dict(self) -> dict:
        if self.url:
            return {"type": 2, "style": 5, "label": self.label, "url": self.url}
        d = {"type": 2, "style": self.STYLES[self.style], "label": self.label, "custom_id": self.custom_id}
        if self.emoji:
            d["emoji"] = {"name": self.emoji}
        if self.disabled:
            d["disabled"] = True
        return d


@dataclass
class SelectOption:
    label: str
    value: str
    description: str = ""

    def to_dict(self) -> dict:
        d = {"label": self.label, "value": self.value}
        if self.description:
            d["description"] = self.description
        return d


@dataclass
class Select:
    custom_id: str
    placeholder: str
    options: list[SelectOption]

    def to_dict(self) -> dict:
        return {
            "type": 3,
            "custom_id": self.custom_id,
            "placeholder": self.placeholder,
            "options": [o.to_dict() for o in self.options],
            "min_values": 1,
            "max_values": 1,
        }


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

    def text(self, rows: bool = True, files: bool = True) -> str:
        """The reply as terminal text (rows=False: without its buttons, which the caller
        numbers; files=False: without its files' names, which the caller saves and shows)."""
        parts = [self.content] if self.content else []
        for e in self.embeds:
            if e.title:
                parts.append(f"━━ {e.title} ━━")
            if e.description:
                parts.append(console_markup(e.description))
            parts += [console_markup(x) for x in e.sections]
            for name, value in e.fields:
                parts.append(f"[{name}] {console_markup(value)}")
            if e.footer:
                parts.append(f"— {e.footer}")
        for row in self.rows if rows else []:
            labels = []
            for c in row:
                if isinstance(c, Button) and c.url:
                    labels.append(f"[{c.label}: {c.url}]")
                elif isinstance(c, Button):
                    labels.append(f"[{c.label}]" if not c.disabled else f"({c.label})")
                elif isinstance(c, Select):
                    labels.append(f"<{c.placeholder} " + " | ".join(o.label for o in c.options) + ">")
            if labels:
                parts.append(" ".join(labels))
        for f in self.files if files else []:
            parts.append(f"📎 {f.name} ({len(f.data) // 1024 + 1} KB)")
        return "\n".join(parts)


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
                    Button(t("prev", self.locale), PAGE_PREV, emoji="◀", disabled=page == 0),
                    Button(t("next", self.locale), PAGE_NEXT, emoji="▶", disabled=page == len(self.pages) - 1),
                ]
            )
        return Reply(content=self.note, embeds=[self.pages[page]], rows=rows + self.rows, ephemeral=ephemeral, files=self.files)

    def replies(self) -> list[Reply]:
        return [self.reply(i) for i in range(len(self.pages))]


class Choice:
    """A numbered thing to press on a front end that cannot click: a button, or one option of a
    menu."""

    def __init__(self, label: str, custom_id: str, value: str | None = None):
        self.label, self.custom_id, self.value = label, custom_id, value


def choices(reply: Reply) -> list[Choice]:
    """The reply's buttons and menu options that can be pressed, in order (links cannot); a menu's
    options are named by the menu only where two menus could be told apart by nothing else."""
    menus = sum(isinstance(c, Select) for row in reply.rows for c in row)
    out = []
    for row in reply.rows:
        for c in row:
            if isinstance(c, Button) and not c.disabled and c.custom_id:
                out.append(Choice(f"{c.emoji + ' ' if c.emoji else ''}{c.label}", c.custom_id))
            elif isinstance(c, Select):
                prefix = f"{c.placeholder.rstrip('…')}: " if menus > 1 else ""
                out += [Choice(f"{prefix}{o.label}", c.custom_id, o.value) for o in c.options]
    return out


def console_markup(markdown: str) -> str:
    """Show highlighted (quoted) lines with a bar in the terminal; drop the rest of the markup."""
    lines = []
    for line in markdown.split("\n"):
        quoted = line.startswith("> ") or line == ">"
        lines.append(("┃ " if quoted else "") + plain(line[2:] if quoted else line))
    return "\n".join(lines)


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

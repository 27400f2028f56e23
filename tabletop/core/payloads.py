"""A reply as a layout card (Discord's "components v2"): one container per embed holding its
title, text, fields, chart and footer as text displays and a media gallery, with the reply's
buttons and menus inside it, so an answer, its buttons and its chart read as one card.

Each display carries an id that says what it shows (the title, the text, a field, the footer)
and of which embed: ids are what Discord keeps for a bot to find its own components, and they
let any reader of the message (our fake Discord in the tests) take a card apart again.

check_limits says every limit a reply breaks, the embeds' and the card's: the tests run it on
every page of every answer, and the Discord adapter logs any breach as a bug.
"""

from __future__ import annotations

from tabletop.core.render import (
    BUTTON_LABEL_MAX,
    BUTTONS_PER_ROW,
    CONTENT_MAX,
    CUSTOM_ID_MAX,
    DESCRIPTION_MAX,
    EMBED_TOTAL_MAX,
    FIELD_NAME_MAX,
    FIELD_VALUE_MAX,
    FIELDS_MAX,
    FOOTER_MAX,
    ROWS_MAX,
    SELECT_DESCRIPTION_MAX,
    SELECT_LABEL_MAX,
    SELECT_OPTIONS_MAX,
    TITLE_MAX,
    Button,
    Embed,
    Reply,
    Select,
)

# Discord's limits for a message with components v2
# (https://discord.com/developers/docs/components/reference): every component counts, nested
# ones included, and text displays share one budget of characters.
COMPONENTS_MAX = 40
TEXT_MAX = 4000
IS_COMPONENTS_V2 = 1 << 15  # the message flag; such a message has no content and no embeds
EPHEMERAL = 1 << 6

ACTION_ROW, TEXT_DISPLAY, MEDIA_GALLERY, CONTAINER = 1, 10, 12, 17
# A display's id: EMBED_SPAN per embed, plus what it shows; the line above the cards (the note)
# has its own.
EMBED_SPAN = 100
TITLE, TEXT, FOOTER, GALLERY, FIELD, SECTION = 1, 2, 3, 4, 10, 50  # fields 10-34, sections 50-99
NOTE = 9000


BUTTON, SELECT, LINK_STYLE = 2, 3, 5
BUTTON_STYLES = {"primary": 1, "secondary": 2, "success": 3, "danger": 4}


def component(c: Button | Select) -> dict:
    """A button or a menu as Discord's JSON."""
    if isinstance(c, Select):
        options = [
            {"label": o.label, "value": o.value, **({"description": o.description} if o.description else {})} for o in c.options
        ]
        return {
            "type": SELECT,
            "custom_id": c.custom_id,
            "placeholder": c.placeholder,
            "options": options,
            "min_values": 1,
            "max_values": 1,
        }
    if c.url:
        return {"type": BUTTON, "style": LINK_STYLE, "label": c.label, "url": c.url}
    d: dict = {"type": BUTTON, "style": BUTTON_STYLES[c.style], "label": c.label, "custom_id": c.custom_id}
    if c.emoji:
        d["emoji"] = {"name": c.emoji}
    if c.disabled:
        d["disabled"] = True
    return d


def card(reply: Reply) -> list[dict]:
    """The message's top-level components; the reply's rows go inside the last card."""
    out: list[dict] = []
    if reply.content:
        out.append({"type": TEXT_DISPLAY, "id": NOTE, "content": reply.content})
    rows = [{"type": ACTION_ROW, "components": [component(c) for c in row]} for row in reply.rows if row]
    for index, embed in enumerate(reply.embeds):
        base = EMBED_SPAN * index
        inside: list[dict] = []

        def show(what: int, text: str, inside=inside, base=base) -> None:
            inside.append({"type": TEXT_DISPLAY, "id": base + what, "content": text})

        if embed.title:
            show(TITLE, f"### {embed.title}")
        if embed.description:
            show(TEXT, embed.description)
        for number, section in enumerate(_sections(reply, embed)):
            show(SECTION + number, section)
        for number, (name, value) in enumerate(embed.fields):
            show(FIELD + number, f"**{name}**\n{value}")
        if embed.image:
            inside.append({"type": MEDIA_GALLERY, "id": base + GALLERY, "items": [{"media": {"url": embed.image}}]})
        if embed.footer:
            show(FOOTER, f"-# {embed.footer}")
        if index == len(reply.embeds) - 1:
            inside += rows
            rows = []
        out.append({"type": CONTAINER, "accent_color": embed.color, "components": inside})
    return out + rows


def _sections(reply: Reply, embed: Embed) -> list[str]:
    """An embed's sections, each its own part while the message's component budget lasts; the
    ones past it share the last part (the same text, read top to bottom)."""
    if not embed.sections:
        return []
    others = (1 if reply.content else 0) + sum(1 + len(row) for row in reply.rows if row)
    for e in reply.embeds:
        parts = (e.title, e.description, e.image, e.footer)
        others += 1 + sum(1 for x in parts if x) + len(e.fields) + (0 if e is embed else min(1, len(e.sections)))
    room = max(1, COMPONENTS_MAX - others)
    if len(embed.sections) <= room:
        return embed.sections
    return [*embed.sections[: room - 1], "\n".join(embed.sections[room - 1 :])]


def card_payload(reply: Reply) -> dict:
    """The exact JSON Discord receives for the reply as a card."""
    flags = IS_COMPONENTS_V2 | (EPHEMERAL if reply.ephemeral else 0)
    d: dict = {"flags": flags, "components": card(reply)}
    if reply.files:
        d["attachments"] = [{"id": i, "filename": f.name, "size": len(f.data)} for i, f in enumerate(reply.files)]
    return d


def role(component_id: int) -> tuple[int, int]:
    """(which embed, what it shows) of a display's id: (0, TITLE), (1, FIELD + 2) …"""
    return divmod(component_id, EMBED_SPAN)


def _walk(components: list[dict]):
    for c in components:
        yield c
        yield from _walk(c.get("components") or [])


def card_problems(reply: Reply) -> list[str]:
    """The card limits the reply breaks (the component count, the text budget)."""
    components = list(_walk(card(reply)))
    problems = []
    if len(components) > COMPONENTS_MAX:
        problems.append(f"{len(components)} components > {COMPONENTS_MAX}")
    text = sum(len(c["content"]) for c in components if c["type"] == TEXT_DISPLAY)
    if text > TEXT_MAX:
        problems.append(f"card text {text} > {TEXT_MAX}")
    return problems


def check_limits(reply: Reply) -> list[str]:
    """Every Discord limit the reply breaks (empty when it fits); used by tests and as a guard."""
    problems = []
    if len(reply.content) > CONTENT_MAX:
        problems.append(f"content {len(reply.content)} > {CONTENT_MAX}")
    if len(reply.embeds) > 10:
        problems.append("more than 10 embeds")
    total = 0
    for e in reply.embeds:
        total += e.total()
        if len(e.title) > TITLE_MAX:
            problems.append(f"title {len(e.title)} > {TITLE_MAX}")
        if len(e.description) > DESCRIPTION_MAX:
            problems.append(f"description {len(e.description)} > {DESCRIPTION_MAX}")
        if len(e.fields) > FIELDS_MAX:
            problems.append(f"{len(e.fields)} fields > {FIELDS_MAX}")
        for n, v in e.fields:
            if not n or len(n) > FIELD_NAME_MAX:
                problems.append(f"field name length {len(n)}")
            if not v or len(v) > FIELD_VALUE_MAX:
                problems.append(f"field value length {len(v)}")
        if len(e.footer) > FOOTER_MAX:
            problems.append("footer too long")
    if total > EMBED_TOTAL_MAX:
        problems.append(f"embeds total {total} > {EMBED_TOTAL_MAX}")
    if len(reply.rows) > ROWS_MAX:
        problems.append(f"{len(reply.rows)} rows > {ROWS_MAX}")
    for row in reply.rows:
        if any(isinstance(c, Select) for c in row) and len(row) != 1:
            problems.append("a select must be alone in its row")
        if len(row) > BUTTONS_PER_ROW:
            problems.append("more than 5 buttons in a row")
        for c in row:
            if len(c.custom_id) > CUSTOM_ID_MAX:
                problems.append(f"custom_id too long: {c.custom_id}")
            if isinstance(c, Button) and not 0 < len(c.label) <= BUTTON_LABEL_MAX:
                problems.append(f"button label length {len(c.label)}")
            if isinstance(c, Select):
                if not 0 < len(c.options) <= SELECT_OPTIONS_MAX:
                    problems.append(f"select has {len(c.options)} options")
                for o in c.options:
                    if not 0 < len(o.label) <= SELECT_LABEL_MAX or len(o.description) > SELECT_DESCRIPTION_MAX:
                        problems.append(f"select option too long: {o.label[:20]}")
                    if len(o.value) > 100:
                        problems.append("select value too long")
    return problems + card_problems(reply)

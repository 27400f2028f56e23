"""A reply as terminal text, for the console and the command line: embeds as headed blocks, the
highlighted rule with a bar, buttons as labels; and the buttons and menu options a person at a
terminal presses by number."""

from __future__ import annotations

from tabletop.core.render import Button, Reply, Select, plain


def printed(reply: Reply, rows: bool = True, files: bool = True) -> str:
    """The reply as terminal text (rows=False: without its buttons, which the caller numbers;
    files=False: without its files' names, which the caller saves and shows)."""
    parts = [reply.content] if reply.content else []
    for e in reply.embeds:
        if e.title:
            parts.append(f"━━ {e.title} ━━")
        if e.description:
            parts.append(markup(e.description))
        parts += [markup(x) for x in e.sections]
        for name, value in e.fields:
            parts.append(f"[{name}] {markup(value)}")
        if e.footer:
            parts.append(f"— {e.footer}")
    for row in reply.rows if rows else []:
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
    for f in reply.files if files else []:
        parts.append(f"📎 {f.name} ({len(f.data) // 1024 + 1} KB)")
    return "\n".join(parts)


def markup(markdown: str) -> str:
    """Show highlighted (quoted) lines with a bar in the terminal; drop the rest of the markup."""
    lines = []
    for line in markdown.split("\n"):
        quoted = line.startswith("> ") or line == ">"
        lines.append(("┃ " if quoted else "") + plain(line[2:] if quoted else line))
    return "\n".join(lines)


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

"""Blocks cut into sections and rules in the packs' schema (rules/<pack>/*.yaml), with notes of
every guess for the report. The words are the blocks' words: nothing is added but numbers."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from tabletop.core.text import ROMAN
from tabletop.packimport import shape
from tabletop.packimport.outline import Block, join, looks_like_heading, split_kind


@dataclass(frozen=True)
class Note:
    """One line of the report: what was decided at a line of the file (key: an i18n key)."""

    line: int
    key: str
    values: dict = field(default_factory=dict)


@dataclass
class Draft:
    sections: list[dict]  # each a section file's fields, in document order
    numbering: str  # "source" when the document prints its numbers, else "generated"
    notes: list[Note]
    numbered_lines: set[int] = field(default_factory=set)  # lines whose printed number became a rule id
    chosen: shape.Cut | None = None  # where sections start, and the cut that came second
    runner_up: shape.Cut | None = None


def cut(blocks: list[Block], printed: bool, title: str, level: int | None = None) -> Draft:
    """The document cut into sections where its shape says (shape.choose; `level`: at that
    heading level, as the admin asked) and each section into rules."""
    if printed:  # only numbered headings start sections; other headings stay text
        blocks = [b if b.kind != "heading" or b.number else Block("para", b.text, b.line, lines=b.lines) for b in blocks]
    chosen, runner_up = shape.choose(blocks, printed, level)
    notes: list[Note] = []
    numbered: set[int] = set()
    groups = chosen.groups
    sections: list[dict] = []
    for heads, body in groups:
        if not heads and not body:
            continue
        if printed:  # every heading left is numbered; the front matter before the first is 0
            number = int(heads[-1].number) if heads else 0
        else:
            number = len(sections) + 1
        sections.append(_section(heads, body, number, title, printed, notes, numbered))
        for head in heads:
            notes.append(Note(head.line, f"import.note.{head.how}", {"number": number, "title": head.text}))
    return Draft(sections, "source" if printed else "generated", notes, numbered, chosen, runner_up)


def _section(
    heads: list[Block], body: list[Block], number: int, title: str, printed: bool, notes: list[Note], numbered: set[int]
) -> dict:
    out: dict = {"id": str(number), "number": number}
    if heads and heads[-1].how == "lead-in":  # the paragraph is the section's first rule
        out["title"], out["title_from"] = heads[-1].term, "inline"
        body = [Block("para", heads[-1].text, heads[-1].line), *body]
    elif heads:
        out["title"], kind = split_kind(heads[-1].text)
        if kind:
            out["kind"] = kind
    else:
        out["title"], out["title_from"] = title, "editor"
    if len(heads) > 1:
        out["part"] = " ".join(h.text for h in heads[:-1])
    rules, intro = (_printed_rules if printed else _generated_rules)(body, number, notes, numbered)
    if intro:
        out["intro"] = "\n".join(intro)
    if rules:
        out["rules"] = rules
    if not rules and not intro:  # a heading with nothing under it: its own line is its text
        out["intro"], out["title_from"] = heads[-1].text, "inline"
        out.pop("kind", None)
    return out


def _item(block: Block, rule: dict) -> dict:
    if block.kind == "row":
        return {"row": block.text.split("\t")}
    if block.kind == "step":
        done = sum(1 for item in rule.get("items", []) if "step" in item)
        if done < len(ROMAN) and ROMAN[done] == block.number:
            return {"step": block.text}
        return {"para": f"{block.number}. {block.text}"}  # out of order: kept as written
    return {"bullet" if block.kind == "bullet" else "para": block.text}


def _add_item(rule: dict, block: Block) -> None:
    rule.setdefault("items", []).append(_item(block, rule))


def _generated_rules(body: list[Block], number: int, notes: list[Note], numbered: set[int]) -> tuple[list[dict], list[str]]:
    rules: list[dict] = []
    for block in body:
        current = rules[-1] if rules else None
        if block.kind == "heading":  # a heading inside the section heads the rules after it
            rules.append({"id": "", "heading": block.text})
            notes.append(Note(block.line, "import.note.subheading", {"title": block.text}))
        elif (
            block.kind == "para"
            and current is not None
            and "heading" in current
            and "text" not in current
            and "items" not in current
        ):
            current["text"] = block.text
        elif block.kind == "para":
            rules.append({"id": "", "text": block.text})
        elif current is None:  # a list or a table first under its title: a rule of items only
            rule: dict = {"id": ""}
            rule["items"] = [_item(block, rule)]
            rules.append(rule)
        else:
            _add_item(current, block)
    for index, rule in enumerate(rules, 1):
        rule["id"] = f"{number}.{index}"
    return [_ordered(r) for r in rules], []


def _printed_rules(body: list[Block], number: int, notes: list[Note], numbered: set[int]) -> tuple[list[dict], list[str]]:
    rules: list[dict] = []
    intro: list[str] = []
    seen: set[str] = set()
    for block in body:
        if block.number and block.kind == "para" and block.number not in seen:
            seen.add(block.number)
            numbered.add(block.line)
            short = looks_like_heading(block.text)
            rules.append({"id": block.number, "heading" if short else "text": block.text})
            continue
        if block.number and block.kind == "para":  # the same number twice: kept as text
            notes.append(Note(block.line, "import.note.repeated", {"rule": block.number}))
            block = Block("para", functools.reduce(join, block.lines), block.line)  # as written
        if not rules:
            marker = {"bullet": "• ", "step": f"{block.number}. "}.get(block.kind, "")
            intro.append(marker + block.text)
        else:
            _add_item(rules[-1], block)
    return [_ordered(r) for r in rules], intro


def _ordered(rule: dict) -> dict:
    """A rule's fields in the order the packs write them."""
    return {k: rule[k] for k in ("id", "heading", "text", "items") if k in rule}

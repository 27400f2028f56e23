"""Blocks cut into sections and rules in the packs' schema (rules/<pack>/*.yaml), with notes of
every guess for the report. The words are the blocks' words: nothing is added but numbers."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from tabletop.core.text import ROMAN
from tabletop.packimport import shape
from tabletop.packimport.outline import Block, join, looks_like_heading, split_kind

# A paragraph longer than this is no rule a reader opens (the bundled packs' longest has 592
# characters), and the model reads only a passage's first 512 tokens (dense.WINDOW_TOKENS: about
# 2,000 characters of English, fewer of Korean or Japanese): it is split at sentence ends into
# rules of at most this many characters, so that search reads every part of it.
LONGEST_RULE = 2000
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])")


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
        elif block.kind == "para":
            first, *more = pieces(block.text)
            if more:
                notes.append(Note(block.line, "import.note.split", {"parts": len(more) + 1, "limit": LONGEST_RULE}))
            if current is not None and "heading" in current and "text" not in current and "items" not in current:
                current["text"] = first
            else:
                rules.append({"id": "", "text": first})
            rules += [{"id": "", "text": piece} for piece in more]
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
            first, *more = pieces(block.text)  # the printed number names one rule: the rest are its paragraphs
            rules.append({"id": block.number, "heading" if short else "text": first})
            if more:
                rules[-1]["items"] = [{"para": piece} for piece in more]
                notes.append(
                    Note(
                        block.line,
                        "import.note.split_numbered",
                        {"parts": len(more) + 1, "rule": block.number, "limit": LONGEST_RULE},
                    )
                )
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


def pieces(text: str, longest: int = LONGEST_RULE) -> list[str]:
    """`text` in parts of at most `longest` characters, cut at sentence ends (a sentence longer
    than that at spaces, a run without any at `longest`); the parts hold every character but the
    spaces they were cut at, in order."""
    if len(text) <= longest:
        return [text]
    out: list[str] = []
    current = ""
    for sentence in (s for s in _SENTENCE_END.split(text) if s):
        for part in _cut_long(sentence, longest):
            if current and len(current) + 1 + len(part) > longest:
                out.append(current)
                current = ""
            joiner = " " if current and not current.endswith(("。", "！", "？")) else ""
            current = f"{current}{joiner}{part}" if current else part
    return [*out, current] if current else out


def _cut_long(sentence: str, longest: int) -> list[str]:
    """One sentence in parts of at most `longest` characters: at spaces, else at the limit."""
    parts: list[str] = []
    while len(sentence) > longest:
        space = sentence.rfind(" ", 0, longest + 1)
        at = space if space > 0 else longest
        parts.append(sentence[:at])
        sentence = sentence[at:].lstrip(" ")
    return [*parts, sentence] if sentence else parts


def _ordered(rule: dict) -> dict:
    """A rule's fields in the order the packs write them."""
    return {k: rule[k] for k in ("id", "heading", "text", "items") if k in rule}

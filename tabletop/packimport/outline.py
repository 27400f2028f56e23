"""A document's lines read as blocks (headings, paragraphs, bullets, steps, table rows), with
hard-wrapped lines joined back into their paragraphs. Every guess is kept with the block, so the
report can say where a heading was inferred rather than marked.

Headings come, most trusted first, from the markup (Markdown, Word styles), from printed
numbers (``62 정책 단계`` followed by its rules ``62.1 …``), from chapter marks (``제3장``,
``第1章``, ``Chapter 3``), and last from the look of a line: short, not ending a sentence, not a
lead-in (``Term: text``), after a finished paragraph and followed by text.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from tabletop.packimport.reader import Line

# A document has blank lines inside its paragraphs when at least this share of its blank lines
# follow an unfinished sentence (the five seeds: 0.29 and 0.39 for the two copied from PDFs
# with a blank after every line, 0.02-0.13 for the others).
WRAPPED_ACROSS_BLANKS = 0.25
# Headings listed one after another, this many or more, are a table of contents.
CONTENTS_RUN = 3
# A marked heading longer than this is a paragraph set in a heading's style: a section's title
# heads every card of it, and Discord shows a title of at most 256 characters.
MARKED_HEADING_MAX = 200
# A heading names a topic in a few words. Width counts a CJK character as two columns, so 64
# columns hold some 25 Korean or Japanese characters, or 10 English words; a longer line is a
# sentence even when it lacks its full stop.
HEADING_MAX_WIDTH = 64
# How a sentence or a lead-in ends; a line ending so is never a heading. Closing quotes and
# brackets after it are looked through.
SENTENCE_END = ".。!?！？:：;；…"
# A line ending so goes on to the next: a comma, or a dash or conjunction left at the break.
GOES_ON = (",", "、", "，", "-", "–", "—", "/", "및", "또는", "혹은", "and", "or")
# MeCab (mecab-ko-dic) tags a Korean heading may end on: nouns, numbers, foreign words, roots.
# Hiragana a Japanese line ends on when its sentence goes on: particles (は, が, を, に, で, と,
# も, へ, や), the te- and ba-forms, and the plain endings of verbs (る, た, だ, す, く, う, ず).
JA_GOES_ON = "はがをにでともへやてばるただすくうず"
# ETN (-기, -음) makes a verb a noun: 우주선 만들기.
NOMINAL_TAGS = ("NNG", "NNP", "NNB", "NNBC", "NR", "NP", "SN", "SL", "SH", "XSN", "XR", "ETN")
CLOSERS = "\"'”’」』)）]］"

# A list mark: "- ", "* ", "•", or a dash directly before a letter ("-탐험"; "-10" is a number).
BULLET = re.compile(r"^\s*(?:[-*●▪◦](?:\s+|$)|-(?=[^\W\d_])|•\s*)")
STEP = re.compile(r"^\s*(x{0,1}(?:ix|iv|v?i{0,3}))\.\s+(?=\S)")
CHAPTER = re.compile(
    r"^\s*(?:제\s*\d+\s*[장절부편]|第\s*[0-9０-９一二三四五六七八九十]+\s*[章節部編]|(?:chapter|part)\s+\d+)\b", re.I
)
NUMBERED_HEADING = re.compile(r"^\s*(\d{1,3})\s+(\S.*)$")
NUMBERED_RULE = re.compile(r"^\s*(\d{1,3})\.(\d{1,3})\.?\s+(\S.*)$")
# A line opening with a list mark not followed by a space ("-10 points") is not a bullet, yet it
# starts its own paragraph: joined mid-paragraph, its first character would read as a mark.
MARK_LIKE = re.compile(r"^\s*[-•*・]")
KEPT_MARK = "・"  # Japanese lists' mark: a bullet, kept in its text
ENUMERATED = re.compile(r"^\s*\d{1,3}[.)]\s")  # "4. …", "1) …": an item of a numbered list
LEAD_IN = re.compile(r"\S\s*[:：]\s+\S")  # "Term: its text": a rule that names its topic first
TERM = re.compile(r"^\s*(\*\*)?([^:：*]+?)(\*\*)?\s*[:：](\*\*)?\s+\S")  # the term of a lead-in, bold or not
KIND = re.compile(r"^(.*\S)\s+\(([^()]+)\)$")  # "폭격 (유닛 능력)": a glossary title and its kind


@dataclass
class Block:
    kind: str  # heading, para, bullet, step, row
    text: str
    line: int  # where it starts in the file (1-based)
    level: int = 0  # headings: 1 is the outermost
    how: str = ""  # headings: markup, numbered, chapter, inferred
    number: str = ""  # a printed number: "62" for a heading, "62.1" for a rule
    lines: list[str] = field(default_factory=list)  # the file's lines it was joined from
    term: str = ""  # a lead-in paragraph's term ("행성" of "행성: 각 플레이어는 …")


def width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def ends_sentence(text: str) -> bool:
    stripped = text.rstrip().rstrip(CLOSERS).rstrip()
    return bool(stripped) and stripped[-1] in SENTENCE_END


def looks_like_heading(text: str, numbered: bool = False) -> bool:
    """Short, ending no sentence, not a lead-in or an item; without a printed number to vouch
    for it, it must also end as a name (see ends_as_a_name)."""
    text = text.strip()
    return (
        0 < width(text) <= HEADING_MAX_WIDTH
        and not ends_sentence(text)
        and not text.rstrip(CLOSERS).endswith(GOES_ON)
        and not LEAD_IN.search(text)
        and not MARK_LIKE.match(text)
        and "\t" not in text
        and (numbered or ends_as_a_name(text))
    )


@functools.cache
def _analyzer():
    from tabletop.rules.morph import Analyzer

    return Analyzer()


def ends_as_a_name(text: str) -> bool:
    """A heading names something: Korean ends on a noun (MeCab's reading), Japanese not on a
    particle or a verb's ending (a wrapped sentence; 手番の流れ, 宝探し end on nouns). Other
    scripts pass."""
    core = text.rstrip(CLOSERS + " ")
    if not core:
        return False
    last = unicodedata.name(core[-1], "")
    if last.startswith("HIRAGANA") and core[-1] in JA_GOES_ON:
        return False
    if last.startswith("HANGUL") and _analyzer().available:
        tags = [tag for _, tag in _analyzer().morphemes(core) if not tag.startswith("S") or tag in ("SN", "SL", "SH")]
        return bool(tags) and tags[-1] in NOMINAL_TAGS
    return True


def _cjk(char: str) -> bool:
    # CJK punctuation, kana and full-width forms by block; ideographs by name
    return "\u3000" <= char <= "\u30ff" or "\uff00" <= char <= "\uffef" or unicodedata.name(char, "").startswith("CJK")


def join(before: str, after: str) -> str:
    """A wrapped line back onto its paragraph: Japanese and Chinese run on without a space."""
    after = after.strip()
    if not before:  # a bullet marker alone on its line, its text on the next
        return after
    if before and after and _cjk(before[-1]) and _cjk(after[0]):
        return before + after
    return f"{before} {after}"


def paragraph_gap(lines: list[Line]) -> int:
    """How many blank lines end a paragraph: one, unless the document puts blank lines inside
    its paragraphs too (text copied from a PDF: many lines after a blank line continue an
    unfinished sentence), where only more than its usual spacing does."""
    after_blank = [before for before, line in zip(lines, lines[1:], strict=False) if line.blanks_before]
    unfinished = sum(1 for x in after_blank if not ends_sentence(x.text) and not looks_like_heading(x.text))
    if not after_blank or unfinished < WRAPPED_ACROSS_BLANKS * len(after_blank):
        return 1
    gaps = Counter(line.blanks_before for line in lines[1:] if line.blanks_before)
    return gaps.most_common(1)[0][0] + 1


def printed_numbers(lines: list[Line]) -> bool:
    """Whether the document prints its own numbers: at least two numbered headings each
    followed by rules numbered under them (62 …, then 62.1 …)."""
    heads = {m.group(1) for line in lines if (m := NUMBERED_HEADING.match(line.text)) and looks_like_heading(m.group(2), True)}
    ruled = {m.group(1) for line in lines if (m := NUMBERED_RULE.match(line.text))}
    return len(heads & ruled) >= 2


def blocks(lines: list[Line]) -> tuple[list[Block], bool]:
    """The document as blocks, and whether it prints its own section and rule numbers."""
    # markup (Markdown, Word styles) says where every heading is: none is guessed or read from
    # numbers or chapter marks beside it
    marked = any(line.level is not None for line in lines)
    printed = not marked and printed_numbers(lines)
    guess = not printed and not marked
    usual_gap = paragraph_gap(lines)
    out: list[Block] = []
    open_block: Block | None = None  # a paragraph or item whose sentence has not ended
    last_section = -1
    for index, line in enumerate(lines):
        text = line.text
        following = lines[index + 1] if index + 1 < len(lines) else None
        after_break = line.blanks_before >= usual_gap  # a paragraph's space before it: a new block
        block = _marked(line, printed, last_section, marked)
        # a line after a blank line that reads as a heading starts one, even where a list item or
        # a paragraph was left open (a list's last item has no full stop)
        heads_after_gap = (
            usual_gap == 1 and line.blanks_before > 0 and guess and following is not None and looks_like_heading(text)
        )
        if (
            block is None
            and open_block is not None
            and not (line.whole or after_break or heads_after_gap or MARK_LIKE.match(text))
        ):
            open_block.text = join(open_block.text, text)
            open_block.lines.append(text)
            open_block = open_block if not ends_sentence(text) else None
            continue
        if block is None:
            block = _unmarked(line, following, guess, out, after_break)
        elif block.kind == "bullet":
            block = _dash_heading(block, following, guess, out, after_break)
        if block.kind == "heading" and block.number:
            last_section = int(block.number)
        block.lines = [text]
        out.append(block)
        open_block = block if block.kind in ("para", "bullet", "step") and not ends_sentence(block.text) else None
    return _contents_as_text([_lone_mark_as_text(b) for b in out]), printed


def _lone_mark_as_text(block: Block) -> Block:
    """A list mark with no text after it, on its line or the next, is the line's text."""
    if block.kind == "bullet" and not block.text:
        return Block("para", block.lines[0].strip(), block.line, lines=block.lines)
    return block


def _contents_as_text(found: list[Block]) -> list[Block]:
    """A table of contents repeats the headings before their sections: a heading whose words
    come again as a later heading is a contents line, kept as text under its own heading."""
    later: Counter[str] = Counter(re.sub(r"\s+", "", b.text) for b in found if b.kind == "heading")
    out = []
    for index, block in enumerate(found):
        if block.kind == "heading":
            key = re.sub(r"\s+", "", block.text)
            later[key] -= 1
            run = found[max(0, index - CONTENTS_RUN + 1) : index + CONTENTS_RUN]
            in_list = any(all(b.kind == "heading" for b in run[i : i + CONTENTS_RUN]) for i in range(len(run) - CONTENTS_RUN + 1))
            if later[key] > 0 and in_list and not block.number:
                block = Block("para", block.text, block.line, lines=block.lines)
        out.append(block)
    return out


def _marked(line: Line, printed: bool, last_section: int, marked: bool) -> Block | None:
    """A block its markup or its printed marks say: a heading, a numbered rule, an item."""
    text = line.text
    if line.level is not None and 0 < len(text.strip()) <= MARKED_HEADING_MAX:
        return Block("heading", text.strip(), line.number, line.level, "markup")
    if (
        printed
        and (m := NUMBERED_HEADING.match(text))
        and int(m.group(1)) > last_section
        and looks_like_heading(m.group(2), True)
    ):
        return Block("heading", m.group(2).strip(), line.number, 1, "numbered", m.group(1))
    if not marked and CHAPTER.match(text) and looks_like_heading(text):
        return Block("heading", text.strip(), line.number, 1, "chapter")
    if printed and (m := NUMBERED_RULE.match(text)) and int(m.group(1)) == last_section:
        return Block("para", m.group(3).strip(), line.number, number=f"{m.group(1)}.{m.group(2)}")
    if "\t" in text.strip("\t ") or text.startswith("\t"):
        return Block("row", text.strip("\r\n"), line.number)
    if m := BULLET.match(text):
        return Block("bullet", text[m.end() :].strip(), line.number)
    if text.lstrip().startswith(KEPT_MARK):  # its mark is text the fidelity check counts: kept
        return Block("bullet", text.strip(), line.number)
    if (m := STEP.match(text)) and m.group(1):
        return Block("step", text[m.end() :].strip(), line.number, number=m.group(1))
    return None


def _unmarked(line: Line, following: Line | None, guess: bool, before: list[Block], after_break: bool) -> Block:
    """A plain line: a heading when it looks like one where one may stand, else a paragraph."""
    may_head = guess and following is not None and looks_like_heading(line.text) and _may_open(before, after_break)
    if may_head and _capitals(line.text):  # "SETTING UP": a chapter above the inferred headings
        return Block("heading", line.text.strip(), line.number, 1, "capitals")
    if may_head:
        return Block("heading", line.text.strip(), line.number, 2, "inferred")
    return Block("para", line.text.strip(), line.number)


def _capitals(text: str) -> bool:
    """A line in capitals (two letters or more, every cased letter upper-case), as plain-text
    rulebooks set their chapters."""
    cased = [c for c in text if c.isalpha() and (c.isupper() or c.islower())]
    return len(cased) >= 2 and all(c.isupper() for c in cased)


def _may_open(before: list[Block], after_break: bool) -> bool:
    """A heading stands where a block has ended: at the start, after a heading, a finished
    sentence, a numbered list item (a unit of its own) or more space than between lines."""
    previous = before[-1] if before else None
    return (
        previous is None
        or previous.kind == "heading"
        or ends_sentence(previous.text)
        or bool(ENUMERATED.match(previous.text))
        or after_break
    )


def _dash_heading(block: Block, following: Line | None, guess: bool, before: list[Block], after_break: bool) -> Block:
    """A lone "- Name" between paragraphs is a heading drawn as an item (rulebooks whose icons
    became dashes): not in a list (no item before or after it), ending no sentence."""
    lone = not (before and before[-1].kind == "bullet") and following is not None and not BULLET.match(following.text)
    if guess and lone and looks_like_heading(block.text) and _may_open(before, after_break):
        return Block("heading", block.text, block.line, 2, "inferred")
    return block


def lead_term(block: Block) -> str:
    """The term a paragraph opens with ("Term: text", bold or not), when it reads as a name."""
    m = TERM.match(block.text) if block.kind == "para" and not block.number else None
    return m.group(2).strip() if m and looks_like_heading(m.group(2)) else ""


def split_kind(title: str) -> tuple[str, str]:
    """A glossary title's kind in parentheses, apart: ("폭격", "유닛 능력")."""
    m = KIND.match(title)
    return (m.group(1), m.group(2).strip()) if m else (title, "")

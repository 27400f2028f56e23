"""Rule packs: the YAML files under rules/ as Python objects, with a validator whose messages
name the file, the section and the field, so a rules editor can fix a typo without reading code.

A pack is a folder ``rules/<pack id>/`` holding ``pack.yaml`` and one YAML file per section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from tabletop.core.i18n import current, lang, t
from tabletop.core.paths import RULES_DIR
from tabletop.rules import cards

LANGUAGES = ("ko", "en", "ja")
ITEM_KINDS = ("bullet", "step", "para", "row")  # row: a table row, its cells as a list
TITLE_FROM = ("heading", "inline", "editor")
PACK_ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SECTION_ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Item:
    """A line that belongs to a rule: a bullet (•), a step (i., ii., …), a plain paragraph, or
    a table row (its cells joined by tabs, as the source lays them out)."""

    kind: str
    text: str

    @property
    def cells(self) -> list[str]:
        return self.text.split("\t")


AS_WRITTEN = "*"  # the key of a note or description written as plain text, in the pack's language


def localized(value) -> dict:
    """A note or description as YAML gives it, by language: plain text is the pack's own."""
    if isinstance(value, dict):
        return {k: v.strip() for k, v in value.items()}
    return {AS_WRITTEN: value.strip()} if isinstance(value, str) and value.strip() else {}


def in_language(texts: dict) -> str:
    """Our own words about a pack (an editor's note, a description) in the reader's language,
    else as written, else in any language given."""
    return texts.get(current()) or texts.get(AS_WRITTEN) or next(iter(texts.values()), "")


def _by_language(value) -> bool:
    """A mapping of languages to non-empty texts ({en: Bombardment, ja: 爆撃})."""
    return isinstance(value, dict) and all(k in LANGUAGES and isinstance(v, str) and v.strip() for k, v in value.items())


@dataclass(frozen=True)
class Rule:
    id: str  # "79.1"
    text: str = ""
    heading: str = ""  # sub-headings such as "62.17 결과"
    items: tuple[Item, ...] = ()
    editor_note: dict = field(default_factory=dict)  # never part of the source text; by language (in_language)

    def lines(self) -> list[str]:
        """The rule's source lines, in order (no numbering, no markers)."""
        out = [x for x in (self.heading, self.text) if x]
        out.extend(item.text for item in self.items)
        return out


@dataclass(frozen=True)
class Section:
    pack: str
    id: str  # stable id: "79" for TI4, a slug elsewhere
    number: int
    title: str
    kind: str = ""  # the title's parentheses: "유닛 능력", "전략 카드"
    names: dict = field(default_factory=dict)  # other-language names: {"en": "Bombardment"}
    aliases: tuple[str, ...] = ()
    intro: str = ""
    rules: tuple[Rule, ...] = ()
    related: tuple[str, ...] = ()
    editor_note: dict = field(default_factory=dict)
    file: str = ""
    part: str = ""  # a source heading that opens the group this section starts ("모험 카드")
    title_from: str = "heading"  # heading: a source line; inline: starts the first paragraph; editor: ours

    @property
    def full_title(self) -> str:
        return f"{self.title} ({self.kind})" if self.kind else self.title

    @property
    def name_en(self) -> str:
        return self.names.get("en", "")

    def rule(self, rule_id: str) -> Rule | None:
        return next((r for r in self.rules if r.id == rule_id), None)

    def intro_lines(self) -> list[str]:
        return [line for line in self.intro.split("\n") if line.strip()]


@dataclass(frozen=True)
class Term:
    """One concept of a pack's lexicon: the rules' own term, its official English (or other)
    names, how players spell those names (인프, 캐리어) and the everyday words they use for it
    (배, 터지다). Data about the rules, never rules text: search expands queries through it."""

    term: str
    names: dict  # {"en": "Infantry"}: official names in other languages
    spellings: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    topic: bool = False  # a topic of the full rules that this document has no section for
    broader: tuple[str, ...] = ()  # terms this one is a kind of (보병 -> 육군, 유닛)

    @property
    def forms(self) -> tuple[str, ...]:
        """Every way of writing the concept, the official term first."""
        return (self.term, *self.names.values(), *self.spellings, *self.words)


@dataclass(frozen=True)
class Pack:
    id: str
    names: dict  # {"ko": ..., "en": ..., "ja": ...}
    language: str
    source: str
    credit: str
    sections: tuple[Section, ...] = ()
    description: dict = field(default_factory=dict)  # what part of the rules it holds, by language
    numbering: str = "source"  # "source": rule numbers are the document's; "generated": ours
    lexicon: tuple[Term, ...] = ()
    cards: dict = field(default_factory=dict)  # section id -> its search card (cards.py)

    def name(self, locale: str | None = None) -> str:
        return self.names.get(lang(locale or current()), self.names["ko"])

    def document_name(self) -> str:
        """How a reply names the document (in the reply's language): the game, and what part of
        its rules the pack holds (TI4's is the glossary's 62-89 only: a topic it lacks may be
        elsewhere in the game)."""
        return f"{self.name()}: {in_language(self.description)}" if self.description else self.name()

    def own_names(self) -> tuple[str, ...]:
        """The game's names a player may write (its id as words, its name in every language),
        longest first: a question that contains one says which game it is about."""
        names = {self.id.replace("-", " "), *(n for n in self.names.values() if n)}
        return tuple(sorted(names, key=lambda n: (-len(n), n)))


class PackError(Exception):
    """Raised with every validation message found, not just the first."""

    def __init__(self, messages: list[str]):
        super().__init__("\n".join(messages))
        self.messages = messages


# ---------------------------------------------------------------------------------------------
# validation


class _Checker:
    def __init__(self, file: str):
        self.file = file
        self.messages: list[str] = []

    def error(self, where: str, message: str) -> None:
        self.messages.append(f"{self.file}: {where}: {message}" if where else f"{self.file}: {message}")

    def fields(self, where: str, data: dict, required: dict, optional: dict) -> None:
        for name, kind in required.items():
            if name not in data or data[name] in (None, ""):
                self.error(where, f"'{name}' is missing")
            else:
                self.type(where, name, data[name], kind)
        for name, kind in optional.items():
            if name in data and data[name] is not None:
                self.type(where, name, data[name], kind)
        for name in data:
            if name not in required and name not in optional:
                self.error(where, f"unknown field '{name}'")

    def type(self, where: str, name: str, value, kind) -> None:
        if kind == "text":
            if not isinstance(value, str) or not value.strip():
                self.error(where, f"'{name}' must be non-empty text")
        elif kind == "int":
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                self.error(where, f"'{name}' must be a whole number, 0 or more")
        elif kind == "texts":
            if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
                self.error(where, f"'{name}' must be a list of non-empty texts")
        elif kind == "localized":  # our own words: text in the pack's language, or one per language
            if not (isinstance(value, str) and value.strip()) and not (value and _by_language(value)):
                self.error(where, f"'{name}' must be text, or map languages ({', '.join(LANGUAGES)}) to texts")
        elif kind == "names":
            if not _by_language(value):
                self.error(where, f"'{name}' must map languages ({', '.join(LANGUAGES)}) to names")
        elif kind == "bool" and not isinstance(value, bool):
            self.error(where, f"'{name}' must be true or false")
        elif kind == "list" and not isinstance(value, list):
            self.error(where, f"'{name}' must be a list")


TERM_FIELDS = dict(
    required={"term": "text"},
    optional={"names": "names", "spellings": "texts", "words": "texts", "topic": "bool", "broader": "texts"},
)
LEXICON_FILE = "lexicon.yaml"
PACK_FIELDS = dict(
    required={"id": "text", "names": "names", "language": "text", "source": "text", "credit": "text"},
    # seed: the file the text was taken from, for whoever checks it against the source; readers
    # are shown `source` (the document) only
    optional={"description": "localized", "numbering": "text", "seed": "text"},
)
SECTION_FIELDS = dict(
    required={"id": "text", "number": "int", "title": "text"},
    optional={
        "kind": "text",
        "names": "names",
        "aliases": "texts",
        "intro": "text",
        "rules": "list",
        "related": "texts",
        "editor_note": "localized",
        "part": "text",
        "title_from": "text",
    },
)
RULE_FIELDS = dict(
    required={"id": "text"},
    optional={"text": "text", "heading": "text", "items": "list", "editor_note": "localized"},
)


class _UniqueKeys(yaml.SafeLoader):
    """YAML that refuses a key given twice in one mapping: a second `related:` silently replaced
    the first."""

    def construct_mapping(self, node, deep=False):
        seen: set = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, str | int) and key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key '{key}' is given twice in one mapping", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep)


def load_yaml_text(source: str):
    """YAML as a pack reads it (cards too): safe, and a key given twice is an error."""
    return yaml.load(source, Loader=_UniqueKeys)  # noqa: S506 (a SafeLoader)


def _load_yaml(path: Path, checker: _Checker, fields: str = "id, title, …"):
    try:
        with path.open(encoding="utf-8") as f:
            data = load_yaml_text(f.read())
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark else ""
        checker.error(where, f"not valid YAML ({getattr(exc, 'problem', None) or exc})")
        return None
    except (OSError, UnicodeDecodeError) as exc:
        checker.error("", f"cannot be read ({exc})")
        return None
    if not isinstance(data, dict):
        checker.error("", f"must be a mapping of fields ({fields})")
        return None
    return data


def _check_lexicon(data: dict, checker: _Checker) -> tuple[Term, ...]:
    """`terms:` as a list of entries; every problem names the entry and the field."""
    entries = data.get("terms")
    if set(data) != {"terms"} or not isinstance(entries, list):
        checker.error("", "must hold one field, 'terms', a list of entries")
        return ()
    terms: list[Term] = []
    seen: dict[str, int] = {}
    for index, raw in enumerate(entries, 1):
        where = f"term #{index}" + (f" ({raw.get('term')})" if isinstance(raw, dict) and raw.get("term") else "")
        if not isinstance(raw, dict):
            checker.error(where, "must be a mapping with 'term' and its forms")
            continue
        before = len(checker.messages)
        checker.fields(where, raw, **TERM_FIELDS)
        if len(checker.messages) > before:
            continue
        key = re.sub(r"\W+", "", raw["term"]).lower()
        if key in seen:
            checker.error(where, f"'term' repeats term #{seen[key]}")
        seen[key] = index
        terms.append(
            Term(
                term=raw["term"].strip(),
                names=dict(raw.get("names") or {}),
                spellings=tuple(x.strip() for x in raw.get("spellings") or []),
                words=tuple(x.strip() for x in raw.get("words") or []),
                topic=bool(raw.get("topic", False)),
                broader=tuple(x.strip() for x in raw.get("broader") or []),
            )
        )
    known = {re.sub(r"\W+", "", term.term).lower() for term in terms}
    for term in terms:
        for b in term.broader:
            if re.sub(r"\W+", "", b).lower() not in known:
                checker.error(f"term '{term.term}'", f"'broader' names '{b}', which is not a term of this lexicon")
    return tuple(terms)


def _check_section(data: dict, pack_id: str, checker: _Checker) -> Section | None:
    sid = str(data.get("id", "?"))
    where = f"section {sid}"
    checker.fields(where, data, **SECTION_FIELDS)
    if isinstance(data.get("id"), str) and not SECTION_ID_RE.match(data["id"]):
        checker.error(where, "'id' must be lower-case letters, digits and dashes")
    rules: list[Rule] = []
    seen: set[str] = set()
    number = data.get("number")
    for index, raw in enumerate(data.get("rules") or []):
        if not isinstance(raw, dict):
            checker.error(where, f"rule #{index + 1} must be a mapping with 'id' and 'text'")
            continue
        rid = str(raw.get("id", f"#{index + 1}"))
        rwhere = f"{where}, rule {rid}"
        checker.fields(rwhere, raw, **RULE_FIELDS)
        # a rule may be only its items: a table, or a list under its section's title
        if not raw.get("text") and not raw.get("heading") and not raw.get("items"):
            checker.error(rwhere, "'text' is missing")
        if isinstance(number, int) and not re.fullmatch(rf"{number}\.\d+", rid):
            checker.error(rwhere, f"'id' must be {number}.N (the section number, a dot, a number)")
        if rid in seen:
            checker.error(rwhere, "'id' is used twice in this section")
        seen.add(rid)
        items = []
        for j, item in enumerate(raw.get("items") or []):
            kind, value = next(iter(item.items())) if isinstance(item, dict) and len(item) == 1 else (None, None)
            if kind == "row" and isinstance(value, list) and all(isinstance(c, str) for c in value) and any(value):
                items.append(Item("row", "\t".join(c.strip() for c in value)))
            elif kind in ITEM_KINDS and kind != "row" and isinstance(value, str) and value.strip():
                items.append(Item(kind, value.strip()))
            else:
                checker.error(rwhere, f"item #{j + 1} must be one of {', '.join(ITEM_KINDS)} with text (row: a list of cells)")
        rules.append(
            Rule(
                id=rid,
                text=str(raw.get("text") or "").strip(),
                heading=str(raw.get("heading") or "").strip(),
                items=tuple(items),
                editor_note=localized(raw.get("editor_note")),
            )
        )
    if not data.get("intro") and not rules:
        checker.error(where, "'intro' is missing (a section needs an intro or rules)")
    if data.get("title_from", "heading") not in TITLE_FROM:
        checker.error(where, f"'title_from' must be one of {', '.join(TITLE_FROM)}")
    if checker.messages:
        return None
    return Section(
        pack=pack_id,
        id=data["id"],
        number=data["number"],
        title=data["title"].strip(),
        kind=(data.get("kind") or "").strip(),
        names=dict(data.get("names") or {}),
        aliases=tuple(a.strip() for a in data.get("aliases") or []),
        intro=(data.get("intro") or "").strip(),
        rules=tuple(rules),
        related=tuple(r.strip() for r in data.get("related") or []),
        editor_note=localized(data.get("editor_note")),
        part=(data.get("part") or "").strip(),
        title_from=data.get("title_from", "heading"),
    )


def load_pack(folder: Path, root: Path | None = None) -> Pack:
    """Load and validate one pack folder; raise PackError listing every problem."""
    root = folder.parent.parent if root is None else root
    rel = lambda p: p.relative_to(root).as_posix() if root != Path("") and p.is_relative_to(root) else str(p)  # noqa: E731
    messages: list[str] = []
    meta_path = folder / "pack.yaml"
    checker = _Checker(rel(meta_path))
    meta = _load_yaml(meta_path, checker) if meta_path.exists() else None
    if meta is None and not checker.messages:
        checker.error("", "is missing: every pack needs a pack.yaml")
    if meta is not None:
        checker.fields("pack", meta, **PACK_FIELDS)
        if meta.get("id") != folder.name:
            checker.error("pack", f"'id' must be the folder name '{folder.name}'")
        if not all(k in (meta.get("names") or {}) for k in LANGUAGES):
            checker.error("pack", "'names' must give a name in ko, en and ja")
        if meta.get("numbering", "source") not in ("source", "generated"):
            checker.error("pack", "'numbering' must be 'source' or 'generated'")
        if meta.get("language") not in LANGUAGES:
            checker.error("pack", f"'language' must be one of {', '.join(LANGUAGES)}")
    messages += checker.messages

    lexicon: tuple[Term, ...] = ()
    lexicon_path = folder / LEXICON_FILE
    if lexicon_path.exists():
        checker = _Checker(rel(lexicon_path))
        data = _load_yaml(lexicon_path, checker, "'terms'")
        lexicon = _check_lexicon(data, checker) if data is not None else ()
        messages += checker.messages

    sections: list[Section] = []
    found_cards: dict[str, cards.Card] = {}
    for path in sorted(folder.glob("*.yaml")):
        if path.name in ("pack.yaml", LEXICON_FILE):
            continue
        checker = _Checker(rel(path))
        data = _load_yaml(path, checker)
        section = _check_section(data, folder.name, checker) if data is not None else None
        messages += checker.messages
        if section:
            card, problems = cards.load(cards.card_path(path), section, rel(cards.card_path(path)), load_yaml_text)
            messages += problems
            if card is not None:
                found_cards[section.id] = card
                names = {k: v for k, v in card.names.items() if v and k != (meta or {}).get("language")}
                section = replace(section, names={**names, **section.names})
            sections.append(replace(section, file=rel(path)))
    section_files = {p.name for p in folder.glob("*.yaml")}  # a section that failed to load still has its card
    for orphan in sorted((folder / cards.FOLDER).glob("*.yaml")):
        if orphan.name not in section_files:
            messages.append(f"{rel(orphan)}: a card needs a section file of the same name ({orphan.name})")
    ids: dict[str, str] = {}
    numbers: dict[int, str] = {}
    for s in sections:
        if s.id in ids:
            messages.append(f"{s.file}: section {s.id}: 'id' is also used by {ids[s.id]}")
        if s.number in numbers:
            messages.append(f"{s.file}: section {s.id}: 'number' {s.number} is also used by {numbers[s.number]}")
        ids[s.id], numbers[s.number] = s.file, s.file
    if not sections and not messages:
        messages.append(f"{rel(folder)}: the pack has no sections")
    if messages or meta is None:
        raise PackError(messages)
    return Pack(
        id=meta["id"],
        names=dict(meta["names"]),
        language=meta["language"],
        source=meta["source"].strip(),
        credit=meta["credit"].strip(),
        description=localized(meta.get("description")),
        numbering=meta.get("numbering", "source"),
        sections=tuple(sorted(sections, key=lambda s: s.number)),
        lexicon=lexicon,
        cards=found_cards,
    )


def load_packs(rules_dir: Path) -> list[Pack]:
    """Every pack under rules_dir; PackError collects the problems of all of them."""
    packs, messages = [], []
    if not rules_dir.is_dir():
        raise PackError([t("config.no_folder", name="RULES_DIR", path=str(rules_dir))])
    folders = sorted(p for p in rules_dir.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
    for folder in folders:
        try:
            # files named as the checkout has them (rules/ti4/62.yaml), else by the path given
            packs.append(load_pack(folder, rules_dir.parent if rules_dir.resolve() == RULES_DIR.resolve() else Path("")))
        except PackError as exc:
            messages += exc.messages
    if messages:
        raise PackError(messages)
    if not packs:
        raise PackError([f"{rules_dir}: no rule packs found"])
    return packs

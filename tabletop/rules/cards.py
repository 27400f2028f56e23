"""Search cards: each section says what it rules in three languages, so that a question finds it
whatever language or words the player uses.

A section is known to the search by its own sentences, in the pack's language only. Its card
(`rules/<pack>/cards/<the section's file name>`) adds, in Korean, English and Japanese, a short
summary and players' questions, one per rule point, each naming the rule that answers it. Cards
are written by this project from the section's text alone, never from a query file
(tests/rules/test_search_cards.py fails on a near-copy), and checked by the model (`bot.py pack cards ID
--check`). They are ours and unofficial: search reads them, a reply may show a summary labelled
as ours, and they are never shown as rules text.

    section: '62'
    names: {en: Agenda Phase}        # optional: fills a language the section's names lack
    summary: {ko: …, en: …, ja: …}   # 2-4 plain sentences each
    questions:
    - rule: '62.19'                  # the rule that answers it (left out: the section's intro)
      ko: 투표 동률이면 누가 정해?
      en: …
      ja: …

An imported pack gets an empty card per section (`pack import`); an empty or missing card
changes nothing: the section is searched by its own text, as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from tabletop.core.i18n import LOCALES

FOLDER = "cards"
LANGUAGES = LOCALES  # a card speaks every language the bot does
# Questions per card: one per rule point a player would ask about; fewer than four leaves a short
# section with one way in, more than twelve dilutes what the model compares with.
QUESTIONS = (4, 12)
SUMMARY_LIMIT = 400  # characters per language: two to four plain sentences


@dataclass(frozen=True)
class CardQuestion:
    rule: str | None  # the rule that answers it; None: the section's intro
    texts: dict[str, str]  # language -> the question


@dataclass(frozen=True)
class Card:
    section: str
    file: str
    names: dict[str, str]
    summary: dict[str, str]
    questions: tuple[CardQuestion, ...]

    def texts(self) -> list[tuple[str, int | None, str | None, str, str]]:
        """(kind, point, rule, language, text) of every sentence search reads: the summaries,
        then the questions (point: the question's place in the card, the same in every language)."""
        out: list[tuple[str, int | None, str | None, str, str]] = [
            ("summary", None, None, lang, t) for lang, t in self.summary.items() if t
        ]
        for point, q in enumerate(self.questions, 1):
            out += [("question", point, q.rule, lang, t) for lang, t in q.texts.items() if t]
        return out


def card_path(section_file: Path) -> Path:
    """Where a section's card lives: beside the pack's sections, under the same file name."""
    return section_file.parent / FOLDER / section_file.name


def _strings(value, where: str, messages: list[str]) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(v, str) or v is None for v in value.values()):
        messages.append(f"{where} must map ko, en and ja to text")
        return {}
    unknown = [str(k) for k in value if k not in LANGUAGES]
    if unknown:
        messages.append(f"{where}: unknown language {', '.join(unknown)} (ko, en, ja)")
    return {k: (v or "").strip() for k, v in value.items() if k in LANGUAGES}


def load(path: Path, section, shown: str, read=yaml.safe_load) -> tuple[Card | None, list[str]]:
    """A section's card from its file (None when there is none), and what is wrong with it,
    each message naming the file as `shown`."""
    if not path.exists():
        return None, []
    messages: list[str] = []
    try:
        data = read(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        return None, [f"{shown}:{where} not valid YAML ({getattr(exc, 'problem', None) or exc})"]
    except (OSError, UnicodeDecodeError) as exc:
        return None, [f"{shown}: cannot be read ({type(exc).__name__})"]
    if data is None:
        data = {}
    if not isinstance(data, dict):
        return None, [f"{shown}: a card is a mapping of section, names, summary and questions"]
    unknown = sorted(set(map(str, data)) - {"section", "names", "summary", "questions"})
    if unknown:
        messages.append(f"{shown}: unknown field {', '.join(unknown)}")
    if str(data.get("section", section.id)) != section.id:
        messages.append(f"{shown}: 'section' must be '{section.id}', the section of the file of that name")
    questions = []
    for i, q in enumerate(data.get("questions") or [], 1):
        where = f"{shown}: question {i}"
        if not isinstance(q, dict):
            messages.append(f"{where} must map rule, ko, en and ja")
            continue
        rule = None if q.get("rule") is None else str(q["rule"])
        if rule is not None and section.rule(rule) is None:
            messages.append(f"{where}: rule '{rule}' is not a rule of section {section.id}")
        texts = _strings({k: v for k, v in q.items() if k != "rule"}, where, messages)
        questions.append(CardQuestion(rule, texts))
    card = Card(
        section.id,
        shown,
        _strings(data.get("names"), f"{shown}: names", messages),
        _strings(data.get("summary"), f"{shown}: summary", messages),
        tuple(questions),
    )
    return card, messages


def gaps(section, card: Card | None, language: str) -> list[tuple[str, dict]]:
    """What a section's card still lacks, for `pack cards --check` (an admin's to-do list), as
    message keys and their values; `language` is the pack's, in which the title is its name."""
    if card is None:
        return [("cards.gap.none", {})]
    out: list[tuple[str, dict]] = []
    names = {**card.names, **{k: v for k, v in section.names.items() if v}}
    missing = [lang for lang in LANGUAGES if not names.get(lang) and lang != language]
    if missing:
        out.append(("cards.gap.name", {"languages": ", ".join(missing)}))
    for lang in LANGUAGES:
        summary = card.summary.get(lang, "")
        if not summary:
            out.append(("cards.gap.summary", {"language": lang}))
        elif len(summary) > SUMMARY_LIMIT:
            out.append(("cards.gap.summary_long", {"language": lang, "limit": SUMMARY_LIMIT}))
    low, high = QUESTIONS
    if not low <= len(card.questions) <= high:
        out.append(("cards.gap.count", {"count": len(card.questions), "low": low, "high": high}))
    for i, q in enumerate(card.questions, 1):
        lacking = [lang for lang in LANGUAGES if not q.texts.get(lang)]
        if lacking:
            out.append(("cards.gap.question", {"point": i, "languages": ", ".join(lacking)}))
    return out


def blank(section_id: str, title: str, language: str) -> str:
    """The YAML of an empty card (pack import writes one per section): the name from the
    heading, the rest for an admin to fill in."""
    names = {lang: (title if lang == language else "") for lang in LANGUAGES}
    data = {"section": section_id, "names": names, "summary": dict.fromkeys(LANGUAGES, ""), "questions": []}
    header = "# Search card (ours, unofficial, never shown as rules text): see `bot.py pack cards --check`.\n"
    return header + yaml.safe_dump(data, allow_unicode=True, sort_keys=False)

"""The rules website's search index, written at build time so that the browser can search a pack
offline with the bot's own reading of Korean:

- every rule's lemmas (the analyser's, from the rules database) and syllable bigrams;
- the word forms the rules use, each with its lemmas (굴립니다 -> 굴리다), so that a question
  written with the rules' own forms meets the rules' lemmas;
- the lexicon: every spelling and everyday word players use (인프, 캐리어, 우포), with the tokens
  of the official term it stands for;
- the particles and endings the bot strips (폭격은 -> 폭격) and its stop words.

The browser (static/search.js) reads a question the same way and ranks rules by BM25.
"""

from __future__ import annotations

import json
from collections import Counter

from tabletop.core import text
from tabletop.rules import links
from tabletop.rules.compendium import Compendium
from tabletop.rules.lexical import BIGRAM_WEIGHT, BM25_B, BM25_K1, EXPANSION_WEIGHT, query_tokens

SNIPPET = 110  # characters of a rule shown under a result


def build(compendium: Compendium, pack_id: str) -> dict:
    pack = compendium.packs[pack_id]
    analyzer = compendium.search.analyzer
    docs: list[list[str]] = []
    postings: dict[str, list[list[int]]] = {}
    lengths: list[int] = []
    rows = compendium.conn.execute(
        "select section, rule, lemmas, bigrams from docs where pack = ? order by rowid", (pack_id,)
    ).fetchall()
    for position, (section_id, rule_id, lemmas, bigrams) in enumerate(rows):
        section = compendium.known_section(pack_id, section_id)
        rule = section.rule(rule_id) if rule_id else None
        body = " ".join((rule.lines() if rule else [section.intro]) or [section.title])
        label = f"{section.number} {section.full_title}" + (f" — {rule_id}" if rule_id else "")
        href = links.page(pack_id, section_id).split("/", 1)[1] + (f"#{links.anchor(rule_id)}" if rule_id else "")
        snippet = " ".join(body.split())
        docs.append([label, href, snippet if len(snippet) <= SNIPPET else snippet[: SNIPPET - 1] + "…"])
        counts = Counter([f"L:{t}" for t in lemmas.split()] + [f"B:{t}" for t in bigrams.split()])
        for token, tf in counts.items():
            postings.setdefault(token, []).append([position, tf])
        lengths.append(sum(counts.values()))
    surface: dict[str, list[str]] = {}
    for section in pack.sections:
        for line in [section.title, section.intro] + [ln for r in section.rules for ln in r.lines()]:
            for word in text.normalize(line).split():
                k = text.key(word)
                if k and k not in surface and any(map(text.is_syllable, k)):
                    found = analyzer.lemmas(word)
                    if found:
                        surface[k] = list(dict.fromkeys(found))
    lexicon: dict[str, list[list[str | float]]] = {}
    for term in pack.lexicon:
        official: dict[str, float] = {}
        for form in (term.term, *term.names.values()):
            official.update(query_tokens(form, analyzer))
        tokens = [(t, w) for t, w in official.items() if t in postings]
        for form in term.forms:
            k = text.key(form)
            if k and tokens:
                weight = EXPANSION_WEIGHT if form in term.words else 1.0
                lexicon.setdefault(k, [])
                lexicon[k] += [[t, round(w * weight, 2)] for t, w in tokens]
    return {
        "pack": pack_id,
        "docs": docs,
        "postings": postings,
        "lengths": lengths,
        "surface": surface,
        "lexicon": lexicon,
        "particles": list(text.PARTICLES),
        "stopwords": sorted(text.STOPWORDS),
        "k1": BM25_K1,
        "b": BM25_B,
        "bigram": BIGRAM_WEIGHT,
    }


def script(index: dict) -> str:
    """The index as a script that sets a global: it loads from file:// pages too, where a fetch
    of a JSON file would be refused."""
    return "window.SEARCH_INDEX = " + json.dumps(index, ensure_ascii=False, separators=(",", ":")) + ";\n"

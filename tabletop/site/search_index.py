"""The rules website's search index, written at build time so that the browser can search a pack
offline with the bot's own reading of Korean:

- every rule's lemmas (the analyser's, from the rules database) and syllable bigrams;
- the word forms the rules use, each with its lemmas (굴립니다 -> 굴리다), so that a question
  written with the rules' own forms meets the rules' lemmas;
- the lexicon: every spelling and everyday word players use (인프, 캐리어, 우포), with the tokens
  of the official term it stands for;
- the particles and endings the bot strips (폭격은 -> 폭격) and its stop words;
- every rule's number and every name of a section or sub-heading, in every language the pack
  and its lexicon give (titles, English and Japanese names, aliases, players' spellings).

The browser (static/search.js) reads a question the same way: a number opens its rule, a name
typed or contained points at its section, kanji words are read in Korean as the bot reads them
(kanji-readings.js, site-wide), and sections are ranked as the bot ranks them by the words alone
(BM25 of their rules, the share of the question they hold, a name inside it: `rank` carries the
bot's fitted weights); meaning.js adds the meaning, with the bot's model (tabletop/site/meaning.py).
"""

from __future__ import annotations

import json
from collections import Counter

from tabletop.core import text
from tabletop.rules import crossling, fusion, links, tokenizing
from tabletop.rules.compendium import Compendium
from tabletop.rules.lexical import BIGRAM_WEIGHT, BM25_B, BM25_K1, EXPANSION_WEIGHT, SIBLING_SHARE, query_tokens
from tabletop.rules.search import MAX_QUERY_CHARS
from tabletop.site import meaning

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
        docs.append([label, href, snippet if len(snippet) <= SNIPPET else snippet[: SNIPPET - 1] + "…", section_id])
        counts = Counter([f"L:{t}" for t in lemmas.split()] + [f"B:{t}" for t in bigrams.split()])
        for token, tf in counts.items():
            postings.setdefault(token, []).append([position, tf])
        lengths.append(sum(counts.values()))
    position_of = {(section_id, rule_id): n for n, (section_id, rule_id, _, _) in enumerate(rows)}
    numbers = {
        str(compendium.known_section(pack_id, sid).number) if rid is None else rid: n for (sid, rid), n in position_of.items()
    }
    names, exact, initials = _names(compendium, pack_id, position_of)
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
        "numbers": numbers,
        "names": names,
        "initials": initials,
        "exact": {k: sorted(v.items()) for k, v in exact.items()},
        "inlineNumber": fusion.NAME_POINTS["inline number"],
        "initialsPrefix": fusion.NAME_POINTS["initials prefix"],
        "particles": list(tokenizing.PARTICLES),
        "endings": sorted(tokenizing.ENDINGS),
        "stopwords": sorted(tokenizing.STOPWORDS),
        "k1": BM25_K1,
        "b": BM25_B,
        "bigram": BIGRAM_WEIGHT,
        "siblings": SIBLING_SHARE,
        # the bot's ranking by the words alone (fusion.RANK_WEIGHTS without the meaning's)
        "rank": {f: fusion.RANK_WEIGHTS_NO_CARDS[f] for f in ("coverage", "bm25", "contained")},
        "contained": fusion.NAME_POINTS["contained"] / 100,
        "maxChars": MAX_QUERY_CHARS,  # the bot reads no more of a question
        "meaning": _meaning(compendium, pack_id, len(docs)),  # None from build.py where it has no vectors
    }


def _names(compendium: Compendium, pack_id: str, position_of: dict) -> tuple[dict, dict, list]:
    """Every name of a section as the bot's name ladder reads it: contained in a question (key ->
    [document, weight]), typed whole (key -> {document: points}, every section it names) and
    spelt by its initials ([initials, document, points])."""
    names: dict[str, list[float]] = {}
    initials: list[list] = []  # [initials, document, points as the bot's name ladder gives them]
    exact: dict[str, dict[int, float]] = {}  # a name's key -> {document: points}
    index = compendium.search.index(pack_id)  # the pack is the compendium's own: never None
    for name in index.names if index else ():
        at = position_of.get((name.section, name.rule), position_of.get((name.section, None)))
        if at is None or index is None:
            continue
        if len(name.key) >= 2 and (name.key not in names or names[name.key][1] < name.weight):
            names[name.key] = [at, name.weight]
        if name.key:  # a whole name typed: the bot's name ladder, every section it names
            points = fusion.NAME_POINTS["exact"] * name.weight + index.prior[name.section]
            exact.setdefault(name.key, {})
            if points > exact[name.key].get(at, 0.0):
                exact[name.key][at] = round(points, 3)
        if name.hangul:
            points = fusion.NAME_POINTS["initials"] * name.weight + index.prior[name.section]
            initials.append([name.initials, at, round(points, 3)])
    return names, exact, initials


def _meaning(compendium: Compendium, pack_id: str, docs: int) -> dict:
    """What the page needs to read a question's meaning as the bot does (meaning.py): the
    meaning's fitted weights, where the rule to open is chosen, and the lexicon forms whose
    official terms follow the question into the model ('커토 … (지휘 토큰)')."""
    index = compendium.search.index(pack_id)
    terms = [term.term for term, _ in index.terms] if index else []
    forms = [[key, kind, term, list(lemmas)] for lemmas, key, term, _, kind in (index.forms if index else ())]
    rows = meaning.card_rows(compendium, pack_id)
    carded = any(kind == "question" for _, _, kind, _ in rows)
    order = compendium.conn.execute("select section, rule from docs where pack = ? order by rowid", (pack_id,))
    position = {(section, rule): n for n, (section, rule) in enumerate(order)}
    weights = fusion.RANK_WEIGHTS if carded else fusion.RANK_WEIGHTS_NO_CARDS
    bare = not carded and index is not None and not index.pack.lexicon  # an import: fusion.ANSWER_MODEL_BARE
    answer = fusion.ANSWER_MODEL if carded else fusion.ANSWER_MODEL_BARE if bare else fusion.ANSWER_MODEL_NO_CARDS
    return {
        "vectors": docs + len(rows),  # the passages' rows, then the cards' (fusion.CardVectors)
        "passages": docs,
        # each card row: its section, q(uestion) or s(ummary), the document of the rule a question names
        "cards": [[section, kind[0], position.get((section, rule), -1) if rule else -1] for _, section, kind, rule in rows],
        "weights": {f: weights[f] for f in fusion.MEANING_FEATURES},
        "words": {f: weights[f] for f in ("coverage", "bm25", "contained")},  # the words' part beside the meaning
        "scale": fusion.RANK_SCALE,  # a unit of the fitted score in the name ladder's points
        "ruleZ": fusion.RULE_Z_WEIGHT,
        "ruleCard": fusion.RULE_CARD_WEIGHT,
        "shown": fusion.SHOWN,
        "terms": terms,
        "forms": forms,
        "language": compendium.packs[pack_id].language,  # a Korean pack hears kanji in Korean too
        # the bot's answer decision, for a question none of whose words the pack knows (its
        # words' features are then all 0, and the rest is the meaning's)
        "answer": {
            **{f: answer[f] for f in ("intercept", "z", "named", "foreign", "cosine", "asked", "zq")},
            "centre": fusion.COSINE_CENTRE,
            "step": fusion.COSINE_STEP,
            "threshold": fusion.ANSWER_THRESHOLD,
        },
    }


def readings_script() -> str:
    """The kanji table as a script (window.KANJI_READINGS: "reading kanji…" lines), for the
    browser to read a Japanese question's kanji words in Korean as the bot does."""
    lines = [line for line in crossling.READINGS.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    return "window.KANJI_READINGS = " + json.dumps("\n".join(lines), ensure_ascii=False) + ";\n"


def script(index: dict) -> str:
    """The index as a script that sets a global: it loads from file:// pages too, where a fetch
    of a JSON file would be refused."""
    return "window.SEARCH_INDEX = " + json.dumps(index, ensure_ascii=False, separators=(",", ":")) + ";\n"

"""Rules search: one engine for every front end (/rule, /search, autocomplete, chat, CLI).

Signals, strongest first, combined per section:
  1. a section or rule number (79, 79.1, §79.1, 79-1);
  2. an exact title, English name, alias or sub-heading, ignoring spaces, case and Unicode form;
  3. a query made only of initial consonants (ㅍㄱ) against the names' initials;
  4. fuzzy names on Hangul decomposed into jamo, with length-aware edit limits;
  5. names contained in a longer question ("폭격은 행성 보호막 있으면 못 해?");
  6. BM25 (SQLite FTS5) over pre-tokenised rule text: Hangul bigrams, unigrams, ASCII words.
A result needs a name signal or enough of the query's content tokens in one section; otherwise
nothing is returned, never the least bad section.
"""

from __future__ import annotations

import math
import re
import sqlite3
from dataclasses import dataclass

from rapidfuzz.distance import Levenshtein

from tabletop.rules import text
from tabletop.rules.ruledb import pack_tag

MAX_QUERY_CHARS = 200  # longer input is refused by the front ends with a message
MIN_SCORE = 30.0
CONFIDENT_SCORE = 60.0  # below this, chat mode offers "did you mean" instead of an answer
_NUMBER_RE = re.compile(r"^(?:§|제)?\s*(\d{1,4})(?:\s*[.\-·:]\s*(\d{1,3}))?\s*\.?\s*(?:조|항)?$")
_ENUMERATOR_RE = re.compile(r"^\s*(?:\d+[.)]|\[\d+\]|[-•])\s*")
_INLINE_RULE_RE = re.compile(r"(?<![\d.])(\d{1,4})\.(\d{1,3})(?![\d])")


@dataclass(frozen=True)
class Result:
    pack: str
    section: str  # section id
    rule: str | None  # the rule that matched ("79.1"), None when the whole section did
    score: float
    title: str  # the section's full title, for lists
    how: str  # which signal decided: number, exact, initials, fuzzy, prefix, contains, text

    @property
    def confident(self) -> bool:
        return self.score >= CONFIDENT_SCORE

    def as_dict(self) -> dict:
        return {"id": self.section, "title": self.title, "rule": self.rule, "score": round(self.score, 2)}


@dataclass(frozen=True)
class _Name:
    section: str
    rule: str | None
    label: str
    key: str
    jamo: str
    initials: str
    hangul: bool
    cjk: bool  # kana or kanji: substring containment works as for Hangul
    weight: float
    words: tuple[
        str, ...
    ]  # normalised words of the label, for containment in a question  # titles and names 1.0, aliases slightly less, rule sub-headings less again


class _PackIndex:
    def __init__(self, pack, related_counts: dict[str, int]):
        self.pack = pack
        self.names: list[_Name] = []
        self.exact: dict[str, list[_Name]] = {}
        self.tokens: dict[str, set[str]] = {}
        self.prior: dict[str, float] = {}
        self.corpus_keys: str = ""
        corpus = []
        for s in pack.sections:
            labels = [(s.title, 1.0), (s.full_title, 1.0)]
            labels += [(n, 1.0) for n in s.names.values()]
            labels += [(a, 0.97) for a in s.aliases]
            for label, weight in labels:
                self._add(s.id, None, label, weight)
                bare = _ENUMERATOR_RE.sub("", label)  # "2. 게임 준비" is also "게임 준비"
                if bare != label:
                    self._add(s.id, None, bare, weight)
            for r in s.rules:
                if r.heading:
                    self._add(s.id, r.id, r.heading, 0.93)
            lines = [s.title, s.intro] + [line for r in s.rules for line in r.lines()]
            big, uni = text.tokens(" ".join([*lines, *s.names.values(), *s.aliases]))
            self.tokens[s.id] = set(big) | set(uni)
            # how often other sections point here: a tie-breaker between equally good names
            self.prior[s.id] = min(related_counts.get(s.id, 0), 10) * 0.1
            corpus.append(text.key(" ".join(lines)))
        self.corpus_keys = "\n".join(corpus)
        n = len(pack.sections)
        df: dict[str, int] = {}
        for toks in self.tokens.values():
            for t in toks:
                df[t] = df.get(t, 0) + 1
        self.df = df
        self.max_idf = math.log((n + 1) / 0.5)
        self.n = n

    def idf(self, token: str) -> float:
        return math.log((self.n + 1) / (self.df.get(token, 0) + 0.5))

    def coverage(self, section: str, wanted: list[str]) -> float:
        """Share of the query's information (IDF-weighted) that this section contains."""
        total = sum(self.idf(t) for t in wanted)
        have = sum(self.idf(t) for t in wanted if t in self.tokens[section])
        return have / total if total else 0.0

    def _add(self, section: str, rule: str | None, label: str, weight: float) -> None:
        k = text.key(label)
        if not k:
            return
        name = _Name(
            section,
            rule,
            label,
            k,
            text.decompose(k),
            text.initials(label),
            any(text.is_syllable(c) for c in k),
            any(0x3040 <= ord(c) <= 0x9FFF for c in k),
            weight,
            tuple(text.normalize(label).split()),
        )
        if any(n.key == k and n.section == section and n.rule == rule for n in self.exact.get(k, [])):
            return
        self.names.append(name)
        self.exact.setdefault(k, []).append(name)


def _allowed_edits(jamo_len: int) -> int:
    """Edit budget on jamo: none for one syllable, one for two, two from four syllables on."""
    if jamo_len <= 4:
        return 0
    if jamo_len <= 9:
        return 1
    if jamo_len <= 15:
        return 2
    return 3


class SearchEngine:
    def __init__(self, compendium):
        self.compendium = compendium
        self.conn: sqlite3.Connection = compendium.conn
        self._indexes: dict[str, _PackIndex] = {}
        for pack in compendium.packs.values():
            counts: dict[str, int] = {}
            for s in pack.sections:
                for topic in compendium.related(s):
                    if topic.target:
                        counts[topic.target] = counts.get(topic.target, 0) + 1
            self._indexes[pack.id] = _PackIndex(pack, counts)

    # -------------------------------------------------------------------------------------

    def search(self, query: str, game: str = "ti4", limit: int = 10) -> list[Result]:
        """Ranked results for a query; an empty list when nothing in the pack answers it."""
        index = self._indexes.get(game)
        if index is None or not isinstance(query, str) or limit <= 0:
            return []
        query = query[: MAX_QUERY_CHARS * 2]
        norm = text.normalize(query)
        qkey = text.key(query)
        if not qkey:
            return []
        best: dict[str, list] = {}  # section -> [score, rule, how]

        def offer(section: str, score: float, rule: str | None, how: str) -> None:
            current = best.get(section)
            if current is None or score > current[0]:
                best[section] = [score, rule, how]

        number = self._number(index, norm)
        if number:
            offer(*number)
            return self._finish(index, best, limit)

        for name in index.exact.get(qkey, ()):
            offer(name.section, 95 * name.weight + index.prior[name.section], name.rule, "exact")
        if best and limit == 1:  # the whole query is a name: nothing can outrank it (/rule's path)
            return self._finish(index, best, limit)

        if text.is_initials_query(query):
            for name in index.names:
                if not name.hangul:
                    continue
                if name.initials == qkey:
                    offer(name.section, 88 * name.weight + index.prior[name.section], name.rule, "initials")
                elif name.initials.startswith(qkey):
                    offer(name.section, 55 + 20 * len(qkey) / len(name.initials), name.rule, "initials")
            return self._finish(index, best, limit)

        if not best:
            self._fuzzy(index, qkey, offer)

        for m in _INLINE_RULE_RE.finditer(norm):
            s = self.compendium.section_by_number(game, int(m.group(1)))
            rid = f"{int(m.group(1))}.{int(m.group(2))}"
            if s and s.rule(rid):
                offer(s.id, 90, rid, "number")

        exact = {sid for sid, entry in best.items() if entry[2] == "exact"}
        self._contained_and_text(index, query, qkey, best, offer, skip=exact)
        if exact:  # a name typed exactly outranks anything the words merely suggest
            for sid, entry in best.items():
                if sid not in exact:
                    entry[0] = min(entry[0], 90.0)
        return self._finish(index, best, limit)

    def _number(self, index: _PackIndex, norm: str):
        m = _NUMBER_RE.match(norm)
        if not m:
            return None
        section = self.compendium.section_by_number(index.pack.id, int(m.group(1)))
        if not section:
            return None
        rid = f"{int(m.group(1))}.{int(m.group(2))}" if m.group(2) else None
        if rid and section.rule(rid):
            return section.id, 100.0, rid, "number"
        return section.id, 100.0 if rid is None else 80.0, None, "number"

    def _fuzzy(self, index: _PackIndex, qkey: str, offer) -> None:
        qjamo = text.decompose(qkey)
        budget = _allowed_edits(len(qjamo)) if any(map(text.is_syllable, qkey)) else _allowed_edits(len(qkey) - 1)
        # a word the rules themselves use is not a typo of a title: it must not jump there
        real_word = len(qkey) >= 2 and qkey in index.corpus_keys
        for name in index.names:
            if len(name.key) >= 2 and name.key.startswith(qkey) and len(qkey) >= 2:
                offer(name.section, (62 + 25 * len(qkey) / len(name.key)) * name.weight, name.rule, "prefix")
            if budget == 0 or real_word:
                continue
            d = Levenshtein.distance(qjamo, name.jamo, score_cutoff=budget)
            if not name.hangul and name.jamo.endswith("s"):  # English plurals: modifier(s)
                d = min(d, Levenshtein.distance(qjamo.rstrip("s"), name.jamo[:-1], score_cutoff=budget))
            if d <= budget:
                offer(name.section, (84 - 8 * d) * name.weight + index.prior[name.section], name.rule, "fuzzy")

    def _contained_and_text(self, index: _PackIndex, query: str, qkey: str, best: dict, offer, skip=()) -> None:
        words = set(text.normalize(query).split())
        stems = {text.strip_particle(w) for w in words}
        contained: dict[str, float] = {}
        for name in index.names:
            if name.key == qkey or name.rule is not None:
                continue
            if name.hangul or name.cjk:
                hit = name.key in qkey and (len(name.key) >= 2 or name.key in stems)
            else:
                hit = len(name.key) >= 3 and all(p in words for p in name.words)
            if hit:
                share = len(name.key) / len(qkey)
                contained[name.section] = max(contained.get(name.section, 0), 25 + 50 * share)

        wanted = self._without_junctions(index, text.query_tokens(query))
        big, uni = text.tokens(query, query=True)
        raw_big, _ = text.tokens(query)  # particles kept: rewards the question's exact wording
        fts = self._fts(index.pack.id, big + raw_big, uni)
        top = max((v[0] for v in fts.values()), default=0) or 1.0
        for sid in (set(contained) | set(fts)) - set(skip):
            coverage = index.coverage(sid, wanted)
            fts_score, fts_rule = fts.get(sid, (0.0, None))
            text_part = 40 * coverage + 10 * fts_score / top if coverage else 0.0
            if sid in contained:
                offer(sid, contained[sid] + text_part + index.prior[sid], fts_rule, "contains")
            elif coverage >= 0.6:
                offer(sid, 20 + text_part + index.prior[sid], fts_rule, "text")

    @staticmethod
    def _without_junctions(index: _PackIndex, wanted: list[str]) -> list[str]:
        """Drop a bigram the pack never uses when it only joins two bigrams it does use: the
        query ran two words together ("전쟁태양"), which is not missing information."""
        out = []
        for i, t in enumerate(wanted):
            before = wanted[i - 1] if i else ""
            after = wanted[i + 1] if i + 1 < len(wanted) else ""
            joins = len(t) == 2 and before[-1:] == t[0] and after[:1] == t[1] and index.df.get(before) and index.df.get(after)
            if index.df.get(t) or not joins:
                out.append(t)
        return out

    def _fts(self, pack: str, big: list[str], uni: list[str]) -> dict[str, tuple[float, str | None]]:
        """Section BM25 (from the whole-section documents) and the best rule of each section."""
        terms = list(dict.fromkeys(big + uni))[:64]
        if not terms:
            return {}
        match = f"pack_tag:{pack_tag(pack)} AND (" + " OR ".join('"' + t.replace('"', "") + '"' for t in terms) + ")"
        try:
            rows = self.conn.execute(
                "select docs.section, docs.kind, docs.rule, -bm25(docs_fts, 0.0, 4.0, 1.0, 0.15) as score "
                "from docs_fts join docs on docs.rowid = docs_fts.rowid "
                "where docs_fts match ? order by score desc limit 200",
                (match,),
            ).fetchall()
        except sqlite3.OperationalError:
            return {}
        sections: dict[str, float] = {}
        rules: dict[str, tuple[float, str | None]] = {}
        for section, kind, rule, score in rows:
            if kind == "section":
                sections[section] = max(score, sections.get(section, score))
            elif section not in rules or score > rules[section][0]:
                rules[section] = (score, rule)
        return {sid: (score, rules.get(sid, (0, None))[1]) for sid, score in sections.items()}

    def _finish(self, index: _PackIndex, best: dict, limit: int) -> list[Result]:
        results = [
            Result(index.pack.id, sid, rule, score, self.compendium.section(index.pack.id, sid).full_title, how)
            for sid, (score, rule, how) in best.items()
            if score >= MIN_SCORE
        ]
        results.sort(key=lambda r: (-r.score, self.compendium.section(r.pack, r.section).number))
        return results[:limit]

    # -------------------------------------------------------------------------------------

    def suggest(self, prefix: str, game: str = "ti4", limit: int = 25) -> list[Result]:
        """Autocomplete: names that start with what was typed (even mid-syllable), then search."""
        index = self._indexes.get(game)
        if index is None or not isinstance(prefix, str):
            return []
        prefix = prefix[:MAX_QUERY_CHARS]
        pkey = text.key(prefix)
        if not pkey:
            return [Result(game, s.id, None, 0.0, s.full_title, "list") for s in index.pack.sections[:limit]]
        out: dict[tuple[str, str | None], Result] = {}
        norm = text.normalize(prefix)
        m = re.match(r"^§?\s*(\d{1,4})(?:[.\-](\d{0,3}))?$", norm)
        if m:
            s = self.compendium.section_by_number(game, int(m.group(1)))
            if s:
                out[(s.id, None)] = Result(game, s.id, None, 100, s.full_title, "number")
                for r in s.rules:
                    if m.group(2) is None or r.id.split(".")[1].startswith(m.group(2)):
                        out.setdefault((s.id, r.id), Result(game, s.id, r.id, 99, s.full_title, "number"))
        pjamo = text.decompose(pkey)
        for name in index.names:
            if name.key.startswith(pkey) or name.jamo.startswith(pjamo):
                score = 90 + 10 * len(pkey) / len(name.key)
                k = (name.section, name.rule)
                if k not in out or out[k].score < score:
                    out[k] = Result(
                        game, name.section, name.rule, score, self.compendium.section(game, name.section).full_title, "prefix"
                    )
        if len(out) < limit:
            for r in self.search(prefix, game, limit):
                out.setdefault((r.section, r.rule), r)
        ranked = sorted(out.values(), key=lambda r: -r.score)
        seen, final = set(), []
        for r in ranked:
            if (r.section, r.rule) not in seen:
                seen.add((r.section, r.rule))
                final.append(r)
        return final[:limit]

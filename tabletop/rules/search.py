"""Rules search: one engine for every front end (/rule, /search, autocomplete, chat, CLI).

A query is read the way a player writes it, then matched against sections and their rules:
  1. a section or rule number (79, 79.1, §79.1, 79-1) opens it directly;
  2. names: an exact title, English name, alias, sub-heading or lexicon spelling (ignoring
     spaces, case and Unicode form), initial consonants (ㅍㄱ), fuzzy names on jamo with
     length-aware edit limits, and names contained in a longer question;
  3. words: each word whose stem is not in the pack's vocabulary is repaired to the nearest
     vocabulary word on jamo (폭걱 -> 폭격); the question is analysed into lemmas (나눠서 -> 나누다)
     and bigrams; the pack's lexicon adds the rules' own terms for the players' words (인프 ->
     보병, 터지다 -> 파괴), weighted below the player's own words; every rule is scored with BM25
     over lemmas and bigrams, and a section by its best rules.
A section is offered only when a name points at it or it covers enough of the question's
information; otherwise nothing is returned, never the least bad section. Topics the rules name
but the document lacks (우주 전투 in TI4's 62-89) are reported by `missing`.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections import Counter
from dataclasses import dataclass, field

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from tabletop.rules import morph, text
from tabletop.rules.packs import Pack, Term

MAX_QUERY_CHARS = 200  # longer input is refused by the front ends with a message
MIN_SCORE = 30.0  # below this a section is not offered at all
CONFIDENT_SCORE = 60.0  # below this, chat mode offers "did you mean" instead of an answer

# The principled constants of word matching, each with its reason.
BM25_K1, BM25_B = 1.2, 0.75  # the standard Okapi BM25 saturation and length normalisation
EXPANSION_WEIGHT = 0.6  # an everyday word's expansion is our reading of the player's word, not their word
# A spelling (인프, 캐리어, tg) is the same name in another script or shortened: its expansion
# counts in full.
BIGRAM_WEIGHT = 0.5  # a word gives one lemma but several overlapping bigrams: half weight each
MIN_COVERAGE = 0.5  # without a name, a section must hold at least half the question's information
# ... and one of its telling words, unless it holds (nearly) all of it: a question asked wholly
# in the rules' everyday words (2인 게임, 카드) is still answered by the section that has them all.
FULL_COVERAGE = 0.9
SIBLING_SHARE = 0.25  # a section's other matching rules add a quarter: several rules on the topic
CENTRAL_TOPIC = 0.5  # a missing topic few sections mention is what a question about it is about

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
class MissingTopic:
    """A rules topic the document names (a related topic, a lexicon term) but has no section for."""

    pack: str
    name: str
    english: str
    mentions: tuple[str, ...]  # ids of sections whose text mentions it

    def as_dict(self) -> dict:
        return {"id": None, "missing": True, "title": self.name, "en": self.english, "mentions": list(self.mentions)}


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
    weight: float  # titles 1.0, aliases and lexicon spellings slightly less, sub-headings less again
    words: tuple[str, ...]  # normalised words of the label, for containment in a question


@dataclass
class _Doc:
    section: str
    rule: str | None
    fields: dict[str, Counter]  # "L" lemmas, "B" bigrams and words, "U" unigrams
    lengths: dict[str, int] = field(default_factory=dict)


@dataclass
class _Group:
    """One word of the question with the tokens that evidence it: its own (lemma, bigrams) and,
    when the lexicon knows it, each official form of the term it stands for."""

    own: dict[str, float]  # field-prefixed token -> weight
    expansions: list[dict[str, float]]  # one token set per official form (보병, Infantry)
    idf: float
    terms: frozenset[str] = frozenset()  # keys of the lexicon terms it stands for
    readings: list[tuple[tuple[tuple[str, float], ...], float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        # Each reading of the word is one field of one form: its own lemma, its own bigrams, an
        # expansion's lemma or bigrams, with the share each token carries and the reading's
        # weight (1 for the word itself or a spelling, EXPANSION_WEIGHT for an everyday word).
        for weights, scale in [(self.own, 1.0)] + [(e, _scale(e)) for e in self.expansions]:
            for prefix in ("L:", "B:"):
                part = [(t, w) for t, w in weights.items() if t.startswith(prefix)]
                total = sum(w for _, w in part)
                if total:
                    self.readings.append((tuple((t, w / total) for t, w in part), scale))

    def credit(self, tokens: set[str]) -> float:
        """How much of this word a set of tokens holds: the best of its readings (a word's lemma
        and its bigrams are two readings of the same word; an official form of its term counts
        at the weight it came with). Single syllables (unigrams) are too common to count."""
        best = 0.0
        for part, scale in self.readings:
            if scale <= best:
                continue
            share = sum(w for t, w in part if t in tokens)
            best = max(best, share * scale)
        return best


def _scale(expansion: dict[str, float]) -> float:
    """The weight an expansion came with: 1 for a spelling, EXPANSION_WEIGHT for an everyday word."""
    return max((w for t, w in expansion.items() if t.startswith("L:")), default=max(expansion.values(), default=0.0))


class _PackIndex:
    def __init__(
        self, pack: Pack, docs: list[_Doc], related_counts: dict[str, int], related_names: set[str], analyzer: morph.Analyzer
    ):
        self.pack = pack
        self.analyzer = analyzer
        self.names: list[_Name] = []
        self.exact: dict[str, list[_Name]] = {}
        self.prior: dict[str, float] = {}
        self.docs = docs
        self.section_docs: dict[str, list[_Doc]] = {}
        for d in docs:
            self.section_docs.setdefault(d.section, []).append(d)
        self.section_tokens: dict[str, set[str]] = {}
        for sid, sdocs in self.section_docs.items():
            self.section_tokens[sid] = {f"{f}:{t}" for d in sdocs for f, c in d.fields.items() for t in c}
        n = len(pack.sections)
        self.n = n
        self.df: Counter = Counter(t for toks in self.section_tokens.values() for t in toks)
        self.max_idf = math.log((n + 1) / 0.5)
        # A word neither the pack nor its lexicon uses cannot be matched. An unknown noun is
        # likely the question's topic (주식, 타이머): it weighs as much as the pack's average
        # word, so a section that lacks it is not an answer. An unknown verb or adverb is
        # mostly the player's own way of saying things (몰아넣다, 방금): it weighs as little as
        # the pack's most common words.
        lemma_idfs = [self.idf(t) for t in self.df if t.startswith("L:")]
        self.unknown_noun_idf = sum(lemma_idfs) / len(lemma_idfs) if lemma_idfs else 1.0
        self.unknown_idf = min(lemma_idfs) if lemma_idfs else 1.0
        self.doc_df: Counter = Counter(f"{f}:{t}" for d in docs for f, c in d.fields.items() for t in c)
        self.avg_len = {f: (sum(d.lengths.get(f, 0) for d in docs) / len(docs)) or 1.0 for f in ("L", "B", "U")} if docs else {}
        self.postings: dict[str, list[tuple[_Doc, int]]] = {}
        for d in docs:
            for f, c in d.fields.items():
                for t, tf in c.items():
                    self.postings.setdefault(f"{f}:{t}", []).append((d, tf))
        corpus_keys = []
        for s in pack.sections:
            labels = [(s.title, 1.0), (s.full_title, 1.0)]
            labels += [(name, 1.0) for name in s.names.values()]
            labels += [(a, 0.97) for a in s.aliases]
            for label, weight in labels:
                self._add(s.id, None, label, weight)
                bare = _ENUMERATOR_RE.sub("", label)  # "2. 게임 준비" is also "게임 준비"
                if bare != label:
                    self._add(s.id, None, bare, weight)
            for r in s.rules:
                if r.heading:
                    self._add(s.id, r.id, r.heading, 0.93)
            # how often other sections point here: a tie-breaker between equally good names
            self.prior[s.id] = min(related_counts.get(s.id, 0), 10) * 0.1
            corpus_keys.append(text.key(" ".join([s.title, s.intro] + [line for r in s.rules for line in r.lines()])))
        self.corpus_keys = "\n".join(corpus_keys)
        self.section_keys = dict(zip((s.id for s in pack.sections), corpus_keys))
        self._lexicon(pack.lexicon)
        self._vocabulary()
        self.topics = self._topics(pack, related_names)

    # --- names -----------------------------------------------------------------------------

    def _add(self, section: str, rule: str | None, label: str, weight: float) -> None:
        k = text.key(label)
        if not k:
            return
        if any(n.section == section and n.rule == rule for n in self.exact.get(k, [])):
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
        self.names.append(name)
        self.exact.setdefault(k, []).append(name)

    def _lexicon(self, lexicon: tuple[Term, ...]) -> None:
        """A term that names a section lends it its spellings as names; every term's forms,
        everyday words included, expand questions to the term's own words."""
        section_of = {n.key: n.section for n in self.names if n.rule is None}
        self.terms: list[tuple[Term, str | None]] = []
        # (lemmas, key, term index, weight, kind): kind says how a form is found in a question
        self.forms: list[tuple[tuple[str, ...], str, int, float, str]] = []
        for index, term in enumerate(lexicon):
            section = next(
                (section_of[text.key(f)] for f in (term.term, *term.names.values()) if text.key(f) in section_of), None
            )
            self.terms.append((term, section))
            if section:
                for form in (term.term, *term.names.values(), *term.spellings):
                    self._add(section, None, form, 0.9)
            for form in term.forms:
                lemmas = tuple(self.analyzer.lemmas(form)) if any(map(text.is_syllable, form)) else ()
                weight = EXPANSION_WEIGHT if form in term.words else 1.0
                key = text.key(form)
                if lemmas and any(lm.endswith("다") for lm in lemmas):
                    kind = "verb"  # a verb phrase: its lemmas must all be in the question
                elif len(key) >= 2 and any(map(text.is_syllable, key)):
                    kind = "hangul"  # whole words, wherever they stand
                elif len(key) >= 2 and any(0x3040 <= ord(c) <= 0x9FFF for c in key):
                    kind = "cjk"  # Japanese writes no spaces: containment is all there is
                else:
                    kind = "word"  # a short or Latin form: a whole word or lemma
                if key:
                    self.forms.append((lemmas, key, index, weight, kind))
        by_term = {text.key(term.term): term for term, _ in self.terms}
        self.expansion_tokens: dict[int, list[dict[str, float]]] = {}
        for index, (term, _) in enumerate(self.terms):
            forms = [query_tokens(form, self.analyzer) for form in (term.term, *term.names.values())]
            for broader in term.broader:  # a kind of a broader term: the rules may speak of that
                b = by_term[text.key(broader)]
                forms += [
                    {t: w * EXPANSION_WEIGHT for t, w in query_tokens(f, self.analyzer).items()}
                    for f in (b.term, *b.names.values())
                ]
            self.expansion_tokens[index] = forms

    def _topics(self, pack: Pack, related_names: set[str]) -> list[tuple[MissingTopic, tuple[str, ...]]]:
        """Topics of the rules this document lacks: related topics that point outside the pack,
        and lexicon terms marked as topics, each with the keys it is written as."""
        by_key = {text.key(t.term): t for t, section in self.terms if section is None}
        keys = {text.key(n) for n in related_names} | {k for k, t in by_key.items() if t.topic}
        topics = []
        for key in sorted(keys):
            term = by_key.get(key)
            name = term.term if term else next(n for n in related_names if text.key(n) == key)
            forms = (term.term, *term.names.values(), *term.spellings) if term else (name,)
            mentions = tuple(
                s.id for s in pack.sections if key in self.section_keys[s.id] or key in {text.key(r) for r in s.related}
            )
            english = term.names.get("en", "") if term else ""
            topics.append((MissingTopic(pack.id, name, english, mentions), tuple(text.key(f) for f in forms)))
        return topics

    def rarity(self, key: str) -> float:
        """A key's IDF over the sections' text relative to the rarest word's, from 0 to 1."""
        df = sum(key in k for k in self.section_keys.values())
        return math.log((self.n + 1) / (df + 0.5)) / self.max_idf

    def specificity(self, key: str) -> float:
        """How much a name contained in a question says: the square root of its IDF over the
        sections' text relative to the rarest word's (a gentle curve: a title a few sections use,
        폭격, still names the topic): near 1 for a name only its own section uses, about 0.3 for a
        word most sections use (행성 in TI4), which names the topic of few questions."""
        return max(0.2, math.sqrt(self.rarity(key)))

    # --- vocabulary for typo repair ----------------------------------------------------------

    def _vocabulary(self) -> None:
        words: set[str] = {n.key for n in self.names if n.hangul}
        words |= {key for _, key, _, _, _ in self.forms if all(map(text.is_syllable, key))}
        for s in self.pack.sections:
            for line in [s.title, s.intro] + [line for r in s.rules for line in r.lines()]:
                for w in text.normalize(line).split():
                    stem = text.strip_particle(text.key(w))
                    if len(stem) >= 2 and all(map(text.is_syllable, stem)):
                        words.add(stem)
        for token in self.df:
            if token.startswith("L:") and all(map(text.is_syllable, token[2:])) and len(token) >= 4:
                words.add(token[2:])
        self.vocabulary = words
        self.vocabulary_jamo: dict[int, list[str]] = {}
        self.jamo_to_word: dict[str, str] = {}
        for w in words:
            j = text.decompose(w)
            self.jamo_to_word.setdefault(j, w)
            self.vocabulary_jamo.setdefault(len(j), []).append(j)

    def repair(self, stem: str) -> str | None:
        """The vocabulary word a misspelt stem most likely meant, or None when the stem is a
        word (ours or the dictionary's) or nothing is near enough."""
        if len(stem) < 2 or stem in self.vocabulary or stem in text.STOPWORDS or not all(map(text.is_syllable, stem)):
            return None
        if self.analyzer.is_known_word(stem):
            return None
        jamo = text.decompose(stem)
        budget = allowed_edits(len(jamo))
        if budget == 0:
            return None
        candidates = [w for n in range(len(jamo) - budget, len(jamo) + budget + 1) for w in self.vocabulary_jamo.get(n, ())]
        best = process.extractOne(jamo, candidates, scorer=Levenshtein.distance, score_cutoff=budget)
        return self.jamo_to_word[best[0]] if best else None

    # --- scoring -----------------------------------------------------------------------------

    def idf(self, token: str) -> float:
        return math.log((self.n + 1) / (self.df.get(token, 0) + 0.5))

    def doc_idf(self, token: str) -> float:
        n = len(self.docs)
        return math.log(1 + (n - self.doc_df.get(token, 0) + 0.5) / (self.doc_df.get(token, 0) + 0.5))

    def bm25(self, query: dict[str, float]) -> dict[int, float]:
        """BM25 of every document that shares a token with the weighted query, by id(doc)."""
        scores: dict[int, float] = {}
        for token, weight in query.items():
            idf = self.doc_idf(token)
            avg = self.avg_len.get(token[0], 1.0)
            for doc, tf in self.postings.get(token, ()):
                norm = tf * (BM25_K1 + 1) / (tf + BM25_K1 * (1 - BM25_B + BM25_B * doc.lengths.get(token[0], 0) / avg))
                scores[id(doc)] = scores.get(id(doc), 0.0) + weight * idf * norm
        return scores

    def shares_a_telling_word(self, section: str, groups: list[_Group]) -> bool:
        """Whether the section holds at least one word of the question that at most a quarter of
        the sections use: common words alone (다음, 플레이어) would match any section."""
        tokens = self.section_tokens.get(section, set())
        telling = math.log((self.n + 1) / (self.n / 4 + 0.5))
        return any(g.idf >= telling and g.credit(tokens) > 0 for g in groups)

    def coverage(self, section: str, groups: list[_Group]) -> float:
        """Share of the question's information (IDF-weighted words) that this section holds: a
        word counts in full when its own tokens are there, less when only its expansion is."""
        tokens = self.section_tokens.get(section, set())
        total = sum(g.idf for g in groups)
        if not total:
            return 0.0
        return sum(g.idf * g.credit(tokens) for g in groups) / total


def allowed_edits(jamo_len: int) -> int:
    """Edit budget on jamo: none for one syllable, one for two or three, two from four on."""
    if jamo_len <= 4:
        return 0
    if jamo_len <= 9:
        return 1
    if jamo_len <= 15:
        return 2
    return 3


def query_tokens(phrase: str, analyzer: morph.Analyzer) -> dict[str, float]:
    """Field-prefixed tokens of a phrase with their weights: lemmas (L:) in full, bigrams and
    ASCII words (B:) at BIGRAM_WEIGHT unless the phrase gave no lemma."""
    lemmas = analyzer.lemmas(phrase)
    big, uni = text.tokens(phrase, query=True)
    out: dict[str, float] = {f"L:{lemma}": 1.0 for lemma in lemmas}
    bigram_weight = BIGRAM_WEIGHT if lemmas else 1.0
    for b in big:
        out.setdefault(f"B:{b}", 1.0 if b.isascii() else bigram_weight)
    if not big:
        for u in uni:
            out.setdefault(f"U:{u}", bigram_weight)
    return out


class SearchEngine:
    def __init__(self, compendium):
        self.compendium = compendium
        self.conn: sqlite3.Connection = compendium.conn
        self.analyzer = morph.Analyzer(compendium.user_dictionary)
        self._indexes: dict[str, _PackIndex] = {}

    def index(self, game: str) -> _PackIndex | None:
        """A pack's index, built when the pack is first searched: a session that only asks about
        TI4 never holds the other packs' indexes (nor the analyser's pages they touch)."""
        if game not in self._indexes:
            pack = self.compendium.packs.get(game) if isinstance(game, str) else None
            if pack is None:
                return None
            counts: dict[str, int] = {}
            outside: set[str] = set()
            for s in pack.sections:
                for topic in self.compendium.related(s):
                    if topic.target:
                        counts[topic.target] = counts.get(topic.target, 0) + 1
                    else:
                        outside.add(topic.name)
            self._indexes[game] = _PackIndex(pack, self._load_docs(game), counts, outside, self.analyzer)
        return self._indexes[game]

    def _load_docs(self, game: str) -> list[_Doc]:
        out: list[_Doc] = []
        for section, rule, lemmas, bigrams, unigrams in self.conn.execute(
            "select section, rule, lemmas, bigrams, unigrams from docs where pack = ? order by rowid", (game,)
        ):
            fields = {"L": Counter(lemmas.split()), "B": Counter(bigrams.split()), "U": Counter(unigrams.split())}
            lengths = {f: sum(c.values()) for f, c in fields.items()}
            out.append(_Doc(section, rule, fields, lengths))
        return out

    # -------------------------------------------------------------------------------------

    def search(self, query: str, game: str = "ti4", limit: int = 10) -> list[Result]:
        """Ranked results for a query; an empty list when nothing in the pack answers it."""
        index = self.index(game)
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

        repaired = self._repaired(index, norm)
        rkey = text.key(repaired)
        if repaired != norm:
            for name in index.exact.get(rkey, ()):
                offer(name.section, 90 * name.weight + index.prior[name.section], name.rule, "exact")
        if not best:
            self._fuzzy(index, qkey, offer)

        for m in _INLINE_RULE_RE.finditer(norm):
            s = self.compendium.section_by_number(game, int(m.group(1)))
            rid = f"{int(m.group(1))}.{int(m.group(2))}"
            if s and s.rule(rid):
                offer(s.id, 90, rid, "number")

        exact = {sid for sid, entry in best.items() if entry[2] == "exact"}
        self._words(index, repaired, rkey, offer, skip=exact)
        if exact:  # a name typed exactly outranks anything the words merely suggest
            for sid, entry in best.items():
                if sid not in exact:
                    entry[0] = min(entry[0], 90.0)
        central = [m for m in self._missing(index, rkey) if index.rarity(text.key(m.name)) >= CENTRAL_TOPIC]
        if central:
            # The question is about a topic this document has no section for (우주 전투 in
            # TI4's 62-89). A section no name points at answers it only if it mentions the topic
            # and also holds the rest of the question; otherwise the honest answer is `missing`.
            topic_keys = {k for m in central for t, keys in index.topics if t is m for k in keys}
            rest = [g for g in self.groups(index, repaired) if not g.terms & topic_keys]
            mentioned = {sid for m in central for sid in m.mentions}
            for sid in [sid for sid, entry in best.items() if entry[2] == "text"]:
                if sid not in mentioned or not rest or index.coverage(sid, rest) < MIN_COVERAGE:
                    del best[sid]
        return self._finish(index, best, limit)

    def _repaired(self, index: _PackIndex, norm: str) -> str:
        """The question with each misspelt word stem replaced by the vocabulary word it meant."""
        out = []
        for word in norm.split():
            stem = text.strip_particle(word)
            fixed = index.repair(stem) if stem else None
            out.append(fixed + word[len(stem) :] if fixed and word.startswith(stem) else word)
        return " ".join(out)

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
        budget = allowed_edits(len(qjamo)) if any(map(text.is_syllable, qkey)) else allowed_edits(len(qkey) - 1)
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

    def groups(self, index: _PackIndex, query: str) -> list[_Group]:
        """The question as groups of evidence, one per content word, with lexicon expansions."""
        norm = text.normalize(query)
        words = [w for w in norm.split() if text.strip_particle(w) not in text.STOPWORDS and w not in text.STOPWORDS]
        analysed = {word: query_tokens(word, index.analyzer) for word in words}
        lemma_forms = {t[2:] for tokens in analysed.values() for t in tokens if t.startswith("L:")}
        lemma_forms |= set(index.analyzer.lemmas(query))
        qkey = text.key(query)
        query_words = {text.key(w) for w in norm.split()}
        hits = self._lexicon_hits(index, query, qkey, lemma_forms, query_words)
        groups: list[_Group] = []
        for word in words:
            own = {t: w for t, w in analysed[word].items() if t[2:] not in text.STOPWORDS}
            if not own or (index.analyzer.available and not any(t.startswith("L:") for t in own)):
                continue  # the analyser found no content word in it: an ending, 있는, 거야 …
            wkey = text.key(word)
            expansions: list[dict[str, float]] = []
            terms = {wkey}
            scales: dict[int, float] = {}
            for form_key, term_index, weight in hits:
                if form_key in wkey or wkey in form_key or any(t[2:] == form_key for t in own):
                    scales[term_index] = max(scales.get(term_index, 0.0), weight)
            for term_index, scale in scales.items():
                expansions += [{t: w * scale for t, w in e.items()} for e in index.expansion_tokens[term_index]]
                terms.add(text.key(index.terms[term_index][0].term))
            lemmas = [t[2:] for t in own if t.startswith("L:")]
            if not expansions and lemmas and all(len(lm) == 1 and text.is_syllable(lm) for lm in lemmas):
                continue  # one syllable the lexicon does not know (시, 판): too ambiguous to match
            known = [index.idf(t) for t in own if index.df.get(t)]
            known += [index.idf(t) for e in expansions for t in e if index.df.get(t)]
            if known:
                idf = max(known)
            else:
                noun = any(t.startswith("L:") and not t.endswith("다") for t in own)
                idf = index.unknown_noun_idf if noun else index.unknown_idf
            groups.append(_Group(own, expansions, idf, frozenset(terms)))
        return groups

    @staticmethod
    def _lexicon_hits(index: _PackIndex, query: str, qkey: str, lemma_forms: set[str], query_words: set[str]):
        """(form key, term index, weight) for every lexicon form the question uses."""
        out = []
        keys = text.word_keys(query)
        for lemmas, key, term_index, weight, kind in index.forms:
            if kind == "verb":
                hit = all(lm in lemma_forms for lm in lemmas)
            elif kind == "hangul":
                # a whole word, or what the analyser reads a word as (패스했으면 -> 패스, 사람들 -> 사람)
                hit = key in qkey and (text.contains_word(keys, key) or key in lemma_forms)
            elif kind == "cjk":
                hit = key in qkey
            else:
                hit = key in lemma_forms or key in query_words
            if hit:
                out.append((key, term_index, weight))
        return out

    def _words(self, index: _PackIndex, query: str, qkey: str, offer, skip=()) -> None:
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
                score = (25 + 50 * share) * index.specificity(name.key) * name.weight
                contained[name.section] = max(contained.get(name.section, 0), score)

        groups = self.groups(index, query)
        weighted: dict[str, float] = {}
        for g in groups:
            for t, w in g.own.items():
                weighted[t] = max(weighted.get(t, 0.0), w)
            for e in g.expansions:
                for t, w in e.items():
                    weighted[t] = max(weighted.get(t, 0.0), w)
        doc_scores = index.bm25(weighted)
        section_text: dict[str, tuple[float, str | None]] = {}
        for sid, sdocs in index.section_docs.items():
            scored = sorted(((doc_scores.get(id(d), 0.0), d.rule) for d in sdocs), key=lambda x: -x[0])
            if not scored or scored[0][0] <= 0:
                continue
            total = scored[0][0] + SIBLING_SHARE * sum(s for s, _ in scored[1:])
            section_text[sid] = (total, scored[0][1])
        top = max((v[0] for v in section_text.values()), default=0.0) or 1.0
        for sid in (set(contained) | set(section_text)) - set(skip):
            coverage = index.coverage(sid, groups)
            text_score, rule = section_text.get(sid, (0.0, None))
            text_part = 40 * coverage + 10 * text_score / top if coverage else 0.0
            if sid in contained:
                offer(sid, 20 + contained[sid] + text_part + index.prior[sid], rule, "contains")
            elif coverage >= MIN_COVERAGE and (coverage >= FULL_COVERAGE or index.shares_a_telling_word(sid, groups)):
                offer(sid, 20 + text_part + index.prior[sid], rule, "text")

    def _finish(self, index: _PackIndex, best: dict, limit: int) -> list[Result]:
        results = [
            Result(index.pack.id, sid, rule, score, self.compendium.known_section(index.pack.id, sid).full_title, how)
            for sid, (score, rule, how) in best.items()
            if score >= MIN_SCORE
        ]
        results.sort(key=lambda r: (-r.score, self.compendium.known_section(r.pack, r.section).number))
        return results[:limit]

    # -------------------------------------------------------------------------------------

    def missing(self, query: str, game: str = "ti4") -> list[MissingTopic]:
        """Rules topics named in the question that this document has no section for."""
        index = self.index(game)
        if index is None or not isinstance(query, str):
            return []
        return self._missing(index, text.key(self._repaired(index, text.normalize(query[: MAX_QUERY_CHARS * 2]))))

    def _missing(self, index: _PackIndex, qkey: str) -> list[MissingTopic]:
        out = [t for t in index.topics if any(len(f) >= 2 and f in qkey for f in t[1])]
        return [m for m, _ in sorted(out, key=lambda t: -len(text.key(t[0].name)))]

    # -------------------------------------------------------------------------------------

    def suggest(self, prefix: str, game: str = "ti4", limit: int = 25) -> list[Result]:
        """Autocomplete: names that start with what was typed (even mid-syllable), then search."""
        index = self.index(game)
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
                    title = self.compendium.known_section(game, name.section).full_title
                    out[k] = Result(game, name.section, name.rule, score, title, "prefix")
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

"""Rules search: one engine for every front end (/rule, /search, autocomplete, chat, CLI).

A query is read the way a player writes it, in any of the three languages:
  1. a section or rule number (79, 79.1, §79.1, 79-1) opens it directly;
  2. names: an exact title, name in another language, alias, sub-heading or lexicon spelling
     (ignoring spaces, case and Unicode form), initial consonants (ㅍㄱ), fuzzy names on jamo
     with length-aware edit limits, and names contained in a longer question;
  3. words: each misspelt word stem is repaired to the nearest vocabulary word on jamo (폭걱 ->
     폭격); kanji words are read in Korean too (crossling.py); the question is analysed into
     lemmas and bigrams; the lexicon adds the rules' own terms for the players' words and for
     names in other languages (인프, 歩兵 -> 보병); every rule is scored with BM25, and each
     section gets its share of the question's information (coverage);
  4. meaning: a multilingual embedding model ranks every passage by similarity to the whole
     question (with the rules' terms for its slang and names).
Both rankers propose: every section is ranked by the fused evidence (fusion.py), and one
calibrated decision says whether the pack answers at all; otherwise nothing is returned, never
the least bad section. A topic the rules name but the document lacks (우주 전투 in TI4's 62-89)
is reported by `missing` when the question is just its name; an answer from a section that
mentions it says the topic has no entry of its own.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from collections import Counter
from dataclasses import dataclass, field, replace

import numpy as np
from rapidfuzz.distance import Levenshtein

from tabletop.core import text
from tabletop.core.settings import DEFAULT_GAME
from tabletop.rules import crossling, dense, fusion, morph, tokenizing
from tabletop.rules.cardwords import CardQuestionWords, CardWords
from tabletop.rules.lexical import (
    CENTRAL_TOPIC,
    SIBLING_SHARE,
    Doc,
    MissingTopic,
    PackIndex,
    allowed_edits,
)

MAX_QUERY_CHARS = 200  # longer input is refused by the front ends with a message

# the separators of a rule's number: 79.1, 79-1, 79·1, 79:1, and a Japanese IME's 79。1 (its 、 is a
# comma: 79、80 lists two)
_NUMBER_RE = re.compile(r"^(?:§|제)?\s*(\d{1,4})(?:\s*[.\-·:。]\s*(\d{1,3}))?\s*[.。]?\s*(?:조|항)?$")
_INLINE_RULE_RE = re.compile(r"(?<![\d.])(\d{1,4})\.(\d{1,3})(?!\.?\d)")
# What can only be meant as a rule number, valid or not (79.1.1, .1, -1, 1e9, 30 digits): it opens
# its rule or nothing, never a rule the words happen to find.
_NUMBER_LIKE_RE = re.compile(r"^(?:§|제)?[\s\d.\-·:。、e+]*\d[\s\d.\-·:。、e+]*(?:조|항)?$")


@dataclass(frozen=True)
class Result:
    pack: str
    section: str  # section id
    rule: str | None  # the rule that matched ("79.1"), None when the whole section did
    score: float
    title: str  # the section's full title, for lists
    how: str  # which signal decided: number, exact, initials, fuzzy, prefix, contains, text, dense
    absent: MissingTopic | None = None  # the topic asked about, which has no entry of its own
    confidence: float = 1.0  # the answer decision's probability that this section answers
    evidence: dict[str, float] | None = field(default=None, compare=False)  # its features, unless named

    @property
    def confident(self) -> bool:
        return self.confidence >= fusion.CONFIDENT

    def as_dict(self) -> dict:
        out: dict[str, object] = {
            "id": self.section,
            "title": self.title,
            "rule": self.rule,
            "score": round(self.score, 2),
            "confidence": round(self.confidence, 3),
        }
        if self.absent:  # answered from a section that mentions a topic the document lacks
            out["absent"] = self.absent.as_dict()
        return out


def _without(query: str, keys: set[str]) -> str:
    """The question with every writing of the given names taken out ("space combat", 우주전투):
    what it asks beyond the topic's name."""
    for k in sorted(keys, key=len, reverse=True):
        if len(k) >= 2:
            query = re.sub(r"\s*".join(map(re.escape, k)), " ", query)
    return query


@dataclass(frozen=True)
class Found:
    """A search's whole outcome, from one call: the ranked results or, when there are none, why:
    a rule number the pack does not have (the pack's first and last section numbers), or the
    topics the question names that this document lacks. Neither means nothing answers."""

    results: list[Result]
    absent_number: tuple[int, int] | None = None
    missing: list[MissingTopic] = field(default_factory=list)
    number: str = ""  # the number asked for that the pack lacks, as typed


@dataclass(frozen=True)
class Question:
    """A question as the search reads it (SearchEngine._parse): its normal form and key, the
    sections it names with their points ({section: [score, rule, how]}), and whether those names
    alone decide. `read` is the repaired question with its kanji words read in Korean too."""

    raw: str
    norm: str
    qkey: str
    named: dict[str, list] = field(default_factory=dict)
    settled: bool = False
    number_like: bool = False
    rkey: str = ""
    read: str = ""  # (not read when the names settle it)
    lacking: str = ""  # the numbers asked for that the pack lacks

    def offer(self, section: str, score: float, rule: str | None, how: str) -> None:
        current = self.named.get(section)
        if current is None or score > current[0]:
            self.named[section] = [score, rule, how]


class SearchEngine:
    def __init__(self, compendium, embedder: dense.Embedder | None = None):
        self.compendium = compendium
        self.conn: sqlite3.Connection = compendium.conn
        self.analyzer = morph.Analyzer(compendium.user_dictionary)
        self.embedder = embedder or dense.embedder()
        self.answer_threshold = fusion.ANSWER_THRESHOLD  # eval --fit lowers it to see every top result
        self.ranks_words = True  # False: the meaning alone ranks (eval's check that fusion loses nothing)
        self._indexes: dict[str, PackIndex] = {}
        self._vectors: dict[str, np.ndarray] = {}
        self._cards: dict[str, fusion.CardVectors | None] = {}
        self._card_words: dict[str, CardWords] = {}
        # a question asked again (and eval --fit reads each question several times)
        self._embed = functools.lru_cache(maxsize=2048)(self.embedder.query)

    def index(self, game: str) -> PackIndex | None:
        """A pack's index, built when the pack is first searched: a session that only asks about
        TI4 never holds the other packs' indexes (nor the analyser's pages they touch)."""
        if isinstance(game, str) and game not in self._indexes:  # a front end may pass anything
            pack = self.compendium.packs.get(game)
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
            docs, vectors = self._load_docs(game)
            index = PackIndex(pack, docs, counts, outside, self.analyzer)
            self._vectors[game] = vectors  # before the index: a search that finds one finds both
            self._cards[game], self._card_words[game] = self._load_cards(game)
            self._indexes[game] = index
        return self._indexes.get(game) if isinstance(game, str) else None

    def refresh(self, game: str) -> None:
        """Read a pack's vectors again: backfill.py has written the ones its build left for later."""
        if game in self._indexes:
            blobs = [b for (b,) in self.conn.execute("select vector from docs where pack = ? order by rowid", (game,))]
            complete = all(b is not None for b in blobs)
            self._cards[game], self._card_words[game] = self._load_cards(game)
            self._vectors[game] = dense.from_blobs(blobs if complete else [])

    def _load_docs(self, game: str) -> tuple[list[Doc], np.ndarray]:
        """The pack's documents and, when the database holds them all, their vectors (rows)."""
        docs: list[Doc] = []
        blobs: list[bytes | None] = []
        columns = {row[1] for row in self.conn.execute("pragma table_info(docs)")}
        vector = "vector" if "vector" in columns else "null"
        for section, rule, lemmas, bigrams, unigrams, blob in self.conn.execute(
            f"select section, rule, lemmas, bigrams, unigrams, {vector} from docs where pack = ? order by rowid", (game,)
        ):
            fields = {"L": Counter(lemmas.split()), "B": Counter(bigrams.split()), "U": Counter(unigrams.split())}
            lengths = {f: sum(c.values()) for f, c in fields.items()}
            docs.append(Doc(len(docs), section, rule, fields, lengths))
            blobs.append(blob)
        complete = all(b is not None for b in blobs)
        return docs, dense.from_blobs([b for b in blobs if b is not None] if complete else [])

    def _load_cards(self, game: str) -> tuple[fusion.CardVectors | None, CardWords]:
        """The pack's search cards as the model read them (None: no cards, or not embedded),
        and their questions' words for the lexical ranker."""
        if not self.conn.execute("select 1 from sqlite_master where type = 'table' and name = 'cards'").fetchone():
            return None, CardWords([])
        rows = self.conn.execute(
            "select section, rule, kind, vector, lemmas, bigrams, unigrams from cards where pack = ? order by rowid", (game,)
        ).fetchall()
        questions = [r for r in rows if r[2] == "question"]
        summaries = [r for r in rows if r[2] == "summary"]
        words = CardWords(
            [
                CardQuestionWords(
                    r[0], r[1], {"L": Counter(r[4].split()), "B": Counter(r[5].split()), "U": Counter(r[6].split())}
                )
                for r in questions
                if r[4] is not None
            ]
        )
        if not rows or any(r[3] is None for r in rows):
            return None, words
        vectors = fusion.CardVectors(
            dense.from_blobs([r[3] for r in questions]),
            [r[0] for r in questions],
            [r[1] for r in questions],
            dense.from_blobs([r[3] for r in summaries]),
            [r[0] for r in summaries],
        )
        return vectors, words

    @property
    def dense_available(self) -> bool:
        """Whether questions are ranked by meaning too (False: lexical only, and why is logged)."""
        return self.embedder.available

    @staticmethod
    def embedding_text(index: PackIndex, query: str, read: str) -> str:
        """What the model reads of a question: the whole question, then the rules' terms for
        its slang and its other-language names ('커토 받으면 … (지휘 토큰)'), and, against a
        Korean pack, its kanji words read in Korean."""
        terms = index.official_terms(query, read)
        if index.pack.language == "ko":
            terms += [w for w in crossling.hangul_reading(query).split() if w not in terms]
        return f"{query} ({', '.join(terms)})" if terms else query

    def model_text(self, query: str, game: str = DEFAULT_GAME) -> str | None:
        """What the model reads of a question asked in a pack (None when its names alone decide
        it, or the pack is unknown): the text the rules website gives the same model."""
        index = self.index(game)
        question = self._parse(index, query[:MAX_QUERY_CHARS], 10) if index and isinstance(query, str) else None
        if index is None or question is None or question.settled:
            return None
        return self.embedding_text(index, question.norm, question.read)

    def _dense_view(self, index: PackIndex, query: str, read: str) -> fusion.DenseView | None:
        """The question's meaning against every passage of the pack."""
        vectors = self._vectors.get(index.pack.id)
        if vectors is None or not len(vectors):
            return None
        qvec = self._embed(self.embedding_text(index, query, read))
        if qvec is None:
            return None
        return fusion.dense_view(vectors, [d.section for d in index.docs], qvec, self._cards.get(index.pack.id))

    # -------------------------------------------------------------------------------------

    # --- the stages: parse -> candidates -> fuse -> decide -> present ---------------------------

    def find(self, query: str, game: str = DEFAULT_GAME, limit: int = 10, dense: bool = True) -> Found:
        """A question's whole outcome in one pass (see Found): the ranked results, or why there
        are none. dense=False ranks by the words only (autocomplete answers within milliseconds)."""
        index = self.index(game)
        if index is None or not isinstance(query, str) or limit <= 0:
            return Found([])
        question = self._parse(index, query[:MAX_QUERY_CHARS], limit)
        if question is None:
            return Found([])
        if question.settled:  # a number, a title asked for alone, initials: the names decide
            return Found(self._present(index, question.named, limit)) if question.named else self._nothing(index, question)
        words = (
            self._words(index, question.read, question.rkey)
            if self.ranks_words
            else fusion.WordEvidence({}, {}, {}, {}, asks=True)
        )
        if not words.asks and not question.named:
            return self._nothing(index, question)  # no content word and no name (こんにちは, a lone letter)
        absent = self._absent_topic(index, question.read, question.named)
        if absent is False:
            return self._nothing(index, question)  # a topic the document lacks, and nothing more asked
        view = self._dense_view(index, question.norm, question.read) if dense else None
        fused = fusion.fuse(question.named, view, words)
        evidence = fusion.evidence(fused, view, words, crossling.foreign_share(question.raw, index.pack.language))
        confidence = fusion.confidences(evidence, view, fused, bare=not index.pack.lexicon)
        if not fused or confidence[max(fused, key=lambda sid: fused[sid][0])] < self.answer_threshold:
            return self._nothing(index, question)
        self._highlight(index, fused, view, words)
        topic = absent if isinstance(absent, MissingTopic) else None
        return Found(self._present(index, fused, limit, topic, confidence, evidence))

    def search(self, query: str, game: str = DEFAULT_GAME, limit: int = 10, dense: bool = True) -> list[Result]:
        """Ranked results for a query; an empty list when nothing in the pack answers it."""
        return self.find(query, game, limit, dense).results

    def _parse(self, index: PackIndex, query: str, limit: int) -> Question | None:
        """The question normalised, and every section it names: a rule number (which alone opens
        its rule or nothing), a title as typed or once a typo is repaired, initials, a rule number
        written inside it. `settled` when the names alone decide."""
        norm, qkey = text.normalize(query), text.key(query)
        if not qkey:
            return None
        question = Question(query, norm, qkey)
        offer = question.offer
        if _NUMBER_LIKE_RE.match(norm):  # a number opens its section or rule, or nothing at all
            return self._numbers(index, question)
        for name in index.exact.get(qkey, ()):
            offer(name.section, fusion.NAME_POINTS["exact"] * name.weight + index.prior[name.section], name.rule, "exact")
        if question.named and limit == 1:  # the whole query is a name: nothing can outrank it (/rule's path)
            return replace(question, settled=True)
        if text.is_initials_query(query):
            if len(qkey) >= 2:  # one consonant (ㅍ) is a letter, not a title's initials
                self._initials(index, qkey, offer)
            return replace(question, settled=True)
        repaired = self._repaired(index, norm)
        rkey = text.key(repaired)
        if repaired != norm:
            for name in index.exact.get(rkey, ()):
                offer(name.section, fusion.NAME_POINTS["repaired"] * name.weight + index.prior[name.section], name.rule, "exact")
        if not question.named:
            self._fuzzy(index, qkey, offer)
        lacking = []
        for m in _INLINE_RULE_RE.finditer(norm):
            s = self.compendium.section_by_number(index.pack.id, int(m.group(1)))
            rid = f"{int(m.group(1))}.{int(m.group(2))}"
            if s and s.rule(rid):
                offer(s.id, fusion.NAME_POINTS["inline number"], rid, "number")
            elif s:  # a section's rule it lacks ('62.0 뭐야?'): its range, if nothing else answers
                lacking.append(m.group(0))
        # a question's kanji words, read in Korean too
        return replace(question, rkey=rkey, read=crossling.with_reading(repaired), lacking=" ".join(lacking))

    def _numbers(self, index: PackIndex, question: Question) -> Question:
        """A number, or several written with spaces between (79.1 79.2): each opens its section or
        rule, in the order typed; one the pack lacks makes the question a number it lacks."""
        parts = re.split(r"[\s、]+", question.norm.strip("、 "))
        if len(parts) < 2 or not all(_NUMBER_RE.match(p) for p in parts):
            parts = [question.norm]
        lacking = []
        for order, part in enumerate(parts):
            number = self._number(index, part)
            if number:
                question.offer(number[0], number[1] - order * 0.01, number[2], number[3])
            else:
                lacking.append(part)
        if lacking:
            question.named.clear()
        return replace(question, settled=True, number_like=True, lacking=" ".join(lacking))

    def _nothing(self, index: PackIndex, question: Question) -> Found:
        """No answer, and why: a rule number the pack does not have (its first and last section
        numbers), or the topics the question names that the document lacks."""
        numbers = [s.number for s in index.pack.sections]
        span = (min(numbers), max(numbers)) if numbers else None
        if question.number_like:
            return Found([], absent_number=span, number=question.lacking)
        read = question.read or crossling.with_reading(self._repaired(index, question.norm))
        missing = self._missing(index, read)  # a topic the document lacks says more than a number
        if question.lacking and not missing:
            return Found([], absent_number=span, number=question.lacking)
        return Found([], missing=missing)

    def _highlight(self, index: PackIndex, fused: dict, view: fusion.DenseView | None, words: fusion.WordEvidence) -> None:
        """Each section found by its content opens at the rule that answers best."""
        for sid, entry in fused.items():
            if entry[2] not in fusion.NAME_SIGNALS:
                docs = [(d.position, d.rule) for d in index.section_docs.get(sid, ())]
                asked = (view.question_rule.get(sid), view.question_z.get(sid, 0.0)) if view is not None else None
                entry[1] = fusion.best_rule(docs, view, words.doc_scores, asked) if docs else entry[1]

    def _absent_topic(self, index: PackIndex, read: str, best: dict) -> MissingTopic | bool | None:
        """A topic the document has no section for (우주 전투 in TI4's 62-89) that the question is
        about: False when the question is just its name (the honest answer is `missing`), the
        topic when it asks more (an answer from a section that mentions it says the topic has no
        entry of its own), None otherwise."""
        central = [m for m in self._missing(index, read) if index.rarity(text.key(m.name)) >= CENTRAL_TOPIC]
        if not central:
            return None
        topic_keys = {k for m in central for t, keys in index.topics if t is m for k in keys}
        rest = [g for g in index.groups(_without(read, topic_keys)) if not g.terms & topic_keys and g.asks]
        if not rest or not central[0].mentions:
            return False if not any(e[2] in fusion.NAME_SIGNALS for e in best.values()) else None
        return central[0]

    def _repaired(self, index: PackIndex, norm: str) -> str:
        """The question with each misspelt word stem replaced by the vocabulary word it meant."""
        out = []
        for word in norm.split():
            stem = tokenizing.strip_particle(word)
            fixed = index.repair(stem) if stem else None
            out.append(fixed + word[len(stem) :] if fixed and word.startswith(stem) else word)
        return " ".join(out)

    def _number(self, index: PackIndex, norm: str):
        m = _NUMBER_RE.match(norm)
        if not m:
            return None
        section = self.compendium.section_by_number(index.pack.id, int(m.group(1)))
        if not section:
            return None
        rid = f"{int(m.group(1))}.{int(m.group(2))}" if m.group(2) else None
        if rid is None:
            return section.id, 100.0, None, "number"
        return (section.id, 100.0, rid, "number") if section.rule(rid) else None

    def _fuzzy(self, index: PackIndex, qkey: str, offer) -> None:
        qjamo = text.decompose(qkey)
        budget = allowed_edits(len(qjamo)) if any(map(text.is_syllable, qkey)) else allowed_edits(len(qkey) - 1)
        # a word the rules themselves use is not a typo of a title: it must not jump there
        real_word = len(qkey) >= 2 and qkey in index.corpus_keys
        for name in index.names:
            if len(name.key) >= 2 and name.key.startswith(qkey) and len(qkey) >= 2:
                offer(
                    name.section,
                    (fusion.NAME_POINTS["prefix"] + 25 * len(qkey) / len(name.key)) * name.weight,
                    name.rule,
                    "prefix",
                )
            if budget == 0 or real_word:
                continue
            d = Levenshtein.distance(qjamo, name.jamo, score_cutoff=budget)
            if not name.hangul and name.jamo.endswith("s"):  # English plurals: modifier(s)
                d = min(d, Levenshtein.distance(qjamo.rstrip("s"), name.jamo[:-1], score_cutoff=budget))
            if d <= budget:
                offer(
                    name.section,
                    (fusion.NAME_POINTS["fuzzy"] - 8 * d) * name.weight + index.prior[name.section],
                    name.rule,
                    "fuzzy",
                )

    def _initials(self, index: PackIndex, qkey: str, offer) -> None:
        """Names whose initial consonants the query is (ㅍㄱ), or begins (a title still being typed)."""
        for name in index.names:
            if not name.hangul:
                continue
            if name.initials == qkey:
                offer(
                    name.section, fusion.NAME_POINTS["initials"] * name.weight + index.prior[name.section], name.rule, "initials"
                )
            elif name.initials.startswith(qkey):
                score = fusion.NAME_POINTS["initials prefix"] + 20 * len(qkey) / len(name.initials)
                offer(name.section, score, name.rule, "initials")

    def _words(self, index: PackIndex, query: str, qkey: str) -> fusion.WordEvidence:
        """What the question's words say of every section: the names it contains, its share of
        the question's information, its BM25 (and every document's, for the rule to highlight)."""
        words = set(text.normalize(query).split())
        stems = {tokenizing.strip_particle(w) for w in words}
        contained: dict[str, float] = {}
        for name in index.names:
            if name.key == qkey or name.rule is not None:
                continue
            if name.hangul or name.cjk:
                hit = name.key in qkey and (len(name.key) >= 2 or name.key in stems)
            else:
                hit = len(name.key) >= 3 and all(p in words or p in stems for p in name.words)  # PDS가
            if hit:
                share = len(name.key) / len(qkey)
                score = fusion.NAME_POINTS["contained"] * (1 + 2 * share) * index.specificity(name.key) * name.weight
                contained[name.section] = max(contained.get(name.section, 0), score)

        groups = index.groups(query)
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
            scored = sorted(((doc_scores.get(d.position, 0.0), d.rule) for d in sdocs), key=lambda x: -x[0])
            if not scored or scored[0][0] <= 0:
                continue
            total = scored[0][0] + SIBLING_SHARE * sum(s for s, _ in scored[1:])
            section_text[sid] = (total, scored[0][1])
        top = max((v[0] for v in section_text.values()), default=0.0) or 1.0
        asked = self._card_words[index.pack.id].sections(weighted) if index.pack.id in self._card_words else {}
        return fusion.WordEvidence(
            doc_scores,
            {sid: index.coverage(sid, groups) for sid in set(contained) | set(section_text)},
            {sid: score / top for sid, (score, _) in section_text.items()},
            {sid: score / 100 for sid, score in contained.items()},
            index.known(groups),
            asks=index.asks(query),
            card_bm25={sid: score for sid, (score, _) in asked.items()},
        )

    def _present(
        self,
        index: PackIndex,
        best: dict,
        limit: int,
        absent: MissingTopic | None = None,
        confidence: dict[str, float] | None = None,
        evidence: dict[str, dict[str, float] | None] | None = None,
    ) -> list[Result]:
        """Results by score, each with the answer decision's confidence in it."""
        results = [
            Result(
                index.pack.id,
                sid,
                rule,
                score,
                self.compendium.known_section(index.pack.id, sid).full_title,
                how,
                absent if absent is not None and sid in absent.mentions else None,
                confidence.get(sid, 0.0) if confidence is not None else 1.0,
                (evidence or {}).get(sid),
            )
            for sid, (score, rule, how) in best.items()
        ]
        results.sort(key=lambda r: (-r.score, self.compendium.known_section(r.pack, r.section).number))
        return results[:limit]

    # -------------------------------------------------------------------------------------

    def _missing(self, index: PackIndex, query: str) -> list[MissingTopic]:
        """The topics named in the question as whole words (의장이 동점이면 does not name 이동),
        or anywhere in it for a Japanese name, which is written without spaces."""
        qkey, keys = text.key(query), tokenizing.word_keys(query)

        def named(form: str) -> bool:
            if len(form) < 2:
                return False
            if any(0x3040 <= ord(c) <= 0x9FFF for c in form):
                return form in qkey
            return tokenizing.contains_word(keys, form)

        out = [t for t in index.topics if any(named(f) for f in t[1])]
        return [m for m, _ in sorted(out, key=lambda t: -len(text.key(t[0].name)))]

    # -------------------------------------------------------------------------------------

    def suggest(self, prefix: str, game: str = DEFAULT_GAME, limit: int = 25) -> list[Result]:
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
            for r in self.search(prefix, game, limit, dense=False):
                out.setdefault((r.section, r.rule), r)
        ranked = sorted(out.values(), key=lambda r: -r.score)
        seen, final = set(), []
        for r in ranked:
            if (r.section, r.rule) not in seen:
                seen.add((r.section, r.rule))
                final.append(r)
        return final[:limit]

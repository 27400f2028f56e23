"""The lexical evidence of one pack: names (titles, aliases, lexicon spellings in every
language), typo repair on jamo, the question as groups of evidence (lemmas, bigrams, lexicon
expansions) and BM25 over every rule, with each section's coverage of the question.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from tabletop.core import text
from tabletop.rules import morph, tokenizing
from tabletop.rules.packs import Pack, Term

# The principled constants of word matching, each with its reason.
BM25_K1, BM25_B = 1.2, 0.75  # the standard Okapi BM25 saturation and length normalisation
EXPANSION_WEIGHT = 0.6  # an everyday word's expansion is our reading of the player's word, not their word
# A spelling (인프, 캐리어, tg) is the same name in another script or shortened: its expansion
# counts in full.
BIGRAM_WEIGHT = 0.5  # a word gives one lemma but several overlapping bigrams: half weight each
SIBLING_SHARE = 0.25  # a section's other matching rules add a quarter: several rules on the topic
CENTRAL_TOPIC = 0.5  # a missing topic few sections mention is what a question about it is about

_ENUMERATOR_RE = re.compile(r"^\s*(?:\d+[.)]|\[\d+\]|[-•])\s*")


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
class Name:
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
class Doc:
    """A section's intro or one rule, as the rankers see it."""

    position: int  # its row in the pack's documents (and in the pack's vector matrix)
    section: str
    rule: str | None
    fields: dict[str, Counter]  # "L" lemmas, "B" bigrams and words, "U" unigrams
    lengths: dict[str, int] = field(default_factory=dict)


@dataclass
class Group:
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

    @property
    def asks(self) -> bool:
        """Whether the word asks anything: a lone letter or mark (é, ー) does not; a lone kanji
        or Hangul syllable does (嵐 "storm", 배 "ship": a word in those scripts)."""
        return any(len(token) > 3 or _whole_word(token[2:]) for token in self.own)  # "B:é": three characters

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


class PackIndex:
    def __init__(
        self, pack: Pack, docs: list[Doc], related_counts: dict[str, int], related_names: set[str], analyzer: morph.Analyzer
    ):
        self.pack = pack
        self.analyzer = analyzer
        # one question is read three times (two groupings and the dense model's terms): read once
        self._read = functools.lru_cache(maxsize=64)(self._analyse)
        self.names: list[Name] = []
        self.exact: dict[str, list[Name]] = {}
        self.prior: dict[str, float] = {}
        self.docs = docs
        self.section_docs: dict[str, list[Doc]] = {}
        for d in docs:
            self.section_docs.setdefault(d.section, []).append(d)
        self.section_tokens: dict[str, set[str]] = {}
        for sid, sdocs in self.section_docs.items():
            self.section_tokens[sid] = {f"{f}:{t}" for d in sdocs for f, c in d.fields.items() for t in c}
        n = len(pack.sections)
        self.n = n
        self.df: Counter = Counter(t for toks in self.section_tokens.values() for t in toks)
        self.vocabulary_tokens = set(self.df)
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
        self.postings: dict[str, list[tuple[Doc, int]]] = {}
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
        name = Name(
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

    # --- the question ---------------------------------------------------------------------

    def _analyse(self, query: str):
        """The question's content words, each analysed, and the lexicon forms it uses (read-only:
        the result is shared through `_read`'s cache)."""
        norm = text.normalize(query)
        words = [
            w
            for w in _words_of(norm)
            if tokenizing.strip_particle(w) not in tokenizing.STOPWORDS and w not in tokenizing.STOPWORDS
        ]
        # the nouns the analyser knows in the whole sentence (not its guesses: UNKNOWN, NNP-less typos)
        in_context = [form for form, tag in self.analyzer.morphemes(norm) if tag in ("NNG", "NNP")]
        analysed = {word: _read_in_context(query_tokens(word, self.analyzer), word, in_context) for word in words}
        lemma_forms = {t[2:] for tokens in analysed.values() for t in tokens if t.startswith("L:")}
        lemma_forms |= set(self.analyzer.lemmas(query))
        query_words = {text.key(w) for w in norm.split()}
        # English names of several words (space cannon, ground forces) as the question's word runs
        latin = [tokenizing.singular(text.key(w)) for w in norm.split()]
        query_words |= {"".join(latin[i:j]) for i in range(len(latin)) for j in range(i + 2, min(i + 4, len(latin)) + 1)}
        return words, analysed, self._lexicon_hits(query, text.key(query), lemma_forms, query_words)

    def official_terms(self, query: str, repaired: str | None = None) -> list[str]:
        """The rules' own terms for the lexicon words in a question ('커토 받으면 …' → 지휘 토큰),
        to be read by the embedding model after the question: it learnt the words the rules are
        written in, not the table's slang, which the lexicon records. The terms are read from the
        repaired question; the model reads the player's own words, since it copes with typos
        better than a repair that guessed wrong."""
        qkey = text.key(query)
        terms = [self.terms[i][0].term for _, i, _ in self._read(repaired or query)[2]]
        # verbs (뽑다, 놓다) are everyday words the question already says its own way
        return [t for t in dict.fromkeys(terms) if text.key(t) not in qkey and not t.endswith("다")]

    def asks(self, query: str) -> bool:
        """Whether the question has a word that asks anything, as groups() reads its words, a
        lone kanji or Hangul syllable included (돛, 嵐: groups() leaves one syllable the lexicon
        does not know to the meaning): endings, particles and lone marks ask nothing."""
        words, analysed, _ = self._read(query)
        for word in words:
            own = [t for t in analysed[word] if t[2:] not in tokenizing.STOPWORDS]
            if any(map(text.is_syllable, word)) and self.analyzer.available:
                own = [t for t in own if t.startswith("L:")]  # the analyser's content words only
            if any(len(t) > 3 or _whole_word(t[2:]) for t in own):
                return True
        return False

    def groups(self, query: str) -> list[Group]:
        """The question as groups of evidence, one per content word, with lexicon expansions."""
        words, analysed, hits = self._read(query)
        groups: list[Group] = []
        for word in words:
            own = {t: w for t, w in analysed[word].items() if t[2:] not in tokenizing.STOPWORDS}
            hangul = any(map(text.is_syllable, word))
            if not own or (hangul and self.analyzer.available and not any(t.startswith("L:") for t in own)):
                continue  # the analyser found no content word in it: an ending, 있는, 거야 …
            wkey = text.key(word)
            expansions: list[dict[str, float]] = []
            terms = {wkey}
            scales: dict[int, float] = {}
            for form_key, term_index, weight in hits:
                if form_key in wkey or wkey in form_key or any(t[2:] == form_key for t in own):
                    scales[term_index] = max(scales.get(term_index, 0.0), weight)
            for term_index, scale in scales.items():
                expansions += [{t: w * scale for t, w in e.items()} for e in self.expansion_tokens[term_index]]
                terms.add(text.key(self.terms[term_index][0].term))
            lemmas = [t[2:] for t in own if t.startswith("L:")]
            if not expansions and lemmas and all(len(lm) == 1 and text.is_syllable(lm) for lm in lemmas):
                continue  # one syllable the lexicon does not know (시, 판): too ambiguous to match
            known = [self.idf(t) for t in own if self.df.get(t)]
            known += [self.idf(t) for e in expansions for t in e if self.df.get(t)]
            if known:
                idf = max(known)
            else:
                noun = any(t.startswith("L:") and not t.endswith("다") for t in own)
                idf = self.unknown_noun_idf if noun else self.unknown_idf
            groups.append(Group(own, expansions, idf, frozenset(terms)))
        return groups

    def _lexicon_hits(self, query: str, qkey: str, lemma_forms: set[str], query_words: set[str]):
        """(form key, term index, weight) for every lexicon form the question uses."""
        out = []
        keys = tokenizing.word_keys(query)
        for lemmas, key, term_index, weight, kind in self.forms:
            if kind == "verb":
                hit = all(lm in lemma_forms for lm in lemmas)
            elif kind == "hangul":
                # a whole word, or what the analyser reads a word as (패스했으면 -> 패스, 사람들 -> 사람)
                hit = key in qkey and (tokenizing.contains_word(keys, key) or key in lemma_forms)
            elif kind == "cjk":
                hit = key in qkey
            else:
                hit = key in lemma_forms or key in query_words or tokenizing.singular(key) in query_words
            if hit:
                out.append((key, term_index, weight))
        return out

    # --- vocabulary for typo repair ----------------------------------------------------------

    def _vocabulary(self) -> None:
        words: set[str] = {n.key for n in self.names if n.hangul}
        words |= {key for _, key, _, _, _ in self.forms if all(map(text.is_syllable, key))}
        for s in self.pack.sections:
            for line in [s.title, s.intro] + [line for r in s.rules for line in r.lines()]:
                for w in text.normalize(line).split():
                    stem = tokenizing.strip_particle(text.key(w))
                    if len(stem) >= 2 and all(map(text.is_syllable, stem)):
                        words.add(stem)
        for token in self.df:
            if token.startswith("L:") and all(map(text.is_syllable, token[2:])) and len(token) >= 4:
                words.add(token[2:])
        self.vocabulary = words
        self.vocabulary_jamo: dict[int, list[str]] = {}
        self.jamo_to_word: dict[str, str] = {}
        for w in sorted(words):  # sorted: a repair's ties fall the same way in every process
            j = text.decompose(w)
            self.jamo_to_word.setdefault(j, w)
            self.vocabulary_jamo.setdefault(len(j), []).append(j)

    def repair(self, stem: str) -> str | None:
        """The vocabulary word a misspelt stem most likely meant, or None when the stem is a
        word (ours or the dictionary's) or nothing is near enough."""
        if len(stem) < 2 or stem in self.vocabulary or stem in tokenizing.STOPWORDS or not all(map(text.is_syllable, stem)):
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
        """BM25 of every document that shares a token with the weighted query, by position."""
        scores: dict[int, float] = {}
        for token, weight in query.items():
            idf = self.doc_idf(token)
            avg = self.avg_len.get(token[0], 1.0)
            for doc, tf in self.postings.get(token, ()):
                norm = tf * (BM25_K1 + 1) / (tf + BM25_K1 * (1 - BM25_B + BM25_B * doc.lengths.get(token[0], 0) / avg))
                scores[doc.position] = scores.get(doc.position, 0.0) + weight * idf * norm
        return scores

    def known(self, groups: list[Group]) -> float:
        """Share of the question's information (IDF-weighted words) the pack holds anywhere: a
        question the pack's words do not know at all (hello, 피자 왔다) is likely no rules
        question, whatever section its meaning lands nearest."""
        total = sum(g.idf for g in groups)
        if not total:
            return 0.0
        return sum(g.idf * g.credit(self.vocabulary_tokens) for g in groups) / total

    def coverage(self, section: str, groups: list[Group]) -> float:
        """Share of the question's information (IDF-weighted words) that this section holds: a
        word counts in full when its own tokens are there, less when only its expansion is."""
        tokens = self.section_tokens.get(section, set())
        total = sum(g.idf for g in groups)
        if not total:
            return 0.0
        return sum(g.idf * g.credit(tokens) for g in groups) / total


def _words_of(norm: str) -> list[str]:
    """A question's words: split at spaces, and Japanese, written without them, where the script
    changes (歩兵を2つの惑星に -> 歩兵 | 惑星), hiragana runs left out: between kanji and katakana
    they are the particles and endings."""
    out: list[str] = []
    for word in norm.split():
        segments = tokenizing.japanese_segments(word)
        if not segments or any(map(text.is_syllable, word)):
            out.append(word)
            continue
        out += [seg for seg in segments if not all("\u3040" <= c <= "\u309f" for c in seg)]
    return out


def allowed_edits(jamo_len: int) -> int:
    """Edit budget on jamo: none for one syllable, one for two or three, two from four on."""
    if jamo_len <= 4:
        return 0
    if jamo_len <= 9:
        return 1
    if jamo_len <= 15:
        return 2
    return 3


def _read_in_context(tokens: dict[str, float], word: str, in_context: list[str]) -> dict[str, float]:
    """A word read alone can split wrongly where the sentence reads it whole (해적이 alone is
    해 + 적 + 이; in "해적이 오면" it is 해적 + 이): when the word alone gives only one-syllable
    lemmas and the sentence reads a longer noun inside it, the sentence's reading stands."""
    alone = [t[2:] for t in tokens if t.startswith("L:")]
    longer = [lm for lm in in_context if len(lm) > 1 and lm in word]
    if not alone or not longer or any(len(lm) > 1 for lm in alone):
        return tokens
    kept = {t: w for t, w in tokens.items() if not t.startswith("L:")}
    return {**{f"L:{lm}": 1.0 for lm in longer}, **kept}


def query_tokens(phrase: str, analyzer: morph.Analyzer) -> dict[str, float]:
    """Field-prefixed tokens of a phrase with their weights: lemmas (L:) in full, bigrams and
    ASCII words (B:) at BIGRAM_WEIGHT unless the phrase gave no lemma."""
    lemmas = analyzer.lemmas(phrase)
    big, uni = tokenizing.tokens(phrase, query=True)
    out: dict[str, float] = {f"L:{lemma}": 1.0 for lemma in lemmas}
    bigram_weight = BIGRAM_WEIGHT if lemmas else 1.0
    for b in big:
        out.setdefault(f"B:{b}", 1.0 if b.isascii() else bigram_weight)
    if not big:
        for u in uni:
            out.setdefault(f"U:{u}", bigram_weight)
    return out


def _whole_word(character: str) -> bool:
    """Whether one character is a word of its own: a CJK ideograph or a Hangul syllable."""
    return len(character) == 1 and unicodedata.name(character, "").startswith(("CJK UNIFIED IDEOGRAPH", "HANGUL SYLLABLE"))

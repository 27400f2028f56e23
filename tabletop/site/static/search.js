// Search a pack in the browser, offline, the way the bot reads a question: a rule number opens
// its rule; a name of a section (a title, its English or Japanese name, an alias, a player's
// spelling) typed whole comes first, and one contained in a question lifts its section;
// particles and endings are stripped (폭격은 -> 폭격), the rules' own word forms read as their
// lemmas, the players' spellings and other-language names (인프, 歩兵) as the official terms,
// kanji words in Korean (爆撃 -> 폭격), syllable bigrams for the rest; sections ranked as the bot
// ranks them by the words alone (BM25, coverage, a name inside the question), at their best rule.
// Where the page can fetch the bot's model (served over http), meaning.js then ranks by meaning
// too, as the bot does; the words' ranking is shown first, and alone where it cannot.
(function () {
  "use strict";
  const I = window.SEARCH_INDEX;
  const N = I.lengths.length;
  const avg = I.lengths.reduce((a, b) => a + b, 0) / Math.max(N, 1);
  const isHangul = (c) => c >= "\uac00" && c <= "\ud7a3";
  const isKana = (c) => c >= "\u3040" && c <= "\u30ff";
  const isKanji = (c) => (c >= "\u4e00" && c <= "\u9fff") || c === "々";
  const isCJK = (c) => isHangul(c) || isKana(c) || isKanji(c);
  const isHiragana = (c) => c >= "\u3040" && c <= "\u309f";
  const LISTED = 20;  // results a search lists
  // As the bot's (search.py): a rule number; what can only be meant as one (79.1.1, 79조), which
  // opens its rule or nothing; a rule number inside a question; initial consonants (ㅍㄱ).
  const NUMBER = /^(?:§|제)?\s*(\d{1,4})(?:\s*[.\-·:。]\s*(\d{1,3}))?\s*[.。]?\s*(?:조|항)?$/;
  const NUMBER_LIKE = /^(?:§|제)?[\s\d.\-·:。、e+]*\d[\s\d.\-·:。、e+]*(?:조|항)?$/;
  const INLINE_RULE = /(?<![\d.])(\d{1,4})\.(\d{1,3})(?!\.?\d)/g;
  const CHOSEONG = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ";

  // As the bot's text.normalize: controls made spaces, NFKC, a lone jamo kept as typed (ㅋㅋ),
  // lower case, single spaces.
  const CONTROLS = /[\t\n\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;
  const JAMO = new Map();
  for (let cp = 0x3131; cp < 0x318f; cp++) {
    const folded = String.fromCharCode(cp).normalize("NFKC");
    if (folded.length === 1 && folded !== String.fromCharCode(cp) && !JAMO.has(folded)) JAMO.set(folded, String.fromCharCode(cp));
  }
  function normalize(s) {
    s = s.replace(CONTROLS, " ").normalize("NFKC").replace(/[\u1100-\u11ff]/g, (c) => JAMO.get(c) || c);
    return s.replace(/\s+/g, " ").trim().toLowerCase();
  }
  function key(s) {
    return normalize(s).replace(/[^\p{L}\p{N}]+/gu, "");
  }
  function stripParticle(word) {
    for (const p of I.particles) {
      if (word.endsWith(p) && word.length - p.length >= (p.length >= 2 ? 1 : 2)) return word.slice(0, -p.length);
    }
    return word;
  }
  function bigrams(run) {
    const out = [];
    for (let i = 0; i + 1 < run.length; i++) out.push("B:" + run.slice(i, i + 2));
    return out;
  }

  // Kanji words read in Korean, with the initial sound law (領土 -> 영토), as crossling.py does.
  let readings = null;
  function reading(run) {
    if (!readings) {
      readings = new Map();
      for (const line of (window.KANJI_READINGS || "").split("\n")) {
        const [syllable, kanji] = line.split("\t");
        for (const k of kanji || "") readings.set(k, syllable);
      }
    }
    const out = [];
    for (const ch of run) {
      const r = ch === "々" && out.length ? out[out.length - 1] : readings.get(ch);
      if (!r) return "";
      out.push(r);
    }
    const code = out[0].charCodeAt(0) - 0xac00;
    let [lead, vowel, tail] = [Math.floor(code / 588), Math.floor((code % 588) / 28), code % 28];
    const yVowel = [2, 6, 7, 12, 17, 20].includes(vowel);
    if (lead === 5) lead = yVowel ? 11 : 2;
    else if (lead === 2 && yVowel) lead = 11;
    out[0] = String.fromCharCode(0xac00 + lead * 588 + vowel * 28 + tail);
    return out.join("");
  }

  // A question's words: Korean and English at spaces, Japanese where the script changes
  // (hiragana runs are its particles), and the Korean readings of its kanji words.
  function words(q) {
    const out = [];
    for (const raw of normalize(q).split(" ")) {
      if (![...raw].some((c) => isKana(c) || isKanji(c)) || [...raw].some(isHangul)) {
        out.push(raw);
        continue;
      }
      for (const seg of raw.match(/[\u3040-\u309f]+|[\u30a0-\u30ff]+|[\u4e00-\u9fff々]+|[^\u3040-\u30ff\u4e00-\u9fff々]+/g) || []) {
        if (![...seg].every(isHiragana)) out.push(seg);
      }
    }
    for (const run of normalize(q).match(/[\u4e00-\u9fff々]{2,}/g) || []) {
      const r = reading(run);
      if (r) out.push(r);
    }
    return out;
  }

  // The question as weighted tokens, each word contributing its best reading; and its words as
  // groups of readings (a word's lemmas, its bigrams, the lexicon's official forms), each reading
  // a list of [token, weight] with the weight it came with, for the share of the question a
  // section holds (coverage).
  function queryTokens(q) {
    const weights = new Map();
    const groups = [];
    const stop = new Set(I.stopwords);
    const addTo = (group) => (t, w) => {
      if (!I.postings[t]) return;
      weights.set(t, Math.max(weights.get(t) || 0, w));
      group.push([t, w]);
    };
    for (const raw of words(q)) {
      if (!raw || stop.has(raw) || stop.has(stripParticle(raw))) continue;
      const group = [];
      const add = addTo(group);
      const word = key(raw);
      const stem = stripParticle(word);
      for (const form of [word, stem]) {
        for (const lemma of I.surface[form] || []) add("L:" + lemma, 1);
        for (const [t, w] of I.lexicon[form] || []) add(t, w);
      }
      add("L:" + stem, 1);
      if ([...stem].some(isCJK)) {
        for (const t of bigrams(stem)) add(t, I.bigram);
      } else if (stem) {
        add("B:" + stem, 1);
        if (stem.length > 3 && stem.endsWith("s") && !stem.endsWith("ss")) add("B:" + stem.slice(0, -1), 1);
      }
      if (group.length) groups.push(group);
    }
    const qkey = key(q);
    for (const [form, tokens] of Object.entries(I.lexicon)) {  // Japanese forms: written without spaces
      if (form.length >= 2 && [...form].some((c) => isKana(c) || isKanji(c)) && qkey.includes(form)) {
        const group = [];
        for (const [t, w] of tokens) addTo(group)(t, w);
        if (group.length) groups.push(group);
      }
    }
    return [weights, groups];
  }

  const idf = (token) => {
    const n = I.postings[token].length;
    return Math.log(1 + (N - n + 0.5) / (n + 0.5));
  };

  // The share of the question's IDF-weighted words each section holds: a word counts by its best
  // reading (lemmas, or bigrams) present there, as the bot's coverage does.
  function coverage(groups) {
    const out = new Map();
    let total = 0;
    for (const group of groups) {
      const weight = Math.max(...group.map(([t]) => idf(t)));
      total += weight;
      const held = new Map();  // section -> the best share of a reading it holds
      for (const prefix of ["L:", "B:"]) {
        const part = group.filter(([t]) => t.startsWith(prefix));
        const sum = part.reduce((s, [, w]) => s + w, 0);
        if (!sum) continue;
        const scale = Math.min(1, Math.max(...part.map(([, w]) => w)) / (prefix === "B:" ? I.bigram : 1));
        const shares = new Map();
        for (const [t, w] of part) {
          const sections = new Set(I.postings[t].map(([d]) => I.docs[d][3]));
          for (const s of sections) shares.set(s, (shares.get(s) || 0) + w / sum);
        }
        for (const [s, share] of shares) held.set(s, Math.max(held.get(s) || 0, Math.min(1, share) * scale));
      }
      for (const [s, credit] of held) out.set(s, (out.get(s) || 0) + weight * credit);
    }
    for (const [s, v] of out) out.set(s, total ? v / total : 0);
    return out;
  }

  // Names of sections inside the question: Hangul and Japanese by containment, Latin as whole
  // words (space cannon, PDS가).
  function containedNames(q) {
    const qkey = key(q);
    const runs = normalize(q).split(" ").map((w) => key(stripParticle(w)));
    const joined = new Set();
    for (let i = 0; i < runs.length; i++) {
      let s = "";
      for (let j = i; j < Math.min(i + 4, runs.length); j++) joined.add((s += runs[j]));
    }
    const found = [];
    for (const [name, [doc, weight]] of Object.entries(I.names)) {
      if (name === qkey) continue;
      const hit = [...name].some(isCJK) ? qkey.includes(name) : name.length >= 3 && joined.has(name);
      if (hit) found.push([doc, I.contained * weight * (1 + 2 * Math.min(1, name.length / Math.max(qkey.length, 1)))]);
    }
    return found;
  }

  // What the question's names settle alone, as the bot's: a number opens its rule or nothing;
  // initials the titles they spell, then those they begin; nothing in a question with no
  // letter or digit. null when the names do not settle it.
  function settled(q) {
    const norm = normalize(q);
    const k = key(q);
    if (!k) return [];
    if (NUMBER_LIKE.test(norm)) {  // a number, or several with spaces between, each opening its own
      const parts = norm.replace(/^[、 ]+|[、 ]+$/g, "").split(/[\s、]+/);  // 、 is a Japanese comma
      const docs = (parts.length > 1 && parts.every((p) => NUMBER.test(p)) ? parts : [norm]).map((p) => {
        const m = p.match(NUMBER);
        return m ? I.numbers[m[2] === undefined ? `${+m[1]}` : `${+m[1]}.${+m[2]}`] : undefined;
      });
      if (docs.includes(undefined)) return [];
      const sections = new Set();  // one line a section, at the first of its numbers typed
      return docs.filter((d) => !sections.has(I.docs[d][3]) && sections.add(I.docs[d][3]));
    }
    if (![...k].every((c) => CHOSEONG.includes(c))) return null;
    if (k.length < 2) return [];  // one consonant is a letter, not a title's initials
    const best = new Map();  // section -> [points, document]
    for (const [initials, doc, points] of I.initials) {
      const p = initials === k ? points : initials.startsWith(k) ? I.initialsPrefix + (20 * k.length) / initials.length : 0;
      const s = I.docs[doc][3];
      if (p && p > (best.get(s) || [0])[0]) best.set(s, [p, doc]);
    }
    return [...best.values()].sort((a, b) => b[0] - a[0] || a[1] - b[1]).map(([, doc]) => doc).slice(0, LISTED);
  }

  // What the words say about a question: the sections it names (a name typed whole, a rule
  // number inside it), every rule's BM25, each section's best rule, its BM25 relative to the
  // best section's, the share of the question it holds, a name of it inside the question.
  function wordEvidence(q) {
    const points = new Map();  // section -> [points, document], as the bot's name ladder
    const offer = (doc, p) => {
      const s = I.docs[doc][3];
      if (p > (points.get(s) || [-Infinity])[0]) points.set(s, [p, doc]);
    };
    for (const [doc, p] of I.exact[key(q)] || []) offer(doc, p);
    for (const m of normalize(q).matchAll(INLINE_RULE)) {
      const doc = I.numbers[`${+m[1]}.${+m[2]}`];
      if (doc !== undefined) offer(doc, I.inlineNumber);
    }
    const ladder = [...points.values()].sort((a, b) => b[0] - a[0] || a[1] - b[1]);  // ties in the pack's order
    const named = ladder.map(([, doc]) => doc);
    const ceiling = ladder.length ? ladder[ladder.length - 1][0] : null;  // nothing fused may pass a name
    const scores = new Float64Array(N);
    const [tokens, groups] = queryTokens(q);
    for (const [token, weight] of tokens) {
      const tokenIdf = idf(token);
      for (const [doc, tf] of I.postings[token]) {
        const norm = (tf * (I.k1 + 1)) / (tf + I.k1 * (1 - I.b + (I.b * I.lengths[doc]) / avg));
        scores[doc] += weight * tokenIdf * norm;
      }
    }
    // a section's BM25: its best rule plus a share of its other matching rules
    const bestDoc = new Map(), bm25 = new Map();
    for (const d of scores.keys()) {
      if (scores[d] <= 0) continue;
      const s = I.docs[d][3];
      if (!bestDoc.has(s) || scores[d] > scores[bestDoc.get(s)]) bestDoc.set(s, d);
    }
    for (const d of scores.keys()) {
      if (scores[d] <= 0) continue;
      const s = I.docs[d][3];
      bm25.set(s, (bm25.get(s) || 0) + (d === bestDoc.get(s) ? scores[d] : I.siblings * scores[d]));
    }
    const top = Math.max(0, ...bm25.values()) || 1;
    for (const [s, v] of bm25) bm25.set(s, v / top);
    const contained = new Map();
    for (const [doc, weight] of containedNames(q)) {
      const s = I.docs[doc][3];
      contained.set(s, Math.max(contained.get(s) || 0, weight));
      if (!bestDoc.has(s)) bestDoc.set(s, doc);
    }
    const namedSections = new Set(named.map((d) => I.docs[d][3]));
    // whether it asks anything: a word of two letters or more, or one the lexicon knows (배);
    // not a lone letter (x), as the bot reads it
    const asks = words(q).some((w) => !I.stopwords.includes(stripParticle(key(w))) && ([...key(w)].length > 1 || I.lexicon[key(w)]));
    return { named, namedSections, ceiling, scores, bestDoc, bm25, contained, covered: coverage(groups), known: groups.length > 0, asks };
  }

  // The words' part of a section's score, with the bot's fitted weights.
  const wordScore = (w, s) =>
    I.rank.coverage * (w.covered.get(s) || 0) + I.rank.bm25 * (w.bm25.get(s) || 0) + I.rank.contained * (w.contained.get(s) || 0);

  // Sections as the bot ranks them by the words alone, each at its best rule, below those the
  // question names.
  function search(q) {
    q = [...q].slice(0, I.maxChars).join("");  // the bot reads 200 characters, as code points
    const names = settled(q);
    if (names) return names;
    const w = wordEvidence(q);
    const ranked = [...w.bestDoc.keys()].filter((s) => !w.namedSections.has(s)).sort((a, b) => wordScore(w, b) - wordScore(w, a));
    return [...w.named, ...ranked.map((s) => w.bestDoc.get(s))].slice(0, LISTED);
  }
  window.searchRules = search;  // for the page's tests: the ranking by the words alone

  // With the model (meaning.js): the words' evidence and the question's meaning fused as the bot
  // fuses them. Rejects where the model cannot be read (the words' ranking then stands).
  I.sectionDocs = new Map();
  I.docs.forEach((doc, d) => I.sectionDocs.set(doc[3], [...(I.sectionDocs.get(doc[3]) || []), d]));
  const readMeaning = I.meaning && window.Meaning ? window.Meaning.reader("../", "vectors.f32", I.meaning.vectors) : null;
  const tools = { normalize, key, stripParticle, reading, words, endings: new Set(I.endings) };
  const modelText = (q) => window.Meaning.embeddingText(q, I, tools);
  window.modelText = modelText;  // for the page's tests: what the model reads, as the bot gives it
  async function searchByMeaning(q) {
    q = [...q].slice(0, I.maxChars).join("");
    if (!readMeaning) throw new Error("this page reads no meaning");
    const names = settled(q);
    if (names) return names;
    const w = wordEvidence(q);
    if (!w.asks && !w.named.length) return [];  // no content word and no name (こんにちは, a lone letter)
    const [vectors, qvec] = await readMeaning(modelText(q));
    const view = window.Meaning.denseView(vectors, I.docs, qvec, I.meaning.cards);
    const found = window.Meaning.fuse(I, w, view);
    // the bot's answer decision, where the page can know its features: none of the words known
    if (!w.known && !w.named.length && found.length && !window.Meaning.answers(I, view, w, I.docs[found[0]][3], q)) return [];
    return found.slice(0, LISTED);
  }
  window.searchRulesByMeaning = searchByMeaning;  // for the page's tests: the ranking the form shows once the model is read

  const list = document.getElementById("results");
  const status = document.getElementById("status");
  function render(q, found) {
    list.replaceChildren();
    document.getElementById("count").textContent = q ? list.dataset.count.replace("{n}", found.length) : "";
    for (const d of found) {
      const [label, href, snippet] = I.docs[d];
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = href;
      a.textContent = label;
      const p = document.createElement("p");
      p.textContent = snippet;
      li.append(a, p);
      list.append(li);
    }
  }

  // The words' results at once; then, once the model has read the question, the fused ones (a
  // newer question wins over an older one still being read).
  let asked = 0, modelRead = false;
  async function show(q) {
    const mine = ++asked;
    render(q, q ? search(q) : []);
    status.textContent = "";
    if (!q) return;
    const names = settled(q);
    if (names) {  // a number, initials: they open what they name or nothing, and say so
      if (!names.length) status.textContent = status.dataset.none;
      return;
    }
    if (!readMeaning) {  // opened from a file (or a browser without WebAssembly): the words alone
      if (I.meaning) status.textContent = status.dataset.file;
      return;
    }
    if (!modelRead) status.textContent = status.dataset.reading;  // the page's first question loads the model
    try {
      const found = await searchByMeaning(q);
      modelRead = true;
      if (mine === asked) {
        render(q, found);
        status.textContent = found.length ? "" : status.dataset.none;
      }
    } catch (error) {
      if (mine === asked) status.textContent = status.dataset.wordsOnly;
    }
  }

  const params = new URLSearchParams(location.search);
  const box = document.getElementById("q");
  box.value = params.get("q") || "";
  document.getElementById("search").addEventListener("submit", (e) => {
    e.preventDefault();
    history.replaceState(null, "", "?q=" + encodeURIComponent(box.value));
    show(box.value);
  });
  show(box.value);
})();

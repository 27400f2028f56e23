// Search a pack in the browser, offline, the way the bot reads a question: a rule number opens
// its rule; a name of a section (a title, its English or Japanese name, an alias, a player's
// spelling) typed whole comes first, and one contained in a question lifts its section;
// particles and endings are stripped (폭격은 -> 폭격), the rules' own word forms read as their
// lemmas, the players' spellings and other-language names (인프, 歩兵) as the official terms,
// kanji words in Korean (爆撃 -> 폭격), syllable bigrams for the rest; sections ranked as the bot
// ranks them by the words alone (BM25, coverage, a name inside the question), at their best rule.
// The bot also ranks by meaning, which a page cannot: a paraphrase is the bot's to answer.
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
  const NUMBER = /^(?:§|제)?\s*(\d{1,4})(?:\s*[.\-·:]\s*(\d{1,3}))?\s*\.?$/;

  function normalize(s) {
    return s.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
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

  function search(q) {
    const norm = normalize(q);
    const number = norm.match(NUMBER);
    if (number) {
      const doc = I.numbers[number[2] === undefined ? number[1] : `${+number[1]}.${+number[2]}`];
      return doc === undefined ? [] : [doc];
    }
    const exact = I.names[key(q)];
    const scores = new Float64Array(N);
    const [tokens, groups] = queryTokens(q);
    for (const [token, weight] of tokens) {
      const tokenIdf = idf(token);
      for (const [doc, tf] of I.postings[token]) {
        const norm = (tf * (I.k1 + 1)) / (tf + I.k1 * (1 - I.b + (I.b * I.lengths[doc]) / avg));
        scores[doc] += weight * tokenIdf * norm;
      }
    }
    // Sections as the bot ranks them by the words: its best rule plus a share of its other
    // matching rules (BM25, relative to the best section's), the share of the question it
    // holds, and a name of it inside the question, with the bot's fitted weights.
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
    const contained = new Map();
    for (const [doc, weight] of containedNames(q)) {
      const s = I.docs[doc][3];
      contained.set(s, Math.max(contained.get(s) || 0, weight));
      if (!bestDoc.has(s)) bestDoc.set(s, doc);
    }
    const covered = coverage(groups);
    const score = (s) =>
      I.rank.coverage * (covered.get(s) || 0) + I.rank.bm25 * ((bm25.get(s) || 0) / top) + I.rank.contained * (contained.get(s) || 0);
    const ranked = [...bestDoc.keys()].sort((a, b) => score(b) - score(a)).map((s) => bestDoc.get(s));
    return (exact ? [exact[0], ...ranked.filter((d) => d !== exact[0])] : ranked).slice(0, 20);
  }
  window.searchRules = search;  // for the page's tests: the same ranking the form shows

  function show(q) {
    const list = document.getElementById("results");
    list.replaceChildren();
    const found = q ? search(q) : [];
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

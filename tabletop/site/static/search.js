// Search a pack in the browser, offline, the way the bot reads a question: a rule number opens
// its rule; a name of a section (a title, its English or Japanese name, an alias, a player's
// spelling) typed whole comes first, and one contained in a question lifts its section;
// particles and endings are stripped (폭격은 -> 폭격), the rules' own word forms read as their
// lemmas, the players' spellings and other-language names (인프, 歩兵) as the official terms,
// kanji words in Korean (爆撃 -> 폭격), syllable bigrams for the rest; rules ranked by BM25.
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
  // A name typed whole outranks any rule the words find; a name inside a question adds this
  // share of the best rule's score, times the name's weight (the bot's ladder, in BM25's units).
  const CONTAINED_SHARE = 0.5;

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

  // The question as weighted tokens, each word contributing its best reading.
  function queryTokens(q) {
    const weights = new Map();
    const add = (t, w) => { if (I.postings[t]) weights.set(t, Math.max(weights.get(t) || 0, w)); };
    const stop = new Set(I.stopwords);
    for (const raw of words(q)) {
      if (!raw || stop.has(raw) || stop.has(stripParticle(raw))) continue;
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
    }
    const qkey = key(q);
    for (const [form, tokens] of Object.entries(I.lexicon)) {  // Japanese forms: written without spaces
      if (form.length >= 2 && [...form].some((c) => isKana(c) || isKanji(c)) && qkey.includes(form)) {
        for (const [t, w] of tokens) add(t, w);
      }
    }
    return weights;
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
      if (hit) found.push([doc, weight * Math.min(1, name.length / Math.max(qkey.length, 1) + 0.5)]);
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
    for (const [token, weight] of queryTokens(q)) {
      const list = I.postings[token];
      const idf = Math.log(1 + (N - list.length + 0.5) / (list.length + 0.5));
      for (const [doc, tf] of list) {
        const norm = (tf * (I.k1 + 1)) / (tf + I.k1 * (1 - I.b + (I.b * I.lengths[doc]) / avg));
        scores[doc] += weight * idf * norm;
      }
    }
    const best = Math.max(0, ...scores);
    for (const [doc, weight] of containedNames(q)) scores[doc] += CONTAINED_SHARE * (best || 1) * weight;
    const ranked = [...scores.keys()].filter((d) => scores[d] > 0).sort((a, b) => scores[b] - scores[a]);
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

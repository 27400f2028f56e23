// Search a pack in the browser, offline, the way the bot reads a question: particles and endings
// stripped (폭격은 -> 폭격), the rules' own word forms read as their lemmas, the players' spellings
// (인프, 우포) read as the official terms, syllable bigrams for the rest; rules ranked by BM25.
(function () {
  "use strict";
  const I = window.SEARCH_INDEX;
  const N = I.lengths.length;
  const avg = I.lengths.reduce((a, b) => a + b, 0) / Math.max(N, 1);
  const isHangul = (c) => c >= "\uac00" && c <= "\ud7a3";
  const isCJK = (c) => isHangul(c) || (c >= "\u3040" && c <= "\u30ff") || (c >= "\u4e00" && c <= "\u9fff");

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

  // The question as weighted tokens, each word contributing its best reading.
  function queryTokens(q) {
    const weights = new Map();
    const add = (t, w) => { if (I.postings[t]) weights.set(t, Math.max(weights.get(t) || 0, w)); };
    const stop = new Set(I.stopwords);
    for (const raw of normalize(q).split(" ")) {
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
    return weights;
  }

  function search(q) {
    const scores = new Float64Array(N);
    for (const [token, weight] of queryTokens(q)) {
      const list = I.postings[token];
      const idf = Math.log(1 + (N - list.length + 0.5) / (list.length + 0.5));
      for (const [doc, tf] of list) {
        const norm = (tf * (I.k1 + 1)) / (tf + I.k1 * (1 - I.b + (I.b * I.lengths[doc]) / avg));
        scores[doc] += weight * idf * norm;
      }
    }
    return [...scores.keys()].filter((d) => scores[d] > 0).sort((a, b) => scores[b] - scores[a]).slice(0, 20);
  }

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

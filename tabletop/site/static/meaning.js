// The meaning half of the page's search, as the bot ranks (tabletop/rules/fusion.py): the
// question is read by the bot's own model (meaning-worker.js), compared with every passage of
// the pack (vectors.f32, the bot's vectors: the passages', then the search cards'), and each
// section scored by the bot's fitted weights over its dense z, the z of its two best passages,
// the z of its nearest card question and summary, and the words' evidence; each
// ranker's first choice stays among the first three, the third is the better of both rankers'
// near misses; a section opens at the rule whose words and meaning answer best.
(function () {
  "use strict";
  const DIMENSIONS = 384;

  // The text the bot gives the model: the question, then the rules' own terms for the lexicon
  // forms it uses ('커토 받으면 … (지휘 토큰)'), then (a Korean pack) its kanji words read in Korean.
  function embeddingText(q, I, tools) {
    const M = I.meaning;
    const norm = tools.normalize(q);
    const qkey = tools.key(q);
    const keys = norm.split(" ").map(tools.key).filter(Boolean);
    const segments = tools.words(q).map(tools.key).filter(Boolean);  // Japanese split where its script changes
    const singular = (w) => (w.length > 3 && /^[a-z]+$/.test(w) && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w);
    const latin = keys.map(singular);
    const words = new Set([...keys, ...latin, ...segments, ...segments.map(tools.stripParticle)]);  // stems: the analyser's nouns
    for (let i = 0; i < latin.length; i++) {
      for (let j = i + 2; j <= Math.min(i + 4, latin.length); j++) words.add(latin.slice(i, j).join(""));
    }
    const wholeWords = (k) => {  // a phrase standing as whole words, a particle allowed after it
      for (let start = 0; start < keys.length; start++) {
        let joined = "";
        for (let end = start; end < keys.length; end++) {
          joined += keys[end];
          if (joined.startsWith(k)) {
            const rest = joined.slice(k.length);
            if (!rest || tools.stripParticle(k + rest) === k || tools.endings.has(rest)) return true;
          }
          if (joined.length >= k.length) break;
        }
      }
      return false;
    };
    // a verb's stem at the start of a word: without the analyser, 막판 is read as 막다 too (a
    // stricter rule, a one-syllable stem only before an ending, lost more verbs the bot reads)
    const verbIn = (stem) => keys.some((w) => w.startsWith(stem));
    const terms = [];
    for (const [k, kind, term, lemmas] of M.forms) {
      // the bot's analyser reads verbs and nouns; the page has the stems of the words typed
      const hit =
        kind === "cjk" ? qkey.includes(k)
        : kind === "hangul" ? qkey.includes(k) && wholeWords(k)
        : kind === "verb" ? lemmas.every((lemma) => verbIn(lemma.replace(/다$/, "")))
        : words.has(k) || words.has(singular(k));
      const name = M.terms[term];
      if (hit && !terms.includes(name) && !qkey.includes(tools.key(name)) && !name.endsWith("다")) terms.push(name);
    }
    if (M.language === "ko") {  // each kanji word's reading, unless a term already says it
      const readings = (norm.match(/[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff々]{2,}/g) || []).map(tools.reading);
      terms.push(...readings.filter((r) => r && !terms.includes(r)));
    }
    return terms.length ? `${norm} (${terms.join(", ")})` : norm;
  }

  // The question against every passage: a z per section (its best passage; and the mean of its
  // two best, on its own scale) and per passage, as fusion.dense_view.
  function denseView(vectors, docs, qvec, cards) {
    const n = docs.length;
    const dot = (row) => {
      let sum = 0;
      for (let i = 0, at = row * DIMENSIONS; i < DIMENSIONS; i++) sum += vectors[at + i] * qvec[i];
      return sum;
    };
    const sims = new Float64Array(n);
    for (let d = 0; d < n; d++) sims[d] = dot(d);
    const bySection = new Map();
    for (let d = 0; d < n; d++) {
      const s = docs[d][3];
      if (!bySection.has(s)) bySection.set(s, []);
      bySection.get(s).push(sims[d]);
    }
    const best = new Map(), pair = new Map();
    for (const [s, v] of bySection) {
      const sorted = [...v].sort((a, b) => a - b);
      best.set(s, sorted[sorted.length - 1]);
      const two = sorted.slice(-2);
      pair.set(s, two.reduce((a, b) => a + b, 0) / two.length);
    }
    const zOf = (values) => {
      const all = [...values.values()];
      const mean = all.reduce((a, b) => a + b, 0) / all.length;
      const spread = Math.sqrt(all.reduce((a, b) => a + (b - mean) ** 2, 0) / all.length) || 1;
      return [new Map([...values].map(([s, v]) => [s, (v - mean) / spread])), mean, spread];
    };
    const [sectionZ, mean, spread] = zOf(best);
    const [sectionZ2] = zOf(pair);
    const view = { sectionZ, sectionZ2, docZ: Array.from(sims, (v) => (v - mean) / spread), bestCosine: Math.max(...best.values()) };
    // the search cards, read after the passages (fusion.dense_view): each section's nearest card
    // question and summary as z among the sections, the nearest question's cosine and rule
    const asked = new Map(), summed = new Map(), rule = new Map();
    (cards || []).forEach(([s, kind, doc], c) => {
      const sim = dot(n + c);
      const into = kind === "q" ? asked : summed;
      if (!into.has(s) || sim > into.get(s)) {
        into.set(s, sim);
        if (kind === "q") rule.set(s, doc);
      }
    });
    if (!asked.size) return { ...view, questionZ: new Map(), summaryZ: new Map(), questionCosine: 0, questionRule: rule };
    return {
      ...view,
      questionZ: zOf(asked)[0],
      summaryZ: summed.size ? zOf(summed)[0] : new Map(),
      questionCosine: Math.max(...asked.values()),
      questionRule: rule,
    };
  }

  const bySection = (a, b) => (a < b ? -1 : a > b ? 1 : 0);  // the bot breaks ties in section order
  const firstTwo = (scores) => [...scores.keys()].sort(bySection).sort((a, b) => scores.get(b) - scores.get(a)).slice(0, 2);

  // Sections ranked by the fused score, each at its best rule (document indexes), below the
  // sections the question names (w.named: a name typed whole, a rule number inside it).
  function fuse(I, w, view) {
    const M = I.meaning;
    const named = w.namedSections;
    const sections = [...new Set([...view.sectionZ.keys(), ...w.bestDoc.keys()])].filter((s) => !named.has(s)).sort(bySection);
    const score = new Map(), words = new Map(), meanings = new Map();
    const carded = view.questionZ.size > 0;
    const wordPart = (s) =>
      M.words.coverage * (w.covered.get(s) || 0) + M.words.bm25 * (w.bm25.get(s) || 0) + M.words.contained * (w.contained.get(s) || 0);
    for (const s of sections) {  // in the name ladder's points, under the least of the names
      const meaning =
        M.weights.z * (view.sectionZ.get(s) || 0) + M.weights.z2 * (view.sectionZ2.get(s) || 0) +
        M.weights.zq * (view.questionZ.get(s) || 0) + M.weights.zs * (view.summaryZ.get(s) || 0);
      meanings.set(s, carded ? meaning : view.sectionZ.get(s) || 0);  // the meaning's own ranking, as the bot's
      let fused = M.scale * (wordPart(s) + meaning);
      if (w.ceiling !== null) fused = Math.min(fused, w.ceiling - 1);
      score.set(s, fused);
      if (w.covered.get(s) || w.contained.get(s) || w.bm25.get(s)) words.set(s, fused - M.scale * meaning);
    }
    const ranked = () => sections.slice().sort((a, b) => score.get(b) - score.get(a));
    // each ranker's first choice among the first shown, below the sections the player named
    // (a ranker whose first choice is a named section keeps no other)
    const firsts = [firstTwo(meanings)[0]];
    if (words.size) firsts.push(firstTwo(words)[0]);
    const room = Math.max(0, M.shown - named.size);
    const order = ranked();
    const late = [...new Set(firsts)].filter((s) => s !== undefined && !named.has(s) && order.indexOf(s) >= room).slice(0, room);
    if (late.length) {
      const stay = order.slice(0, room - late.length);
      const floor = stay.length ? Math.min(...stay.map((s) => score.get(s))) : Math.max(...score.values()) + 1;
      late.forEach((s, step) => score.set(s, floor - (step + 1) * 1e-6));
      for (const s of order.slice(0, room)) {
        if (!stay.includes(s) && !late.includes(s)) score.set(s, Math.min(score.get(s), floor - (late.length + 1) * 1e-6));
      }
    }
    // the last shown: the fused order's best among both rankers' first two choices
    const choices = new Set([...firstTwo(meanings), ...firstTwo(words)].filter((s) => !named.has(s)));
    const now = ranked();
    const third = room ? now[room - 1] : undefined;
    if (third !== undefined && !choices.has(third)) {
      const pick = now.slice(room - 1).find((s) => choices.has(s));
      if (pick) {
        const kept = score.get(third);
        score.set(third, score.get(pick));
        score.set(pick, kept);
      }
    }
    const top = Math.max(0, ...w.scores) || 1;
    const ruleOf = (s) => {
      let bestDoc = null, bestScore = -Infinity;
      const card = view.questionRule.get(s);  // the rule the section's nearest card question names
      for (const d of I.sectionDocs.get(s) || []) {
        const value = w.scores[d] / top + M.ruleZ * view.docZ[d] + (d === card ? M.ruleCard * Math.max(0, view.questionZ.get(s) || 0) : 0);
        if (value > bestScore) [bestDoc, bestScore] = [d, value];
      }
      return bestDoc;
    };
    return [...w.named, ...ranked().map(ruleOf).filter((d) => d !== null)];
  }

  // The bot's answer decision for a question none of whose words the pack knows: coverage and
  // the known share are 0, so the first result's z, whether a name in the question points at
  // it, the best cosine and the share of the question in another script decide.
  function answers(I, view, w, top, q) {
    const A = I.meaning.answer;
    const letters = [...q].filter((c) => /\p{L}/u.test(c));
    const inScript = (c) =>
      I.meaning.language === "ko" ? (c >= "\uac00" && c <= "\ud7a3") || (c >= "\u3131" && c <= "\u318e")
      : I.meaning.language === "ja" ? (c >= "\u3040" && c <= "\u30ff") || (c >= "\u4e00" && c <= "\u9fff") || (c >= "\uff66" && c <= "\uff9f")
      : c.charCodeAt(0) < 128;
    const foreign = letters.length ? letters.filter((c) => !inScript(c)).length / letters.length : 0;
    const z = view.sectionZ.get(top) || 0;  // the first result's
    const named = w.contained.get(top) ? 1 : 0;
    const asked = view.questionZ.size ? (view.questionCosine - A.centre) / A.step : 0;
    const logit =
      A.intercept + A.z * z + A.named * named + A.foreign * foreign + A.cosine * ((view.bestCosine - A.centre) / A.step) +
      A.asked * asked + A.zq * (view.questionZ.get(top) || 0);
    return 1 / (1 + Math.exp(-Math.max(-30, Math.min(30, logit)))) >= A.threshold;
  }

  // The model in a worker, started on the first question; null where the page cannot fetch it.
  // A failure (the worker or the vectors could not be had) rejects that question and the next
  // one tries again.
  function reader(root, vectorsUrl, rows) {
    if (!/^https?:$/.test(location.protocol) || !window.Worker || !window.WebAssembly) return null;
    let worker = null, vectors = null, next = 0;
    const waiting = new Map();
    const failAll = (error) => {
      for (const [, reject] of waiting.values()) reject(error);
      waiting.clear();
    };
    const start = () => {
      worker = new Worker(root + "meaning-worker.js");
      worker.onmessage = ({ data }) => {
        const [resolve, reject] = waiting.get(data.id) || [];
        waiting.delete(data.id);
        if (resolve) data.error ? reject(new Error(data.error)) : resolve(data.vector);
      };
      worker.onerror = (event) => {  // the script itself failed, or the browser stopped it
        worker.terminate();
        worker = null;
        failAll(new Error(event.message || "the worker stopped"));
      };
    };
    const loadVectors = async () => {
      const response = await fetch(vectorsUrl);
      if (!response.ok) throw new Error(`${vectorsUrl}: ${response.status}`);
      const found = new Float32Array(await response.arrayBuffer());
      if (found.length !== rows * DIMENSIONS) throw new Error(`${vectorsUrl}: not this index's passages`);
      return found;
    };
    return async (text) => {
      vectors = vectors || loadVectors().catch((error) => {
        vectors = null;
        throw error;
      });
      const passages = await vectors;
      if (!worker) start();
      const id = next++;
      const qvec = new Promise((resolve, reject) => waiting.set(id, [resolve, reject]));
      worker.postMessage({ id, text, root: new URL(root, location.href).href, stallSeconds: window.Meaning.stallSeconds });
      return [passages, await qvec];
    };
  }

  // Seconds without a byte before the model's download counts as stalled: long enough for any
  // connection that still moves, short enough that a reader does not wait on a dead one.
  const stallSeconds = 30;

  window.Meaning = { embeddingText, denseView, fuse, answers, reader, stallSeconds };
})();

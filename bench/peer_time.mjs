#!/usr/bin/env node
// peer_time.mjs — times the exact calculator fork BarbarianMatt/ti4calcTE (JavaScript) on the
// benchmark fights of bench/combat_bench.py, so that the bench can set ours beside it in one run
// (`python bench/combat_bench.py --peer PEER_DIR`). The fork's code is not in this repository:
// PEER_DIR holds a copy of its structs.js, game-elements.js and calculator.js.
//
// Usage:  node bench/peer_time.mjs PEER_DIR [BUDGET_S]   (or env PEER_DIR=/path PEER_BUDGET_S=600)
// It prints one JSON line first, {"peer": {repository, node, peer_dir, budget_s, files_sha256}},
// then one per fight:
//   {"case": <the name in combat_bench.py's CASES, exactly>, "peer_ms": <best>, "runs": n,
//    "attacker": .., "defender": .., "draw": ..}
// or {"case": .., "not_modelled": "<why>"} for a fight the fork cannot express,
// or {"case": .., "peer_over_ms": <budget>} when the fork ended no run of it within the budget,
// or {"case": .., "peer_error": "<what it threw>"}.
// Each fight runs in a worker thread of its own, in a fresh context: once to warm up, then timed
// best of 5 (best of 2 when the warm-up took over 1 s). The input is built before each run, outside
// the timed part; only computeProbabilities is timed. A fight gets BUDGET_S seconds in all (default
// 600): once they are spent its worker is stopped and the line gives the best of the timed runs
// that ended (with a "note"; the warm-up's time, "runs": 0, when none did).
//
// Loading is tests/combat/peer/fork.mjs's (as for the figures scripts) with the REAL clock only: the fork as
// shipped, unmodified, with its own pruning (it stops once 99.99 % of the probability has reached
// an end, and drops transition blocks below (elapsed ms)^3 / 1e13, so its slow runs are less
// exact). The three files are loaded into one node:vm context whose global object doubles as
// `window`, with console.log/info/debug silenced, structuredClone and performance.now (host)
// supplied. The input is built as the fork's index.js builds it (getDefaultInput +
// setFactionDefaults + the unit watchers), as in that script: default faction Arborec (no
// abilities), the fork's default units (no upgrades) unless a fight names an upgraded or faction unit.
import path from 'node:path';
import { performance as hostPerf } from 'node:perf_hooks';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { buildInput, filesSha256, makeContext as forkContext, readFork, summarize } from '../tests/combat/peer/fork.mjs';

const PEER_DIR = path.resolve(process.argv[2] || process.env.PEER_DIR || './peer');
// The most a fight may take, warm-up and timed runs together, in seconds (the fork's slowest fights
// run for minutes a time): argv[3] or env PEER_BUDGET_S.
const BUDGET_S = Number(process.argv[3] || process.env.PEER_BUDGET_S || 600);
const SOURCES = readFork(PEER_DIR);

function makeContext() {
  return forkContext(SOURCES, 'real');  // the fork as shipped: its own clock and pruning
}

// ---- the fights: combat_bench.py's CASES, in the fork's input -----------------------------------
// An invasion is the fork's Ground battle with the attacker's ships in the input: addUnit puts
// ships in the space area, they take no part in the ground combat (filterFleet), and the
// 'bombardment' step (calculator.js, only for battleType Ground) rolls their Bombardment against
// the planet's ground forces first (Dreadnought: Bombardment 5).
const S = 'Space', G = 'Ground';
const FLEET = { WarSun: 2, Dreadnought: 4, Cruiser: 6, Fighter: 8 };
const CASES = [
  { case: '10 infantry + 2 mechs invading 8 infantry after 2 dreadnoughts bombard', battleType: G,
    attacker: { units: { Dreadnought: 2, Infantry: 10, Mech: 2 } }, defender: { units: { Infantry: 8 } } },
  { case: '20 infantry + 4 mechs v 20 infantry', battleType: G,
    attacker: { units: { Infantry: 20, Mech: 4 } }, defender: { units: { Infantry: 20 } } },
  { case: '2 war suns, 4 dreadnoughts, 6 cruisers, 8 fighters v a similar fleet', battleType: S,
    attacker: { units: FLEET }, defender: { units: { WarSun: 1, Dreadnought: 5, Cruiser: 6, Fighter: 10 } } },
  { case: 'the mirror match', battleType: S, attacker: { units: FLEET }, defender: { units: FLEET } },
  { case: '100 fighters v 50 dreadnoughts + 50 destroyers', battleType: S,
    attacker: { units: { Fighter: 100 } }, defender: { units: { Dreadnought: 50, Destroyer: 50 } } },
  // Eidolon Maximum: faction Naaz-Rokha with its breakthrough unit (the Mech sheet 4x4, a ship too)
  { case: "Thunder's Edge: Eidolon Maximum + 2 fighters v 2 dreadnoughts + a cruiser", battleType: S,
    attacker: { faction: 'NaazRokha', units: { Mech: 1, Fighter: 2 }, unitOptions: { naazRokhaMechII: true } },
    defender: { units: { Dreadnought: 2, Cruiser: 1 } } },
  // Linkship II: faction Ral Nel, its destroyer upgraded (8, AFB 6x3)
  { case: "Thunder's Edge: 2 Linkship II + a cruiser v 6 fighters + a carrier", battleType: S,
    attacker: { faction: 'RalNel', units: { Destroyer: 2, Cruiser: 1 }, upgraded: { Destroyer: true } },
    defender: { units: { Fighter: 6, Carrier: 1 } } },
];

// ---- timing: each fight in a worker thread of its own, stopped once its budget is spent -----------
// The worker loads the fork into a fresh context, runs the fight once to warm up, then best of 5
// (of 2 when the warm-up took over 1 s), posting each run's time and chances.
function worker() {
  const spec = CASES[workerData.index];
  const ctx = makeContext();
  const once = () => {
    const input = buildInput(ctx, spec);
    const t0 = hostPerf.now();
    const out = ctx.calculator.computeProbabilities(input);
    return { ms: hostPerf.now() - t0, ...summarize(out[0].distribution) };
  };
  const warm = once();
  parentPort.postMessage({ warmUp: true, ...warm });
  for (let i = 0, runs = warm.ms > 1000 ? 2 : 5; i < runs; i++) parentPort.postMessage(once());
}

// One fight's line: the best timed run; if the budget ran out first, the best of those that ended
// (the warm-up's time when none did: "runs": 0), or how long the fork ran without ending one.
function timeCase(index, budgetMs) {
  const spec = CASES[index];
  if (spec.notModelled) return Promise.resolve({ case: spec.case, not_modelled: spec.notModelled });
  return new Promise(resolve => {
    const runs = [];
    let warm, failure, stopped = false;
    const w = new Worker(new URL(import.meta.url), { workerData: { index }, argv: [PEER_DIR, String(BUDGET_S)] });
    const timer = setTimeout(() => { stopped = true; w.terminate(); }, budgetMs);
    w.on('message', m => (m.warmUp ? (warm = m) : runs.push(m)));
    w.on('error', e => { failure = `${e.name}: ${e.message}`; });
    w.on('exit', code => {
      clearTimeout(timer);
      if (!failure && !stopped && code !== 0) failure = `the worker exited with code ${code}`;
      if (failure) return resolve({ case: spec.case, peer_error: failure });
      if (!warm) return resolve({ case: spec.case, peer_over_ms: budgetMs, note: `no run ended within the budget of ${budgetMs / 1000} s` });
      const best = (runs.length ? runs : [warm]).reduce((a, b) => (b.ms < a.ms ? b : a));
      const line = { case: spec.case, peer_ms: Math.round(best.ms * 1000) / 1000, runs: runs.length,
                     attacker: best.attacker, defender: best.defender, draw: best.draw };
      if (runs.length < (warm.ms > 1000 ? 2 : 5)) line.note = `budget of ${budgetMs / 1000} s spent after ${runs.length} timed run(s)` + (runs.length ? '' : ': the warm-up\'s time');
      resolve(line);
    });
  });
}

if (!isMainThread) worker();
else {
  process.stdout.write(JSON.stringify({ peer: {
    repository: 'https://github.com/BarbarianMatt/ti4calcTE', node: process.version, peer_dir: PEER_DIR, budget_s: BUDGET_S,
    files_sha256: filesSha256(SOURCES),
  } }) + '\n');
  for (let i = 0; i < CASES.length; i++) process.stdout.write(JSON.stringify(await timeCase(i, BUDGET_S * 1000)) + '\n');
}

#!/usr/bin/env node
// ti4calcte_figures.mjs — the reference figures in ti4calcte_figures.json, computed with the TI4
// calculator fork BarbarianMatt/ti4calcTE (its code is not in this repository: PEER_DIR holds a copy
// of its structs.js, game-elements.js and calculator.js at the commit the JSON names).
//
// Usage:  node ti4calcte_figures.mjs PEER_DIR        (or PEER_DIR=/path node ti4calcte_figures.mjs)
// It prints one JSON object; the committed file keeps, per case the fork models, attacker, defender,
// draw and terminal_mass (frozen clock, run to convergence: see fork.mjs) and the real-clock
// run's ms (the fork as shipped).
//   env PEER_CLOCK=frozen|real   (default: both are run; "frozen" is the primary figure, see the JSON's about)
//   env PEER_COMMIT=<sha>        (recorded in the output if PEER_DIR is not a git checkout)
//
// The fork's three calculation files (structs.js, game-elements.js, calculator.js) are loaded (fork.mjs),
// unmodified, into one node:vm context whose global object doubles as `window` (that is how the
// browser page loads them: plain <script> tags sharing window). Shims supplied to the context:
//   - console: log/info/debug silenced (the fork logs its whole state map on every run); warn/error -> stderr
//   - structuredClone (host implementation)
//   - performance.now: either the real clock, or a frozen clock returning 0 (its pruning by elapsed time)
// The calculator input object is built the way the fork's index.js (Vue app) builds it:
// getDefaultInput() + setFactionDefaults() + the updateUnitsVersion / switchUpgrade / updateUnitsFull watchers.

import path from 'node:path';
import { performance as hostPerf } from 'node:perf_hooks';
import { buildInput, converged, describeFleet, filesSha256, gitCommit, makeContext as forkContext, readFork, summarize } from './fork.mjs';

const PEER_DIR = path.resolve(process.argv[2] || process.env.PEER_DIR || './peer');
const SOURCES = readFork(PEER_DIR);
const CONVERGED = converged(SOURCES);  // the frozen-clock figures: see fork.mjs

function makeContext(clock) {
  return forkContext(clock === 'frozen' ? CONVERGED : SOURCES, clock);
}

function runCase(spec, clock) {
  const ctx = makeContext(clock);
  const input = buildInput(ctx, spec);
  const fleets = { attacker: describeFleet(input.unitsFull.attacker), defender: describeFleet(input.unitsFull.defender) };
  const t0 = hostPerf.now();
  const out = ctx.calculator.computeProbabilities(input);
  const ms = hostPerf.now() - t0;
  return { ...summarize(out[0].distribution), ms: Math.round(ms), fleets, avg_rounds: out[0].accumulations?.rounds };
}

// ---- the cases -------------------------------------------------------------------------------
const S = 'Space', G = 'Ground';
const CASES = [
  { case: '1', title: 'Quietus + 2 destroyer I vs 2 cruiser I + 2 fighter I', battleType: S,
    attacker: { faction: 'Crimson', units: { Flagship: 1, Destroyer: 2 } },
    defender: { units: { Cruiser: 2, Fighter: 2 } },
    note: "faction Crimson (startingUnits: crimsonFlagship = Quietus 5x2 sustain); option activeBreach left off, so the flagship's text ability is inactive; destroyers are the standard Destroyer I (9, AFB 9x2)" },
  { case: '2', title: 'Last Dispatch + carrier I + 2 fighter I vs dreadnought I + 3 fighter I', battleType: S,
    attacker: { faction: 'RalNel', units: { Flagship: 1, Carrier: 1, Fighter: 2 } },
    defender: { units: { Dreadnought: 1, Fighter: 3 } },
    note: "faction RalNel (ralnelFlagship = Last Dispatch 8x2 sustain); its retreat ability is irrelevant (no retreat). RalNel's default ability 'mini' (Miniaturization) is on but there are no structures" },
  { case: '3', title: '3 Linkship I vs 4 fighter I + carrier I', battleType: S,
    attacker: { faction: 'RalNel', units: { Destroyer: 3 } },
    defender: { units: { Fighter: 4, Carrier: 1 } },
    note: 'ralnelDestroyer = Linkship I (9, AFB 9x2); its structure-space-cannon ability needs structures in the space area (none here)' },
  { case: '4', title: '2 Linkship II + cruiser I vs 6 fighter I + carrier I', battleType: S,
    attacker: { faction: 'RalNel', units: { Destroyer: 2, Cruiser: 1 }, upgraded: { Destroyer: true } },
    defender: { units: { Fighter: 6, Carrier: 1 } },
    note: 'ralnelDestroyerII = Linkship II (8, AFB 6x3) via units.Destroyer.upgraded = true; cruiser stays Cruiser I (7)' },
  { case: '5', title: '2 Exile II (7, AFB 6x3) + dreadnought I vs 5 fighter I + cruiser I', battleType: S, skip: true,
    note: "NOT MAPPED: the fork has no standard Exile II (combat 7). Its only Crimson destroyer upgrade is crimsonDestroyerTF 'Exile (Crimson Destroyer)' [1-8-4-*] AFB 6x3, listed with the Twilight's Fall unit upgrades. See case 5-TF for that unit." },
  { case: '5-TF', title: "INFORMATIONAL (not the requested unit): 2 crimsonDestroyerTF 'Exile' (8, AFB 6x3) + dreadnought I vs 5 fighter I + cruiser I", battleType: S,
    attacker: { faction: 'Crimson', units: { Destroyer: 2, Dreadnought: 1 }, upgraded: { Destroyer: true }, unitOptions: { crimsonDestroyerTF: true } },
    defender: { units: { Fighter: 5, Cruiser: 1 } },
    note: "uses the fork's Twilight's-Fall Exile (combat 8, not 7) as the upgraded destroyer sheet; given only for comparison" },
  { case: '6', title: "Heaven's Hollow (5x3 sustain) + destroyer I vs 2 dreadnought I", battleType: S, skip: true,
    note: "NOT MAPPED: the fork has no Obsidian/Firmament flagship unit (no 'Heaven's Hollow' in UniqueUnits; 'Firmament/Obsidian' exists only as a faction display name, and its only unique unit is firmamentWarSun)" },
  { case: '7', title: 'Eidolon Maximum + 2 fighter I vs 2 dreadnought I + cruiser I', battleType: S,
    attacker: { faction: 'NaazRokha', units: { Mech: 1, Fighter: 2 }, unitOptions: { naazRokhaMechII: true } },
    defender: { units: { Dreadnought: 2, Cruiser: 1 } },
    note: "faction NaazRokha + units.naazRokhaMechII (option 'Eidolon Maximum (Naaz Rokha Breakthrough)'): Mech sheet becomes 4x4, typeShip, sustain, abilities naazRokhaMechImmune (no hits from AFB/space cannon/bombardment) and naazRokhaMechRepair (repair at start of each round)" },
  { case: '8', title: 'Eidolon Maximum vs 4 infantry I + 1 mech', battleType: G,
    attacker: { faction: 'NaazRokha', units: { Mech: 1 }, unitOptions: { naazRokhaMechII: true } },
    defender: { units: { Infantry: 4, Mech: 1 } },
    note: 'defender faction Arborec (fork default), standard Mech (6, sustain) and Infantry I (8)' },
  { case: '9', title: '2 dreadnought I + Metali Void Armaments vs carrier I + 4 fighter I', battleType: S,
    attacker: { units: { Dreadnought: 2 }, options: { voidArmaments: true } },
    defender: { units: { Carrier: 1, Fighter: 4 } },
    note: "relic option voidArmaments ('Metali Void Armaments'): adds a virtual AFB 6x3 roller in the barrage step" },
  { case: '10', title: '2 destroyer I + Experimental Battlestation vs 2 cruiser I', battleType: S,
    attacker: { units: { Destroyer: 2, SpaceDock: 1 }, options: { experimental: true } },
    defender: { units: { Cruiser: 2 } },
    note: "action card option experimental ('Experimental Battlestation'); the fork needs a SpaceDock on the using side, so 1 SpaceDock was added to the attacker (it is not a combatant: in a space battle it sits on a planet and is only used for Space Cannon 5x3 during space cannon offense)" },
  { case: '11', title: 'dreadnought I + space dock + Lightrail Ordnance vs 2 cruiser I', battleType: S,
    attacker: { units: { Dreadnought: 1, SpaceDock: 1 }, options: { lightrail: true } },
    defender: { units: { Cruiser: 2 } },
    note: "relic option lightrail ('Lightrail Ordnance'): space docks get Space Cannon 5x2 (+deepSpaceCannon), fired in space cannon offense" },
  { case: '14a', title: '3 cruiser I + Metali Void Shielding vs 3 destroyer I', battleType: S,
    attacker: { units: { Cruiser: 3 }, options: { voidShielding: true } },
    defender: { units: { Destroyer: 3 } },
    note: "relic option voidShielding ('Metali Void Shielding'): once a volley one non-fighter ship without Sustain Damage sustains; the holder has no ship with the ability, so the fork's second sustain for such ships (known defect 4) cannot arise" },
  { case: '14b', title: '2 cruiser I + 2 destroyer I + Metali Void Shielding vs 2 dreadnought I', battleType: S,
    attacker: { units: { Cruiser: 2, Destroyer: 2 }, options: { voidShielding: true } },
    defender: { units: { Dreadnought: 2 } },
    note: 'as 14a, with ships of two kinds (destroyers are lost first)' },
  { case: '12a', title: 'X-89 Bacterial Weapon: 3 infantry vs 4 infantry', battleType: G, skip: true,
    note: 'NOT MAPPED: the fork does not model X-89 Bacterial Weapon (no option or code path)' },
  { case: '12b', title: 'Magen Defense Grid: 4 infantry vs 3 infantry + PDS', battleType: G, skip: true,
    note: 'NOT MAPPED: the fork does not model Magen Defense Grid (no option or code path)' },
  { case: '13a', title: 'baseline: 2 cruiser I vs 3 fighter I', battleType: S,
    attacker: { units: { Cruiser: 2 } }, defender: { units: { Fighter: 3 } }, note: 'plain units, factions Arborec' },
  { case: '13b', title: 'baseline: 3 infantry I vs 2 infantry I (ground)', battleType: G,
    attacker: { units: { Infantry: 3 } }, defender: { units: { Infantry: 2 } }, note: 'plain units' },
  { case: '13c', title: 'baseline: 1 infantry vs 1 infantry (ground); exact 0.21/0.51 = 0.41176...', battleType: G,
    attacker: { units: { Infantry: 1 } }, defender: { units: { Infantry: 1 } }, note: 'plain units' },
];


const clocks = process.env.PEER_CLOCK ? [process.env.PEER_CLOCK] : ['frozen', 'real'];
const results = [];
for (const c of CASES) {
  const base = { case: c.case, title: c.title, battleType: c.battleType };
  if (c.skip) { results.push({ ...base, attacker: null, defender: null, draw: null, exact: false, mapped: false, note: c.note }); continue; }
  const byClock = {};
  for (const clock of clocks) byClock[clock] = runCase(c, clock);
  const primary = byClock[clocks[0]];
  const missing = 1 - primary.terminal_mass;
  const r = {
    ...base, mapped: true,
    attacker: primary.attacker, defender: primary.defender, draw: primary.draw,
    exact: true,
    terminal_mass: primary.terminal_mass,
    normalized: { attacker: primary.attacker / primary.terminal_mass, defender: primary.defender / primary.terminal_mass, draw: primary.draw / primary.terminal_mass },
    avg_rounds: primary.avg_rounds,
    fleets_as_built: primary.fleets,
    note: c.note + `; method: exact dice convolution + Markov-chain propagation (no sampling); propagation run until ${missing.toExponential(2)} of mass is unassigned` + (clocks[0] === 'frozen' ? '; figures with frozen clock (no time-dependent pruning) and the stopping rule at 1 - 1e-13' : ''),
  };
  if (byClock.real && clocks[0] !== 'real') {
    const rc = byClock.real;
    r.as_shipped_real_clock = { attacker: rc.attacker, defender: rc.defender, draw: rc.draw, terminal_mass: rc.terminal_mass, ms: rc.ms,
      max_abs_diff_vs_primary: Math.max(Math.abs(rc.attacker - primary.attacker), Math.abs(rc.defender - primary.defender), Math.abs(rc.draw - primary.draw)) };
  }
  results.push(r);
}

const output = {
  repository: 'https://github.com/BarbarianMatt/ti4calcTE',
  commit: gitCommit(PEER_DIR),
  peer_dir: PEER_DIR,
  peer_files_sha256: filesSha256(SOURCES),
  source_note: process.env.PEER_SOURCE_NOTE || undefined,
  node: process.version,
  date: new Date().toISOString(),
  primary_clock: clocks[0],
  results,
};
process.stdout.write(JSON.stringify(output, null, 2) + '\n');

#!/usr/bin/env node
// ti4calcte_timing.mjs — reference figures for the action cards whose TIMING the project models
// (Emergency Repairs, Courageous to the End, Hardlight, Divinity, Lash), computed with the TI4
// calculator fork BarbarianMatt/ti4calcTE (its code is not in this repository: PEER_DIR holds a copy
// of its structs.js, game-elements.js and calculator.js at the commit the JSON names).
// Adapted from tests/combat/peer/ti4calcte_figures.mjs: same loading, same input building, same
// frozen clock and convergence rule; only the cases and the output shape differ.
//
// Usage:  node ti4calcte_timing.mjs PEER_DIR        (or PEER_DIR=/path node ti4calcte_timing.mjs)
// It prints one JSON object in the shape of tests/combat/peer/ti4calcte_figures.json: per case
// case (title), kind, attacker/defender (the project's syntax), peer {attacker, defender, draw} and
// terminal_mass (frozen clock, run to convergence: see fork.mjs), peer_ms (the real-clock run
// of the fork as shipped), plus loss_order (the fork's own loss order for each side, derived from its
// fleetSort/fillOutFleet on the fleets as built) and a note. Cases the fork cannot express are
// written as {"not_modelled": "<reason>"} (with, where the calculator would still accept the option,
// an informational figure under "forced_option_figure"). Cases on which the fork itself throws are
// written with "peer_error" instead of "peer" (plus "patched_informational": the figure with the one
// crashing expression neutralised, see DIVINITY_FIX; not the fork as shipped).
//   env PEER_CLOCK=frozen|real   (default: both are run; "frozen" is the primary figure)
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
// Card options are set directly on options.<side> (emergencyRepairs, courageous, divinity, lash:
// true; hardlight: a count, 1). calculator.js never reads the twilightsFall flag, so the Twilight's
// Fall cards (hardlight, divinity, lash) are honoured with twilightsFall=false and the default
// faction (Arborec: no starting units, abilities or options in game-elements.js; no faction test
// in calculator.js). In the fork's UI they are offered only in Twilight's Fall mode, and
// Emergency Repairs / Courageous only in standard mode (game-elements.js limitedToMode).
import path from 'node:path';
import { performance as hostPerf } from 'node:perf_hooks';
import { buildInput, converged, describeFleet, filesSha256, gitCommit, makeContext as forkContext, readFork, summarize } from './fork.mjs';

const PEER_DIR = path.resolve(process.argv[2] || process.env.PEER_DIR || './peer');
const SOURCES = readFork(PEER_DIR);
const CONVERGED = converged(SOURCES);  // the frozen-clock figures: see fork.mjs

// Divinity crash patch (used ONLY for the informational figure of a case on which the fork throws):
// in calculator.js getSustain (4 places, ~1926/1988/2043/2098) `unitTemp` is the return value of
// UnitInfo.update, which returns nothing, so `obj.label === unitTemp.label` throws whenever the first
// operand of the || is false. The patch makes that operand false instead of throwing; nothing else.
const DIVINITY_BUG = 'obj.label === unitTemp.label';
const DIVINITY_FIX = 'obj.label === (unitTemp && unitTemp.label)';
function patched(list) {
  return list.map(([f, src]) => [f, f === 'calculator.js' ? src.split(DIVINITY_BUG).join(DIVINITY_FIX) : src]);
}

function makeContext(clock, patch = false) {
  const sources = clock === 'frozen' ? CONVERGED : SOURCES;
  return forkContext(patch ? patched(sources) : sources, clock);
}

function runCase(spec, clock, patch = false) {
  const ctx = makeContext(clock, patch);
  const input = buildInput(ctx, spec);
  const fleets = { attacker: describeFleet(input.unitsFull.attacker), defender: describeFleet(input.unitsFull.defender) };
  const t0 = hostPerf.now();
  const out = ctx.calculator.computeProbabilities(input);
  const ms = hostPerf.now() - t0;
  return { ...summarize(out[0].distribution), ms: Math.round(ms), fleets, avg_rounds: out[0].accumulations?.rounds };
}

// ---- the cases -------------------------------------------------------------------------------
const S = 'Space', G = 'Ground';
const ER = { emergencyRepairs: true }, CTE = { courageous: true }, HL = { hardlight: 1 }, DIV = { divinity: true }, LASH = { lash: true };
const CASES = [
  { case: '1', kind: 'space', a: '2 dreadnought, 2 cruiser, emergency repairs', d: '4 cruiser, 2 destroyer', battleType: S,
    attacker: { units: { Dreadnought: 2, Cruiser: 2 }, options: ER }, defender: { units: { Cruiser: 4, Destroyer: 2 } },
    note: 'attacker holds Emergency Repairs (options.attacker.emergencyRepairs; sub-options Half/All off)' },
  { case: '2', kind: 'space', a: '3 cruiser', d: '2 dreadnought, 1 carrier, emergency repairs', battleType: S,
    attacker: { units: { Cruiser: 3 } }, defender: { units: { Dreadnought: 2, Carrier: 1 }, options: ER },
    note: 'defender holds Emergency Repairs' },
  { case: '3', kind: 'space', a: '2 cruiser, 3 destroyer, courageous to the end', d: '1 dreadnought, 3 cruiser', battleType: S,
    attacker: { units: { Cruiser: 2, Destroyer: 3 }, options: CTE }, defender: { units: { Dreadnought: 1, Cruiser: 3 } },
    note: 'attacker holds Courageous to the End (options.attacker.courageous)' },
  { case: '4', kind: 'space', a: '1 carrier, 3 fighter, 1 dreadnought', d: '4 destroyer, courageous to the end', battleType: S,
    attacker: { units: { Carrier: 1, Fighter: 3, Dreadnought: 1 } }, defender: { units: { Destroyer: 4 }, options: CTE },
    note: 'defender holds Courageous to the End; the defender destroyers\' AFB (9x2 each) fires at the fighters' },
  { case: '5', kind: 'space', a: '3 cruiser, 2 destroyer, hardlight', d: '2 dreadnought, 2 cruiser', battleType: S,
    attacker: { units: { Cruiser: 3, Destroyer: 2 }, options: HL }, defender: { units: { Dreadnought: 2, Cruiser: 2 } },
    note: 'attacker holds 1 Hardlight (options.attacker.hardlight = 1; a count, max 2)' },
  { case: '6', kind: 'space', a: '2 cruiser, 2 fighter', d: '1 dreadnought, 2 destroyer, hardlight', battleType: S,
    attacker: { units: { Cruiser: 2, Fighter: 2 } }, defender: { units: { Dreadnought: 1, Destroyer: 2 }, options: HL },
    note: 'defender holds 1 Hardlight; the defender destroyers\' AFB fires at the fighters' },
  { case: '7', kind: 'space', a: '2 dreadnought, 1 carrier, divinity', d: '5 cruiser', battleType: S,
    attacker: { units: { Dreadnought: 2, Carrier: 1 }, options: DIV }, defender: { units: { Cruiser: 5 } },
    note: 'attacker holds Divinity (options.attacker.divinity)' },
  { case: '8', kind: 'space', a: '3 cruiser', d: '1 dreadnought, 2 destroyer, divinity', battleType: S,
    attacker: { units: { Cruiser: 3 } }, defender: { units: { Dreadnought: 1, Destroyer: 2 }, options: DIV },
    note: 'defender holds Divinity' },
  { case: '9', kind: 'space', a: '1 dreadnought, 3 cruiser, lash', d: '2 dreadnought, 2 destroyer', battleType: S,
    attacker: { units: { Dreadnought: 1, Cruiser: 3 }, options: LASH }, defender: { units: { Dreadnought: 2, Destroyer: 2 } },
    note: 'attacker holds Lash (options.attacker.lash)' },
  { case: '10', kind: 'space', a: '4 destroyer', d: '1 carrier, 2 cruiser, lash', battleType: S,
    attacker: { units: { Destroyer: 4 } }, defender: { units: { Carrier: 1, Cruiser: 2 }, options: LASH },
    note: 'defender holds Lash' },
  { case: '11', kind: 'ground', a: '4 infantry, divinity', d: '2 infantry, 1 mech', battleType: G,
    attacker: { units: { Infantry: 4 }, options: DIV }, defender: { units: { Infantry: 2, Mech: 1 } },
    note: 'attacker holds Divinity (no battle-type limit on the option)' },
  { case: '12', kind: 'ground', a: '3 infantry, 1 mech', d: '4 infantry, lash', battleType: G,
    attacker: { units: { Infantry: 3, Mech: 1 } }, defender: { units: { Infantry: 4 }, options: LASH },
    notModelled: "Lash is a space-combat-only option in the fork: game-elements.js (ActionCards.lash) has limitedToBattle: BattleType.Space, so the UI never offers it in a ground combat. calculator.js's lash death effect does not itself test the battle type, so forcing options.defender.lash=true in a ground combat still runs; that figure is given under forced_option_figure for information only",
    note: 'defender holds Lash' },
  { case: '13', kind: 'ground', a: '5 infantry, hardlight', d: '3 infantry, 1 mech', battleType: G,
    attacker: { units: { Infantry: 5 }, options: HL }, defender: { units: { Infantry: 3, Mech: 1 } },
    note: 'attacker holds 1 Hardlight (no battle-type limit on the option)' },
  { case: '14', kind: 'ground', a: '2 mech, 2 infantry, emergency repairs', d: '5 infantry', battleType: G,
    attacker: { units: { Mech: 2, Infantry: 2 }, options: ER }, defender: { units: { Infantry: 5 } },
    note: 'attacker holds Emergency Repairs (no battle-type limit on the option)' },
  { case: '15', kind: 'space', a: '2 dreadnought, 2 cruiser, emergency repairs, courageous to the end', d: '3 cruiser, 2 destroyer, hardlight', battleType: S,
    attacker: { units: { Dreadnought: 2, Cruiser: 2 }, options: { ...ER, ...CTE } }, defender: { units: { Cruiser: 3, Destroyer: 2 }, options: HL },
    note: 'attacker holds Emergency Repairs and Courageous to the End, defender 1 Hardlight. The fork\'s UI cannot combine them (ER/Courageous are limitedToMode standard, Hardlight limitedToMode twilight); calculator.js applies all three when set directly' },
  { case: '16', kind: 'space', a: '2 dreadnought, 2 cruiser', d: '4 cruiser, 2 destroyer', battleType: S,
    attacker: { units: { Dreadnought: 2, Cruiser: 2 } }, defender: { units: { Cruiser: 4, Destroyer: 2 } },
    note: 'no card: the baseline for case 1' },
];

// ---- the fork's loss order for a side, as built ---------------------------------------------
// calculator.js assignHitsStep.findUnit takes units from the END of the side's array; the array is
// kept in game-elements.js fleetSort order after fillOutFleet has appended one damage ghost per
// Sustain Damage unit. So the loss order is the reverse of the sorted array.
// The project's default order as stated for this comparison: every Sustain Damage before any loss,
// then fighters, infantry, destroyers, cruisers, carriers, ..., dreadnoughts last. Mechs are not
// placed in that statement; they are only compared here against infantry (ground), mechs after.
const PROJECT_RANK = { fighter: 1, infantry: 2, destroyer: 3, cruiser: 4, carrier: 5, mech: 6, dreadnought: 9 };
function agreesWithProject(order) {
  const items = order.split(', ');
  let rank = 0;
  for (const it of items) {
    const r = it.startsWith('sustain(') ? 0 : PROJECT_RANK[it];
    if (r === undefined || r < rank) return false;
    rank = r;
  }
  return true;
}

function lossOrder(ctx, spec) {
  const input = buildInput(ctx, spec);
  const out = {};
  for (const side of ['attacker', 'defender']) {
    const fleet = input.unitsFull[side].map(u => u.clone());
    const [participating] = ctx.filterFleet(fleet, input.battleType, side, input.options[side]);
    ctx.fillOutFleet(participating, input.battleType, input.options[side]);
    const names = participating.slice().reverse().map(u => (u.isDamageGhost ? 'sustain(' : '') + u.type.toLowerCase() + (u.isDamageGhost ? ')' : ''));
    out[side] = names.join(', ');
  }
  out.agrees_with_project_default = agreesWithProject(out.attacker) && agreesWithProject(out.defender);
  return out;
}


function clock_note(cl) { return (cl.length > 1 ? 'clocks ' : 'clock ') + cl.join(' and '); }
const clocks = process.env.PEER_CLOCK ? [process.env.PEER_CLOCK] : ['frozen', 'real'];
const results = [];
for (const c of CASES) {
  const base = { case: c.case, kind: c.kind, attacker: c.a, defender: c.d };
  const lo = lossOrder(makeContext('frozen'), c);
  const byClock = {};
  let failure; const failedClocks = [];
  for (const clock of clocks) {
    try { byClock[clock] = runCase(c, clock); }
    catch (e) { failedClocks.push(clock); failure = `${e.name}: ${e.message}, at ${(e.stack || '').split('\n').slice(1, 4).map(x => x.trim().replace(/^at /, '')).join(' <- ')}`; }
  }
  if (failure) {
    const r = { ...base, peer_error: 'the fork throws on this input (' + clock_note(failedClocks) + '): ' + failure };
    try {
      const pf = runCase(c, 'frozen', true);
      const pr = clocks.includes('real') ? runCase(c, 'real', true) : undefined;
      r.patched_informational = {
        what: `NOT the fork as shipped: calculator.js with '${DIVINITY_BUG}' replaced by '${DIVINITY_FIX}' (4 places in getSustain), so the Divinity check no longer throws; everything else unchanged`,
        peer: { attacker: pf.attacker, defender: pf.defender, draw: pf.draw }, terminal_mass: pf.terminal_mass, peer_ms: pr ? pr.ms : null,
      };
    } catch (e) { r.patched_informational = { error: `${e.name}: ${e.message}` }; }
    r.loss_order = lo; r.note = c.note;
    results.push(r);
    continue;
  }
  const primary = byClock[clocks[0]];
  const fig = { attacker: primary.attacker, defender: primary.defender, draw: primary.draw };
  const r = { ...base };
  if (c.notModelled) {
    r.not_modelled = c.notModelled;
    r.forced_option_figure = { peer: fig, terminal_mass: primary.terminal_mass, peer_ms: byClock.real ? byClock.real.ms : null };
  } else {
    r.peer = fig;
    r.terminal_mass = primary.terminal_mass;
    r.peer_ms = byClock.real ? byClock.real.ms : null;
  }
  r.loss_order = lo;
  r.avg_rounds = primary.avg_rounds;
  r.fleets_as_built = primary.fleets;
  if (byClock.real && clocks[0] !== 'real') {
    const rc = byClock.real;
    r.as_shipped_real_clock = { attacker: rc.attacker, defender: rc.defender, draw: rc.draw, terminal_mass: rc.terminal_mass,
      max_abs_diff_vs_primary: Math.max(Math.abs(rc.attacker - primary.attacker), Math.abs(rc.defender - primary.defender), Math.abs(rc.draw - primary.draw)) };
  }
  r.note = c.note + `; exact dice convolution + Markov-chain propagation (no sampling); ${(1 - primary.terminal_mass).toExponential(2)} of mass unassigned` + (clocks[0] === 'frozen' ? ' (frozen clock, stopping rule 1 - 1e-13)' : '');
  results.push(r);
}

const output = {
  about: "Win, loss and draw chances computed by the exact calculator fork BarbarianMatt/ti4calcTE (JavaScript) for fights with the action cards Emergency Repairs, Courageous to the End, Hardlight, Divinity and Lash, by ti4calcte_timing.mjs (adapted from tests/combat/peer/ti4calcte_figures.mjs) run on a copy of the fork's calculation files (structs.js, game-elements.js, calculator.js) with its clock frozen (its time-based pruning off) and its propagation run until all but 1e-13 of the probability has reached an end (the fork as shipped stops at 99.99 %: the script replaces that one number before loading, nothing else). terminal_mass is the share that reached an end; peer_ms times the fork as shipped (its own stopping rule, real clock). Default units (no upgrades), faction Arborec (no abilities). loss_order lists, per side, the order in which the fork assigns hits (first lost first; sustain(x) = the Sustain Damage of an x). See SEMANTICS.md for how each card is modelled.",
  repository: 'https://github.com/BarbarianMatt/ti4calcTE',
  commit: gitCommit(PEER_DIR),
  files_sha256: filesSha256(SOURCES),
  source_note: process.env.PEER_SOURCE_NOTE || undefined,
  node: process.version,
  date: new Date().toISOString().slice(0, 10),
  primary_clock: clocks[0],
  cases: results,
};
process.stdout.write(JSON.stringify(output, null, 1) + '\n');

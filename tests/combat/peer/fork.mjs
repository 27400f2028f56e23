// fork.mjs — what the scripts that run the calculator fork BarbarianMatt/ti4calcTE share: reading its
// three calculation files (structs.js, game-elements.js, calculator.js) from PEER_DIR (they are not
// in this repository), loading them into one node:vm context the way the browser page does, and
// building its input the way its index.js (Vue app) does. Used by ti4calcte_figures.mjs,
// ti4calcte_timing.mjs and bench/peer_time.mjs.
//
// The context's global object doubles as `window` (the page loads the files as plain <script> tags
// sharing window). Shims: console.log/info/debug silenced (the fork logs its whole state map on
// every run), warn/error to stderr; structuredClone (host); performance.now, the real clock or, for
// `clock === 'frozen'`, one that returns 0 (the fork prunes by elapsed time).
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import crypto from 'node:crypto';
import { execSync } from 'node:child_process';
import { performance as hostPerf } from 'node:perf_hooks';

export const FILES = ['structs.js', 'game-elements.js', 'calculator.js'];
// The fork stops propagating once 99.99 % of the probability has reached an end (calculator.js,
// computeProbabilities' last loop): its figures are then lower bounds up to 1e-4 below the truth.
// converged() replaces that one number by 1 - 1e-13 before loading, so the same loop runs until
// the remainder is negligible (still at most its 1200 passes) and figures compare to 1e-9.
const STOP_AS_SHIPPED = 'sum + (states.get(key)?.prob || 0), 0) < 0.9999); it++)';
const STOP_CONVERGED = 'sum + (states.get(key)?.prob || 0), 0) < 1 - 1e-13); it++)';

// The fork's files in `dir`, as [name, source] pairs (exits with a sentence when one is missing).
export function readFork(dir) {
  for (const f of FILES) {
    if (!fs.existsSync(path.join(dir, f))) {
      console.error(`missing ${f} in ${dir}`); process.exit(2);
    }
  }
  return FILES.map(f => [f, fs.readFileSync(path.join(dir, f), 'utf8')]);
}

// The same files with the stopping rule run to convergence (see STOP_CONVERGED); nothing else changed.
export function converged(sources) {
  return sources.map(([f, src]) => {
    if (f !== 'calculator.js') return [f, src];
    if (src.split(STOP_AS_SHIPPED).length !== 2) { console.error('the stopping rule was not found once in calculator.js'); process.exit(2); }
    return [f, src.replace(STOP_AS_SHIPPED, STOP_CONVERGED)];
  });
}

export function filesSha256(sources) {
  return Object.fromEntries(sources.map(([f, src]) => [f, crypto.createHash('sha256').update(src).digest('hex')]));
}

export function gitCommit(dir) {
  try { return execSync('git rev-parse HEAD', { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim(); }
  catch { return process.env.PEER_COMMIT || 'unknown'; }
}

// A fresh context holding these sources; `clock` 'frozen' or 'real'.
export function makeContext(sources, clock = 'real') {
  const quiet = () => {};
  const sandbox = {
    console: { log: quiet, info: quiet, debug: quiet, trace: quiet,
               warn: (...a) => process.stderr.write('[peer warn] ' + a.map(String).join(' ') + '\n'),
               error: (...a) => process.stderr.write('[peer error] ' + a.map(String).join(' ') + '\n') },
    structuredClone: globalThis.structuredClone,
    performance: clock === 'frozen' ? { now: () => 0 } : { now: () => hostPerf.now() },
  };
  const ctx = vm.createContext(sandbox);
  vm.runInContext('var window = globalThis;', ctx);
  for (const [name, src] of sources) vm.runInContext(src, ctx, { filename: name });
  return ctx;
}

// ---- the calculator input, built exactly like index.js does -----------------------------------
// getDefaultInput() + setFactionDefaults() + the updateUnitsVersion / switchUpgrade / updateUnitsFull
// watchers. `spec`: { battleType, attacker: {faction, units, upgraded, unitOptions, abilities,
// options}, defender: {...} }.
export function buildInput(ctx, spec) {
  const W = ctx; // window
  const input = {
    battleType: spec.battleType,
    units: { attacker: {}, defender: {} },
    options: { attacker: { faction: spec.attacker.faction || W.Faction.Arborec },
               defender: { faction: spec.defender.faction || W.Faction.Arborec } },
    unitsVersion: { attacker: {}, defender: {} },
    unitsCanon: { attacker: {}, defender: {} },
    unitsFull: { attacker: [], defender: [] },
    twilightsFall: false,
  };
  // getDefaultInput(): every option of every group at its default
  for (const group of W.Everything) {
    for (const optionName in group) {
      const option = group[optionName];
      for (const side of ['attacker', 'defender']) {
        if (option.under === undefined) input.options[side][optionName] = option.default;
        else {
          if (input.options[side][option.under] === undefined) input.options[side][option.under] = {};
          input.options[side][option.under][optionName] = option.default;
        }
      }
    }
  }
  input.options.attacker.maxSpend = 0;
  input.options.defender.maxSpend = 0;

  for (const side of ['attacker', 'defender']) {
    for (const unitType in W.UnitType) {
      input.units[side][unitType] = { count: 0, upgraded: false, damaged: 0 };
      const up = W.StandardUpgrades[unitType];
      input.unitsVersion[side][unitType] = {
        base: { name: 'standard', unit: W.StandardUnits[unitType].clone() },
        upgraded: { name: up ? 'standardUpgrade' : undefined, unit: up ? up.clone() : undefined },
      };
      const v = input.unitsVersion[side][unitType];
      v.upgraded.unit = v.upgraded.unit ? v.upgraded.unit : v.base.unit;
    }
    // setFactionDefaults(side, faction)
    const faction = input.options[side].faction;
    for (const tech of (W.startingOptions[faction] || [])) input.options[side][tech] = true;
    for (const k in input.options[side].units) input.options[side].units[k] = false;
    for (const k of (W.startingUnits[faction] || [])) input.options[side].units[k] = true;
    for (const k in input.options[side].abilities) input.options[side].abilities[k] = false;
    for (const k of (W.startingAbilities[faction] || [])) input.options[side].abilities[k] = true;
    if (faction === W.Faction.Neutral) {
      for (const t of ['Dreadnought', 'Carrier', 'Cruiser', 'Destroyer', 'Fighter']) input.units[side][t].upgraded = true;
    }
    const s = spec[side];
    // extra unit choices (options.<side>.units.*) and other options (options.<side>.*)
    for (const [k, v] of Object.entries(s.unitOptions || {})) input.options[side].units[k] = v;
    for (const [k, v] of Object.entries(s.abilities || {})) input.options[side].abilities[k] = v;
    for (const [k, v] of Object.entries(s.options || {})) input.options[side][k] = v;
    // updateUnitsVersion watcher: selected unique units replace the base / upgraded sheet of their type
    for (const [unitName, on] of Object.entries(input.options[side].units)) {
      if (!on || !W.UniqueUnits[unitName]) continue;
      const isUpgrade = Object.prototype.hasOwnProperty.call(W.UniqueUnitUpgradesOptions, unitName);
      const isBase = Object.prototype.hasOwnProperty.call(W.UniqueUnitsOptions, unitName);
      if (!isUpgrade && !isBase) continue;
      const unitType = W.UniqueUnits[unitName].type;
      const slot = isUpgrade ? 'upgraded' : 'base';
      input.unitsVersion[side][unitType][slot].unit = W.UniqueUnits[unitName].clone();
      input.unitsVersion[side][unitType][slot].name = unitName;
    }
    // unit counts / upgraded flags, then switchUpgrade -> unitsCanon
    for (const [t, n] of Object.entries(s.units || {})) input.units[side][t].count = n;
    for (const [t, u] of Object.entries(s.upgraded || {})) input.units[side][t].upgraded = u;
    for (const unitType in W.UnitType) {
      const v = input.unitsVersion[side][unitType];
      input.unitsCanon[side][unitType] = input.units[side][unitType].upgraded ? (v.upgraded.unit || v.base.unit) : v.base.unit;
    }
    // updateUnitsFullAll: build the concrete unit list
    for (const unitType in W.UnitType) {
      const c = input.units[side][unitType];
      W.addUnit(unitType, c.count, input.unitsFull[side], input.battleType, input.unitsCanon[side], input.options[side], c.damaged);
    }
  }
  return input;
}

export function summarize(distribution) {
  let a = 0, d = 0;
  for (let i = distribution.min; i < 0; i++) a += distribution.at(i);
  for (let i = 1; i <= distribution.max; i++) d += distribution.at(i);
  const draw = distribution.at(0);
  return { attacker: a, defender: d, draw, terminal_mass: a + d + draw };
}

export function describeFleet(list) {
  return list.map(u => `${u.type}(${u.battleValue}x${u.battleDice}${u.sustainDamage ? ',sustain' : ''}${u.barrageDice ? `,AFB ${u.barrageValue}x${u.barrageDice}` : ''}${u.spaceCannonDice ? `,SC ${u.spaceCannonValue}x${u.spaceCannonDice}` : ''}${u.typeShip && u.typeGroundForce ? ',ship+ground' : ''}${u.abilities.length ? ',' + u.abilities.join('/') : ''})`).join(' ');
}

"""Combat dice: plays a fight (tabletop.combat.battle) with seeded dice, so a battle can be replayed
from its seed, and records every die and which unit took each hit. The exact odds
(tabletop.combat.odds) follow the same rules and the same loss policy, state by state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tabletop.combat.battle import (
    ATTACKER,
    DEFENDER,
    MAX_ROUNDS,
    Fight,
    destroying,
    galvanized_cancels,
    other,
    takes_all_ships,
    without_ships,
)
from tabletop.combat.model import SideModel, State, after_doom
from tabletop.combat.played import CARDS, moment
from tabletop.combat.units import Side
from tabletop.core.dice import MAX_DICE, Dice
from tabletop.core.errors import UserError
from tabletop.core.i18n import t

__all__ = ["ATTACKER", "DEFENDER", "Battle", "Volley", "resolve", "play_round"]


@dataclass
class DieRoll:
    unit: str
    needs: int  # the unit's value
    roll: int
    modifier: int
    hit: bool
    hits: int = 1
    rerolled: bool = False  # this die rolls again a miss just before it (Fire Team)

    def as_dict(self) -> dict:
        out = {"unit": self.unit, "needs": self.needs, "roll": self.roll, "modifier": self.modifier, "hit": self.hit}
        return {**out, "reroll": True} if self.rerolled else out


@dataclass
class HitTaken:
    unit: str
    result: str  # "sustained" | "destroyed" | "repaired"

    def as_dict(self) -> dict:
        return {"unit": self.unit, "result": self.result}


@dataclass
class Volley:
    """One side's roll and what the hits did to the other side."""

    side: str  # who rolled: attacker | defender
    kind: (
        str  # combat | bombardment | space_cannon_offense | space_cannon_defense | anti_fighter_barrage | harrow | valkyrie | ...
    )
    dice: list[DieRoll] = field(default_factory=list)
    hits: int = 0
    taken: list[HitTaken] = field(default_factory=list)
    excess: int = 0  # hits with nothing left to hit (79.2)
    blocked: str = ""  # why no roll happened (a planetary shield, 86)
    said: str = ""  # a card played: what it did (its dice, if any, above)

    def as_dict(self) -> dict:
        d = {
            "side": self.side,
            "kind": self.kind,
            "dice": [x.as_dict() for x in self.dice],
            "hits": self.hits,
            "taken": [x.as_dict() for x in self.taken],
            "excess": self.excess,
        }
        if self.blocked:
            d["blocked"] = self.blocked
        if self.said:
            d["said"] = self.said
        return d


@dataclass
class Round:
    number: int
    volleys: list[Volley] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"round": self.number, "volleys": [v.as_dict() for v in self.volleys]}


@dataclass
class Battle:
    kind: str  # space | ground | bombard | invade
    seed: int
    steps: list[Round] = field(default_factory=list)  # rounds; step 0 holds pre-combat volleys
    attacker: Side | None = None
    defender: Side | None = None
    winner: str | None = None  # attacker | defender | draw | None (no combat took place)
    control: str | None = None  # attacker | defender (invasion, 75.5)
    combat: bool = True  # False when no combat round took place (invasion)
    retreated: str | None = None
    notes: list[str] = field(default_factory=list)
    stopped: bool = False  # stopped after MAX_ROUNDS
    stopped_after: int | None = None  # stopped after the rounds the players asked for, both sides left
    odds: dict | None = None  # the exact odds before the dice, when computed
    effects: dict[str, list[str]] = field(default_factory=dict)  # named effects per side, for the log
    content: str = "pok"  # the content the table plays, said with the result

    def survivors(self, side: Side | None) -> list[str]:
        if side is None:
            return []
        return [u.label() + (" (damaged)" if u.damaged else "") for u in side.units]

    def as_dict(self) -> dict:
        out = {
            "kind": self.kind,
            "seed": self.seed,
            "rounds": [r.as_dict() for r in self.steps],
            "survivors": {ATTACKER: self.survivors(self.attacker), DEFENDER: self.survivors(self.defender)},
            "winner": self.winner,
            "control": self.control,
            "combat": self.combat,
            "notes": self.notes,
            "stopped": self.stopped,
            "content": self.content,
            **({"stopped_after": self.stopped_after} if self.stopped_after else {}),
        }
        if self.retreated:
            out["retreated"] = self.retreated
        if self.odds is not None:
            out["odds"] = self.odds
        return out


# --- one round, shared with the odds ------------------------------------------------------------


@dataclass
class RoundResult:
    a: State
    d: State
    events: dict[str, list[tuple[str, list[tuple[int, str]]]]]  # side hit -> [(cause, events)]
    repaired: dict[str, list[int]]


def play_round(
    fight: Fight,
    ma: SideModel,
    md: SideModel,
    sa: State,
    sd: State,
    ha: int,
    hd: int,
    harrow: int,
    directed: tuple[int, int] = (0, 0),
) -> RoundResult:
    """The deterministic rest of a round once the dice are known: answering hits (Particle
    Weave), assignment at the same time (70.2), Valkyrie hits until no new ones, Harrow, repairs.
    `directed`: how many of the attacker's and of the defender's hits must go to non-fighters
    (the L1Z1X flagship; included in ha and hd)."""
    if fight.answering(ATTACKER) and hd > 0:
        ha += 1
    if fight.answering(DEFENDER) and ha > 0:
        hd += 1
    events: dict[str, list] = {ATTACKER: [], DEFENDER: []}
    na, ev_a, _ = ma.consume(sa, hd - directed[1], directed[1])
    nd, ev_d, _ = md.consume(sd, ha - directed[0], directed[0])
    events[ATTACKER].append(("combat", ev_a))
    events[DEFENDER].append(("combat", ev_d))
    counter_a, counter_d = ma.sustains_by(ev_a, "valkyrie"), md.sustains_by(ev_d, "valkyrie")
    while counter_a or counter_d:  # Valkyrie Exoskeleton: a hit for each sustain, until none arise
        nd, ev, _ = md.consume(nd, counter_a) if counter_a else (nd, [], 0)
        na, ev2, _ = ma.consume(na, counter_d) if counter_d else (na, [], 0)
        if ev:
            events[DEFENDER].append(("valkyrie", ev))
        if ev2:
            events[ATTACKER].append(("valkyrie", ev2))
        counter_a, counter_d = ma.sustains_by(ev2, "valkyrie"), md.sustains_by(ev, "valkyrie")
    if harrow and not md.gone(nd):
        destroys = fight.bombardment_destroys()  # Conventions of War Abandoned
        if destroys > 1:
            harrow = destroying(harrow, md.undamaged_sustains(nd), destroys)
        nd, ev, _ = md.consume(nd, harrow)
        events[DEFENDER].append(("harrow", ev))
    all_a = [e for _, evs in events[ATTACKER] for e in evs]
    all_d = [e for _, evs in events[DEFENDER] for e in evs]
    na, rep_a = ma.repair(sa, na, all_a)
    nd, rep_d = md.repair(sd, nd, all_d)
    return RoundResult(na, nd, events, {ATTACKER: rep_a, DEFENDER: rep_d})


# --- the dice -----------------------------------------------------------------------------------


def _roll_round(
    fight: Fight,
    name: str,
    model: SideModel,
    state: State,
    opponent: SideModel,
    opp_state: State,
    number: int,
    dice: Dice,
    volley: Volley,
) -> tuple[int, int]:
    """A side's combat roll in a round: (hits, of which directed). Dice whose hits are directed
    (the L1Z1X flagship) are rolled first."""
    spec = fight.round_dice(name, model, state, opponent, opp_state, number)
    directs = fight.directed(model, state)
    if directs is None:
        return _roll(spec, dice, volley), 0
    directed = _roll([x for x in spec if directs(x[0])], dice, volley)
    return _roll([x for x in spec if not directs(x[0])], dice, volley), directed


def _roll(dice_spec, dice: Dice, volley: Volley) -> int:
    for who, value, die in dice_spec:
        label = who if isinstance(who, str) else who.label()
        roll = dice.roll()
        hits = die.hits(roll)
        if not hits and die.reroll:  # a miss is rolled once more (Fire Team), both in the log
            volley.dice.append(DieRoll(label, value, roll, value - die.needs, False, 0))
            roll = dice.roll()
            hits = die.hits(roll)
            volley.dice.append(DieRoll(label, value, roll, value - die.needs, hits > 0, hits, rerolled=True))
        else:
            volley.dice.append(DieRoll(label, value, roll, value - die.needs, hits > 0, hits))
        volley.hits += hits
    return volley.hits


def _taken(model: SideModel, events: list[tuple[int, str]]) -> list[HitTaken]:
    return [HitTaken(model.units[i].label(), kind) for i, kind in events]


def check_dice(fight: Fight) -> None:
    """Refuse a battle that would roll more dice at once than we allow, or that cannot end."""
    for name in (ATTACKER, DEFENDER):
        side = fight.side(name)
        total = sum(u.dice for u in fight.participants(side, name) if u.combat is not None)
        if total > MAX_DICE:
            raise UserError(t("combat.too_many_dice", field=name, count=total, limit=MAX_DICE))


def resolve(fight: Fight, dice: Dice) -> Battle:
    """Play the fight with these dice."""
    check_dice(fight)
    battle = Battle(fight.kind, dice.seed, notes=list(fight.notes), content=fight.content)
    ships = fight.ships.effect_names if fight.ships else []
    battle.effects = {
        ATTACKER: list(dict.fromkeys(ships + fight.attacker.effect_names)),
        DEFENDER: list(fight.defender.effect_names),
    }
    a, d = fight.attacker.copy(), fight.defender.copy()
    pre = Round(0)
    for build in fight.stages():
        attack = build(a, d)
        if attack is None:
            continue
        if attack.blocked:
            pre.volleys.append(Volley(attack.shooter, attack.kind, blocked=attack.blocked))
            continue
        volley = Volley(attack.shooter, attack.kind)
        hits = _roll(attack.dice, dice, volley) + attack.fixed
        volley.hits = hits
        pre.volleys.append(volley)
        way, events, volley.excess = moment.volley(fight, attack, a, d, hits, _dice_roll(dice, pre))[0]
        volley.taken = [HitTaken(unit.label(), result) for unit, result in events]
        a, d = way.attacker, way.defender
        _log_cards(pre, way, fight)
        if takes_all_ships(events):
            a, d = without_ships(a), without_ships(d)
            battle.notes.append(t("combat.yin_flagship"))
    a, d = fight.for_rounds(a, d)
    started = moment.at_start(fight.kind, a, d)  # Emergency Repairs on units damaged before the rounds
    if started is not None:
        a, d = started.attacker, started.defender
        _log_cards(pre, started, fight)
    if pre.volleys:
        battle.steps.append(pre)
    battle.attacker, battle.defender = a, d
    if fight.has_rounds():
        _rounds(moment.going_on(fight, a, d), a, d, dice, battle)
    if fight.kind == "invade":
        _control(fight, battle)
    return battle


def _rounds(fight: Fight, a: Side, d: Side, dice: Dice, battle: Battle) -> None:
    ma, md = fight.models(a, d)
    sa, sd = ma.start, md.start
    if ma.gone(sa) or md.gone(sd):
        battle.combat = False
        battle.winner = None if fight.kind == "invade" else outcome(ma.gone(sa), md.gone(sd))
        return
    if not can_ever_hit(fight, fight.opening_dice(ma, md)):
        raise UserError(t("combat.nobody_hits"))
    fa, fd = ma.facing(md, sd), md.facing(ma, sa)
    (sa, first_a), (sd, first_d) = fa.rebuild(sa, first=True), fd.rebuild(sd, first=True)  # the first round starts
    number = 0
    played = 0  # the round of the last card played: the fight since is moment.resumed's, counted from it
    while not ma.gone(sa) and not md.gone(sd):
        if number >= MAX_ROUNDS:
            battle.stopped = True
            battle.notes.append(t("combat.stopped", rounds=MAX_ROUNDS))
            break
        number += 1
        rnd = Round(number)
        for side_name, model, unit in ((ATTACKER, ma, first_a), (DEFENDER, md, first_d)):
            if number == 1 and unit is not None:
                rnd.volleys.append(Volley(side_name, "repair", taken=[HitTaken(model.units[unit].label(), "repaired")]))
        sa, sd = _proxima(fight, ma.facing(md, sd), md.facing(ma, sa), sa, sd, dice, rnd)
        if ma.gone(sa) or md.gone(sd):  # the bombardment ended it before the dice
            battle.steps.append(rnd)
            break
        fa, fd = _regained(battle, ma, md, sa, sd, fa, fd)
        local = number - played
        va, vd = (Volley(name, "combat", blocked=_silenced(fight, name, local)) for name in (ATTACKER, DEFENDER))
        ha, directed_a = _roll_round(fight, ATTACKER, fa, sa, fd, sd, local, dice, va)
        hd, directed_d = _roll_round(fight, DEFENDER, fd, sd, fa, sa, local, dice, vd)
        ha, hd, spent = _cancelled(fight, ha, hd, local, rnd, (fa, fd), (sa, sd))
        harrow_attack = fight.harrow(d)
        harrow_volley = None
        harrow = 0
        if harrow_attack is not None:
            harrow_volley = Volley(ATTACKER, "harrow", blocked=harrow_attack.blocked)
            if not harrow_attack.blocked:
                harrow = _roll(harrow_attack.dice, dice, harrow_volley)
        directed = (min(directed_a, ha), min(directed_d, hd))
        result = play_round(fight, fa, fd, sa, sd, ha, hd, harrow, directed)
        if (directed_a or directed_d) and t("combat.directed_hits") not in battle.notes:
            battle.notes.append(t("combat.directed_hits"))
        _log_round(rnd, result, va, vd, harrow_volley, ma, md)
        before = (sa, sd)
        sa, sd, doomed = after_doom(fa, fd, result.a, result.d)
        if doomed:
            battle.notes.append(t("combat.yin_flagship"))
        battle.steps.append(rnd)
        cards = (
            moment.after_round(fight, (fa, fd), before, (sa, sd), local, spent, _dice_roll(dice, rnd))
            if moment.holds(fa.side, fd.side)
            else None
        )
        if cards:  # the fight goes on as the fight of the sides the cards left
            _log_cards(rnd, cards[0], fight)
            fight, played = moment.resumed(fight, cards[0].attacker, cards[0].defender, local), number
            a, d = fight.attacker, fight.defender
            ma, md = fight.models(a, d)
            sa, sd = ma.start, md.start
            fa, fd = ma.facing(md, sd), md.facing(ma, sa)
        if fight.retreat and fight.retreat[1] == number - played:
            who = fight.retreat[0]
            model, state = (ma, sa) if who == ATTACKER else (md, sd)
            if not model.gone(state) and not (ma.gone(sa) or md.gone(sd)):
                battle.retreated = who
                battle.notes.append(t("combat.retreats", side=t(f"combat.{who}"), n=number))
                break
        if fight.stop_after == number - played and not (ma.gone(sa) or md.gone(sd)):
            battle.stopped_after = number
            battle.notes.append(t("combat.stopped_as_asked", n=number))
            break
    _apply(fa, sa, a)
    _apply(fd, sd, d)
    battle.attacker, battle.defender = a, d
    battle.winner = other(battle.retreated) if battle.retreated else outcome(ma.gone(sa), md.gone(sd))


def _log_round(
    rnd: Round, result: RoundResult, va: Volley, vd: Volley, harrow_volley: Volley | None, ma: SideModel, md: SideModel
) -> None:
    """A round's volleys in the log: the combat rolls and what they hit, Valkyrie's, Harrow's,
    and the repairs at its end."""
    for volley, hit_side, model in ((va, DEFENDER, md), (vd, ATTACKER, ma)):
        combat_events = result.events[hit_side][0][1]
        volley.taken = _taken(model, combat_events)
        rnd.volleys.append(volley)
    for hit_side, model in ((DEFENDER, md), (ATTACKER, ma)):
        for cause, evs in result.events[hit_side][1:]:
            if cause == "valkyrie":
                rnd.volleys.append(Volley(other(hit_side), "valkyrie", hits=len(evs), taken=_taken(model, evs)))
    if harrow_volley is not None:
        harrow_events = [evs for cause, evs in result.events[DEFENDER] if cause == "harrow"]
        harrow_volley.taken = _taken(md, harrow_events[0]) if harrow_events else []
        rnd.volleys.append(harrow_volley)
    for side_name, model in ((ATTACKER, ma), (DEFENDER, md)):
        repaired = result.repaired[side_name]
        if repaired:
            taken = [HitTaken(model.units[index].label(), "repaired") for index in repaired]
            rnd.volleys.append(Volley(side_name, "repair", taken=taken))


def _cancelled(
    fight: Fight, ha: int, hd: int, number: int, rnd: Round, models: tuple[SideModel, SideModel], states: tuple[State, State]
) -> tuple[int, int, dict[str, str]]:
    """Both sides' hits once a card cancels some before they are assigned (Hardlight), said in
    the log, and the cards played so: side -> card."""
    spent: dict[str, str] = {}
    out = {ATTACKER: hd, DEFENDER: ha}  # the hits each side takes
    for name, model, state in zip((ATTACKER, DEFENDER), models, states):

        def wipes(hits: int, model: SideModel = model, state: State = state) -> bool:
            return model.gone(model.consume(state, hits)[0])

        left, card = moment.cancelled(model.side, fight.kind, out[name], number, wipes)
        if card is not None:
            said = t("combat.played.cancelled", card=moment.label(fight.side(name), card), hits=out[name] - left)
            rnd.volleys.append(Volley(name, "played", said=said))
            out[name], spent[name] = left, card
    return out[DEFENDER], out[ATTACKER], spent


def _dice_roll(dice: Dice, rnd: Round):
    """A card's own dice (Courageous to the End) rolled, in the log: the hits they made."""

    def roll(card_dice: tuple) -> list[tuple[int, float]]:
        volley = Volley(ATTACKER, "played")
        hits = _roll([("", die.needs, die) for die in card_dice], dice, volley)
        rnd.volleys.append(volley)
        return [(hits, 1.0)]

    return roll


def _log_cards(rnd: Round, played: moment.Outcome, fight: Fight) -> None:
    """The cards played after a round, each a line of the log with the dice it rolled."""
    rolled = [v for v in rnd.volleys if v.kind == "played" and not v.said]
    for name, card, key, values in played.logs:
        label = moment.label(fight.side(name), card)
        line = Volley(name, "played", said=t(key, card=label, **values))
        if rolled and CARDS[card].rolls:
            line.dice, line.hits = rolled[0].dice, rolled[0].hits
            for die in line.dice:
                die.unit = label
            rnd.volleys.remove(rolled.pop(0))
        rnd.volleys.append(line)


def _regained(
    battle: Battle, ma: SideModel, md: SideModel, sa: State, sd: State, was_a: SideModel, was_d: SideModel
) -> tuple[SideModel, SideModel]:
    """Both sides as this round meets them; once a unit that hindered one of them is destroyed
    (the Mentak flagship, the Quietus), the log says that side's units are themselves again."""
    fa, fd = ma.facing(md, sd), md.facing(ma, sa)
    for name, now, was in ((ATTACKER, fa, was_a), (DEFENDER, fd, was_d)):
        if now is not was:
            battle.notes.append(t("combat.hindrance_ends", side=t(f"combat.{name}")))
    return fa, fd


def _proxima(fight: Fight, ma: SideModel, md: SideModel, sa: State, sd: State, dice: Dice, rnd: Round) -> tuple[State, State]:
    """Proxima Targeting VI at the start of a round: each side's ground forces take the
    bombardment dice against them, less a hit per galvanized unit of theirs."""
    states = {ATTACKER: sa, DEFENDER: sd}
    for name, model in ((ATTACKER, ma), (DEFENDER, md)):
        spec = fight.proxima_dice(name)
        if not spec:
            continue
        owners = [n for n in (ATTACKER, DEFENDER) if fight.side(n).effects.proxima]
        volley = Volley(owners[0] if len(owners) == 1 else other(name), "proxima")  # who rolls
        hits = max(0, _roll(spec, dice, volley) - galvanized_cancels(model, states[name]))
        if fight.bombardment_destroys() > 1:  # Conventions of War Abandoned: Proxima's is a bombardment
            hits = destroying(hits, model.undamaged_sustains(states[name]), fight.bombardment_destroys())
        states[name], events, volley.excess = model.consume(states[name], hits)
        volley.hits, volley.taken = hits, _taken(model, events)
        rnd.volleys.append(volley)
    return states[ATTACKER], states[DEFENDER]


def _silenced(fight: Fight, name: str, number: int) -> str:
    """Why a side rolls no dice this round (Magen Defense Grid), or nothing."""
    if number == 1 and fight.silenced(name):
        return t("combat.magen_silenced", side=t(f"combat.{name}"))
    return ""


def can_ever_hit(fight: Fight, opening: dict[tuple[str, int], list]) -> bool:
    """Whether any die of either side can hit at all (else the battle could never end), from the
    dice both sides roll at full strength (Fight.opening_dice)."""
    if any(die.needs <= 10 for dice in opening.values() for _, _, die in dice):
        return True
    if fight.proxima_dice(ATTACKER):
        return True
    return fight.harrow(fight.defender) is not None and not fight.harrow(fight.defender).blocked  # type: ignore[union-attr]


def _apply(model: SideModel, state: State, side: Side) -> None:
    """Write a model state back to the side's units (losses removed, damage marked)."""
    damaged = set(model.damaged(state))
    for i, unit in enumerate(model.pieces):  # the side's own objects (a breach's copies are not)
        if model.is_lost(i, state):
            side.units.remove(unit)
        elif model.sustainer[i] or model.shieldable[i]:
            unit.damaged = i in damaged


def outcome(a_gone: bool, d_gone: bool) -> str | None:
    """70.4: whoever still has units wins; nobody left is a draw; both left: no result."""
    if a_gone != d_gone:
        return DEFENDER if a_gone else ATTACKER
    return "draw" if a_gone else None


def _control(fight: Fight, battle: Battle) -> None:
    """75.5: the attacker takes control if any of its ground forces remain on the planet;
    otherwise (including when both sides were wiped out) the defender keeps it. When the
    attacker takes it, the defender's structures there are destroyed."""
    attacker, defender = battle.attacker, battle.defender
    assert attacker is not None and defender is not None
    landed = any(u.ground for u in fight.participants(attacker, ATTACKER))  # Naalu fighters go back to space
    battle.control = ATTACKER if landed else DEFENDER
    if not battle.combat:
        battle.notes.append(t("combat.no_ground_combat"))
    if battle.control == ATTACKER:
        structures = [u for u in defender.units if u.structure]
        for u in structures:
            defender.units.remove(u)
        if structures:
            battle.notes.append(t("combat.structures_destroyed", count=len(structures)))

"""Exact odds: hand-computed cases, an independent brute-force calculation, probabilities that
sum to one, agreement with the dice over many seeds, the chart, and the commands."""

from __future__ import annotations

import json
import struct
from functools import lru_cache
from math import comb

import pytest
from run_bot import run_bot
from said import pattern, said

from tabletop.combat import budget, hits, odds
from tabletop.combat.commands import build_fight
from tabletop.combat.outcome import percent
from tabletop.combat.report import AT_LEAST_SHOWN, thresholds
from tabletop.combat.resolver import resolve
from tabletop.combat.units import unit_book
from tabletop.core.commands import Context, dispatch
from tabletop.core.dice import Dice
from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.render import plain


@pytest.fixture(scope="module")
def book():
    return unit_book("ti4")


def solve(book, kind, **options):
    return odds.solve(build_fight(kind, options, book))


def test_one_infantry_each_by_hand(book):
    # each round: A hits 0.3, D hits 0.3; A only 0.21, D only 0.21, both 0.09, neither 0.49
    r = solve(book, "ground", attacker="1 infantry", defender="1 infantry")
    assert r.attacker == pytest.approx(0.21 / 0.51, abs=1e-12)
    assert r.defender == pytest.approx(0.21 / 0.51, abs=1e-12)
    assert r.draw == pytest.approx(0.09 / 0.51, abs=1e-12)
    assert r.rounds == pytest.approx(1 / 0.51, abs=1e-12)


def test_a_mech_against_an_infantry_by_hand(book):
    r = solve(book, "ground", attacker="1 mech", defender="1 infantry")  # mech 6+, infantry 8+
    # A: p=0.5, D: p=0.3; the mech sustains the first hit
    # from (fresh, 1): A-only 0.35 win; D-only 0.15 -> (damaged, 1); both 0.15 -> A wins (mech sustained)
    p_damaged = 0.15 / 0.65
    win_from_damaged = 0.35 / 0.65  # then: A-only 0.35, D-only 0.15 loss, both 0.15 draw
    assert r.attacker == pytest.approx((0.35 + 0.15) / 0.65 + p_damaged * win_from_damaged, abs=1e-12)


def _brute_ground(att: tuple[int, int], dfn: tuple[int, int], pa=(0.3, 0.5), pd=(0.3, 0.5)) -> tuple[float, float, float]:
    """(P attacker, P defender, P draw) of infantry+mechs ground combat by plain recursion over
    unit counts, written without the engine: binomial hits, a mech sustains first, then
    infantry are lost, then damaged mechs."""

    def binom(n, p):
        return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]

    def hits(inf, mechs):
        out = [1.0]
        for n, p in ((inf, pa[0]), (mechs, pa[1])):
            b = binom(n, p)
            new = [0.0] * (len(out) + len(b) - 1)
            for i, x in enumerate(out):
                for j, y in enumerate(b):
                    new[i + j] += x * y
            out = new
        return out

    def take(side, h):
        inf, ok, dmg = side
        while h > 0 and ok:
            ok, dmg, h = ok - 1, dmg + 1, h - 1
        lost = min(h, inf)
        inf, h = inf - lost, h - lost
        dmg = max(0, dmg - h)
        return inf, ok, dmg

    @lru_cache(None)
    def go(a, d):
        a_alive, d_alive = sum(a), sum(d)
        if not a_alive and not d_alive:
            return 0.0, 0.0, 1.0
        if not d_alive:
            return 1.0, 0.0, 0.0
        if not a_alive:
            return 0.0, 1.0, 0.0
        ha, hd = hits(a[0], a[1] + a[2]), hits(d[0], d[1] + d[2])
        stay = ha[0] * hd[0]
        total = [0.0, 0.0, 0.0]
        for x, p in enumerate(ha):
            for y, q in enumerate(hd):
                if x == 0 and y == 0:
                    continue
                sub = go(take(a, y), take(d, x))
                for k in range(3):
                    total[k] += p * q * sub[k]
        return tuple(v / (1 - stay) for v in total)

    return go((att[0], att[1], 0), (dfn[0], dfn[1], 0))


@pytest.mark.parametrize("a, d", [((3, 1), (4, 0)), ((2, 2), (3, 1)), ((5, 0), (2, 2)), ((0, 2), (4, 0))])
def test_ground_odds_match_an_independent_calculation(book, a, d):
    def spec(inf, mechs):
        return ", ".join(x for x in (f"{inf} infantry" if inf else "", f"{mechs} mech" if mechs else "") if x)

    r = solve(book, "ground", attacker=spec(*a), defender=spec(*d))
    expected = _brute_ground(a, d)
    assert (r.attacker, r.defender, r.draw) == pytest.approx(expected, abs=1e-9)


CASES = [
    ("ground", {"attacker": "3 infantry, 1 mech", "defender": "4 infantry"}),
    ("ground", {"attacker": "2 valkyrie, 2 infantry", "defender": "2 valkyrie, 3 infantry"}),
    ("ground", {"attacker": "3 infantry, fire team, morale boost", "defender": "3 infantry, valkyrie particle weave"}),
    ("space", {"attacker": "war sun, 2 dreadnought, 2 carrier, 8 fighter", "defender": "3 dreadnought, 3 cruiser, 6 fighter"}),
    ("space", {"attacker": "2 destroyer2, 2 cruiser", "defender": "1 pds, 4 fighter, 1 carrier"}),
    ("space", {"attacker": "2 dreadnought, duranium armor", "defender": "4 cruiser"}),
    ("space", {"attacker": "3 cruiser, assault cannon", "defender": "2 destroyer, 1 dreadnought, non-euclidean shielding"}),
    ("space", {"attacker": "2 pds, 2 cruiser, graviton laser", "defender": "3 fighter, 2 cruiser"}),
    ("space", {"attacker": "4 cruiser", "defender": "2 dreadnought", "retreat": "attacker@2"}),
    ("space", {"attacker": "jol-nar flagship, jol-nar", "defender": "winnu flagship, 2 cruiser"}),
    ("invade", {"ships": "2 dreadnought", "landing": "4 infantry, 1 mech", "defender": "3 infantry", "pds": "1 pds"}),
    ("invade", {"ships": "2 super-dreadnought, l1z1x", "landing": "3 infantry", "defender": "3 infantry"}),
    ("invade", {"ships": "1 war sun", "landing": "2 infantry", "defender": "", "pds": "2 pds"}),
]


@pytest.mark.parametrize("kind, options", CASES)
def test_probabilities_sum_to_one(book, kind, options):
    r = solve(book, kind, **options)
    assert r.total() == pytest.approx(1.0, abs=1e-9)
    for side in ("attacker", "defender"):
        assert sum(r.survivors[side].values()) == pytest.approx(1.0, abs=1e-9)
    assert r.rounds >= 0
    if kind == "invade":
        assert 0.0 <= r.control <= 1.0


@pytest.mark.parametrize(
    "kind, options",
    [
        CASES[0],
        CASES[3],
        CASES[8],
        CASES[10],
        ("ground", {"attacker": "4 infantry, morale boost", "defender": "2 infantry, 1 mech"}),
        ("ground", {"attacker": "3 infantry, fire team", "defender": "3 infantry"}),
        ("space", {"attacker": "2 dreadnought, 2 destroyer", "defender": "3 cruiser, 2 fighter, morale boost"}),
    ],
)
def test_the_fast_solver_agrees_with_the_pair_by_pair_one(book, kind, options, monkeypatch):
    """The vectorised solver (round 1 folded into the levels when it rolls like later rounds)
    and the general pair-by-pair one are independent ways to the same numbers. (The pair-by-pair
    solver takes a third of the bot's time budget on the largest case: the budget is lifted, so
    a loaded machine cannot turn the comparison into a refusal.)"""
    fast = solve(book, kind, **options).as_dict()
    monkeypatch.setattr(budget, "TIME_BUDGET", 60.0)
    monkeypatch.setattr(odds, "_factorized", lambda *_: False)
    general = solve(book, kind, **options).as_dict()
    for key in ("attacker", "defender", "draw", "rounds", "control"):
        assert fast.get(key) == pytest.approx(general.get(key), abs=1e-9), key
    assert fast["survivors"] == general["survivors"]


@pytest.mark.parametrize("kind, options", [CASES[1], CASES[4], CASES[5], CASES[8], CASES[10], CASES[11]])
def test_odds_agree_with_the_dice_over_many_seeds(book, kind, options):
    the_fight = build_fight(kind, options, book)
    exact = odds.solve(the_fight)
    n = 1500
    wins = control = 0
    for seed in range(n):
        battle = resolve(the_fight, Dice(seed))
        wins += battle.winner == "attacker"
        control += battle.control == "attacker"
    observed = wins / n
    sigma = (exact.attacker * (1 - exact.attacker) / n) ** 0.5
    assert abs(observed - exact.attacker) <= 4 * sigma + 1e-9, (observed, exact.attacker)
    if kind == "invade":
        sigma = (exact.control * (1 - exact.control) / n) ** 0.5
        assert abs(control / n - exact.control) <= 4 * sigma + 1e-9


def test_the_largest_battles_are_answered_or_refused(book):
    """Only the states a fight can reach are solved, so the largest fleets are answered; a fight
    the pair-by-pair solver cannot finish in its time budget is refused with a sentence."""
    assert solve(book, "ground", attacker="100 infantry", defender="100 infantry").total() == pytest.approx(1.0)
    big = solve(book, "space", attacker="100 fighter", defender="50 dreadnought, 50 destroyer")
    assert big.total() == pytest.approx(1.0, abs=1e-9) and big.defender > 0.99
    with pytest.raises(UserError) as exc:
        solve(book, "ground", attacker="30 infantry, 20 mech, valkyrie particle weave", defender="40 infantry, 10 mech")
    assert "너무 커요" not in exc.value.message and said("odds.too_big", exc.value.message, seconds=1)


def test_odds_refuse_what_the_dice_refuse(book):
    with pytest.raises(UserError):
        solve(book, "ground", attacker="2 infantry", defender="1 dreadnought")
    with pytest.raises(UserError):
        solve(book, "space", attacker="2 infantry", defender="1 dreadnought")
    with pytest.raises(UserError):
        solve(book, "space", attacker="1 cruiser", defender="1 cruiser", retreat="attacker@0")
    with pytest.raises(UserError):
        solve(book, "space", attacker="1 cruiser", defender="1 cruiser", retreat="nobody@2")


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_chart_is_a_png_of_the_expected_size(book):
    from tabletop.combat.chart import HEIGHT_PX, WIDTH_PX, odds_chart

    r = solve(book, "space", attacker="2 dreadnought, 4 fighter", defender="3 cruiser")
    png = odds_chart(r, "우주 전투")
    assert _png_size(png) == (WIDTH_PX, HEIGHT_PX) and len(png) > 10_000


def test_odds_command_sends_its_chart_and_combat_shows_odds_first(compendium, state):
    ctx = Context(compendium, state)
    paged = dispatch(ctx, "odds ground", {"attacker": "3 infantry", "defender": "2 보병"})
    reply = paged.reply()
    assert reply.files and reply.files[0].name == "odds.png" and reply.embeds[0].image == "attachment://odds.png"
    assert said("odds.line", reply.embeds[0].description)
    battle = dispatch(ctx, "combat space", {"attacker": "2 cruiser", "defender": "1 destroyer", "seed": "3"})
    first = battle.replies()[0]
    shown = first.embeds[0].description
    assert shown.startswith("📊 ") and pattern("odds.line").match(shown, len("📊 "))
    buttons = [b.custom_id for b in battle.reply().rows[-1]]
    assert buttons[0].startswith("combat:again:") and buttons[1].startswith("combat:odds:")
    from tabletop.core.components import press

    assert "확률" in press(ctx, buttons[1]).reply().embeds[0].title


def test_cli_odds_json_and_chart(cli_env, tmp_path):
    chart = tmp_path / "odds.png"
    out = run_bot(
        [
            "odds",
            "invade",
            "--ships",
            "2 dreadnought",
            "--landing",
            "4 infantry",
            "--defender",
            "",
            "--pds",
            "1 pds",
            "--json",
            "--chart",
            str(chart),
        ],
        cli_env,
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert {"attacker", "defender", "draw", "rounds", "survivors", "control"} <= set(data)
    assert abs(data["attacker"] + data["defender"] + data["draw"] - 1) < 1e-9
    assert _png_size(chart.read_bytes()) == (960, 540)
    assert str(chart.resolve()) in out.stderr  # where it went, said apart from the JSON


@pytest.mark.parametrize(
    "p, shown", [(0.0, "0%"), (0.0004, "<1%"), (0.004, "<1%"), (0.5, "50%"), (0.996, ">99%"), (0.9999, ">99%"), (1.0, "100%")]
)
def test_chances_are_written_one_way(p, shown):
    from tabletop.combat.outcome import percent as _pct

    assert _pct(p) == shown


@pytest.mark.parametrize(("who", "winner"), [("attacker", "defender"), ("defender", "attacker")])
def test_a_retreat_says_who_withdraws_and_whose_win_it_counts_in(book, who, winner):
    from tabletop.combat.report import odds_pages

    r = solve(book, "space", attacker="2 cruiser", defender="2 dreadnought", retreat=f"{who}@1")
    text = odds_pages(r, "space").reply().embeds[0].description
    assert said("odds.retreat", text, side=t(f"combat.{who}"), winner=t(f"combat.{winner}"))
    assert getattr(r, winner) >= r.retreat > 0  # the retreat is inside the winner's share, as said


def test_the_chance_that_at_least_k_survive(book, state):
    """One cruiser each: the attacker keeps its cruiser exactly when it wins. A bigger fleet:
    the chances fall with k, the first is the chance any survive, and the dice agree."""
    duel = solve(book, "space", attacker="1 cruiser", defender="1 cruiser")
    assert duel.at_least("attacker") == {"순양함": [pytest.approx(duel.attacker, abs=1e-12)]}
    the_fight = build_fight("space", {"attacker": "3 cruiser, 2 fighter", "defender": "2 destroyer, 4 fighter"}, book)
    r = odds.solve(the_fight)
    chances = r.at_least("attacker")["순양함"]
    assert len(chances) == 3 and all(a >= b for a, b in zip(chances, chances[1:]))
    any_cruiser = sum(p for key, p in r.survivors["attacker"].items() if dict(key).get("순양함"))
    assert chances[0] == pytest.approx(any_cruiser, abs=1e-12)
    n = 1500
    kept = sum(sum(u.id == "cruiser" for u in resolve(the_fight, Dice(seed)).attacker.units) >= 2 for seed in range(n))
    sigma = (chances[1] * (1 - chances[1]) / n) ** 0.5
    assert abs(kept / n - chances[1]) <= 4 * sigma
    text = dispatch(
        Context(None, state), "odds space", {"attacker": "3 cruiser, 2 fighter", "defender": "2 destroyer, 4 fighter"}
    )
    shown = text.reply().embeds[0].description
    assert t("odds.at_least") in shown and "순양함: ≥1" in shown and "≥3" in shown


@pytest.mark.parametrize("button", ["swap", "odds"])
def test_a_logged_fight_replayed_by_a_button_is_checked_as_if_typed(state, button):
    """A fight logged by an older version (an option since removed, a value out of today's
    range) is refused with a sentence by "swap sides" and "odds", as by "roll again"."""
    from tabletop.combat.commands import ODDS, SWAP
    from tabletop.core.components import press

    ctx = Context(None, state)
    for options in (
        {"attacker": "1 cruiser", "defender": "1 cruiser", "flank": "left"},
        {"attacker": "1 cruiser", "defender": "1 cruiser", "attacker_mod": "99"},
    ):
        spec = json.dumps({"command": "combat space", "options": options})
        roll_id = state.log_roll(ctx.guild_id, ctx.channel_id, ctx.user_id, spec, "7", "")
        with pytest.raises(UserError):
            press(ctx, (SWAP if button == "swap" else ODDS).id(id=roll_id))


def test_swap_sides_replays_the_odds_and_the_dice_with_the_sides_changed(book, state):
    from tabletop.core.components import press

    ctx = Context(None, state)
    options = {"attacker": "3 cruiser", "defender": "1 dreadnought, 2 fighter", "attacker_mod": "1", "retreat": "attacker@2"}
    first = dispatch(ctx, "odds space", options)
    [[swap]] = first.reply().rows
    assert swap.custom_id.startswith("combat:swap:")
    turned = press(ctx, swap.custom_id)
    expected = solve(
        book, "space", attacker="1 dreadnought, 2 fighter", defender="3 cruiser", defender_mod=1, retreat="defender@2"
    )
    assert said("odds.line", turned.reply().embeds[0].description, attacker=f"{round(expected.attacker * 100)}%")
    back = press(ctx, turned.reply().rows[0][0].custom_id)  # swapped twice: the first fight again
    assert back.reply().embeds[0].description == first.reply().embeds[0].description
    battle = dispatch(ctx, "combat ground", {"attacker": "3 infantry", "defender": "1 mech", "seed": "4"})
    swap_button = next(b for b in battle.reply().rows[-1] if b.custom_id.startswith("combat:swap:"))
    rolled = press(ctx, swap_button.custom_id)
    again = next(b for b in rolled.reply().rows[-1] if b.custom_id.startswith("combat:again:"))
    logged = json.loads(state.logged_roll(int(again.custom_id.rsplit(":", 1)[1])))  # the swapped roll, with a fresh seed
    assert logged["options"] == {"attacker": "1 mech", "defender": "3 infantry", "content": "pok"}  # the table's content, kept
    invasion = dispatch(ctx, "odds invade", {"ships": "1 dreadnought", "landing": "2 infantry", "defender": "1 infantry"})
    assert not invasion.reply().rows  # an invasion has no sides of one kind to swap


def test_stop_after_n_rounds_by_hand_and_on_both_solvers_and_the_dice(book, monkeypatch):
    """One infantry each, one round: each hits 3 in 10, so 21% each way, 9% a draw and 49%
    undecided. Bigger fights: both solvers agree, the chances sum to one, and the dice agree."""
    one = solve(book, "ground", attacker="1 infantry", defender="1 infantry", rounds=1)
    assert (one.attacker, one.defender, one.draw, one.undecided) == pytest.approx((0.21, 0.21, 0.09, 0.49), abs=1e-12)
    assert one.rounds == pytest.approx(1.0)
    cases = [
        ("space", {"attacker": "3 cruiser, 2 fighter", "defender": "1 dreadnought, 3 fighter", "rounds": 2}),
        ("space", {"attacker": "4 cruiser", "defender": "2 dreadnought", "retreat": "attacker@3", "rounds": 2}),
        ("space", {"attacker": "letnev flagship, 1 cruiser", "defender": "3 cruiser", "rounds": 2}),
        ("invade", {"ships": "2 dreadnought", "landing": "4 infantry", "defender": "4 infantry", "rounds": 1}),
    ]
    for kind, options in cases:
        the_fight = build_fight(kind, options, book)
        fast = odds.solve(the_fight)
        with monkeypatch.context() as m:
            m.setattr(odds, "_factorized", lambda *_: False)
            general = odds.solve(the_fight)
        assert fast.total() == pytest.approx(1.0, abs=1e-9) and fast.undecided > 0.05, options
        for key in ("attacker", "defender", "draw", "undecided", "retreat"):
            assert getattr(fast, key) == pytest.approx(getattr(general, key), abs=1e-9), (key, options)
        n = 1000
        stopped = sum(resolve(the_fight, Dice(seed)).stopped_after is not None for seed in range(n))
        sigma = (fast.undecided * (1 - fast.undecided) / n) ** 0.5
        assert abs(stopped / n - fast.undecided) <= 4 * sigma, (options, stopped / n, fast.undecided)
    assert (
        solve(book, "invade", ships="2 dreadnought", landing="4 infantry", defender="4 infantry", rounds=1).control
        < solve(book, "invade", ships="2 dreadnought", landing="4 infantry", defender="4 infantry").control
    )  # stopped with both sides on the planet: nobody takes it


@pytest.mark.parametrize(
    "kind, army",
    [
        ("space", "jol-nar flagship, war sun, 2 dreadnought, 3 cruiser, 6 fighter, jol-nar"),
        ("ground", "5 infantry, 2 mech, fire team"),
        ("space", "2 carrier, 3 fighter, 2 destroyer2"),
    ],
)
def test_a_sides_hits_after_each_loss_are_its_remaining_units_dice(book, kind, army):
    # the table is built by runs of alike units; here each row is the convolution of the dice of
    # the units still alive, one by one, with more than `most` hits counted as `most`
    fight = build_fight(kind, {"attacker": army, "defender": "1 infantry" if kind == "ground" else "1 fighter"}, book)
    model, opponent = fight.models(fight.attacker, fight.defender)
    dice = fight.round_dice("attacker", model, (0, 0), opponent, (0, 0), 1)
    most = 7
    rows = hits.side_rows(model, dice, most)
    assert rows.shape == (model.N + 1, most + 1)
    for lost in range(model.N + 1):
        alive = {id(u) for u in model.units[lost:]}
        expected = hits.clip(hits.hit_distribution([die for unit, _, die in dice if id(unit) in alive]), most)
        assert rows[lost] == pytest.approx(expected, abs=1e-15)


def test_a_chance_within_the_solvers_float_error_of_certain_is_written_as_certain():
    assert percent(1 + 2e-16) == "100%" and percent(1 - 1e-13) == "100%" and percent(1 - 1e-10) == ">99%"
    assert percent(4e-13) == "0%" and percent(1e-10) == "<1%" and percent(0.996) == ">99%"


@pytest.mark.parametrize(
    "written, shown",
    [
        ([">99%"] * 8 + ["97%", "80%"], [1, 8, 9, 10]),  # a high run shows its last only
        (["100%", "90%", "50%"], [1, 2, 3]),
        (["100%"] * 10, [1, 10]),
        (["60%", "20%", "5%", "<1%", "<1%", "<1%", "<1%"], [1, 2, 3, 4, 7]),  # a low run its first
        ([f"{99 - k}%" for k in range(20)], None),  # all differ: spread, first and last kept
    ],
)
def test_at_least_shows_one_and_the_thresholds_that_tell(written, shown):
    chances = [1.0 if w in ("100%", ">99%") else 0.001 if w == "<1%" else int(w.rstrip("%")) / 100 for w in written]
    picked = thresholds(written, chances)
    assert picked[0] == 1 and picked[-1] == len(written) and len(picked) <= AT_LEAST_SHOWN
    if shown is not None:
        assert picked == shown


def test_a_near_certain_line_keeps_its_sign_in_plain_text():
    assert plain(">99% — 없음") == ">99% — 없음" and plain("> 인용") == "인용"


def test_the_charts_at_least_panel_names_each_side_of_a_kind_both_have():
    from tabletop.combat.chart import at_least_series

    fight = build_fight("space", {"attacker": "3 fighter, 1 carrier", "defender": "3 fighter, 1 destroyer"}, unit_book("ti4"))
    labels = [label for label, *_ in at_least_series(odds.solve(fight))]
    assert len(labels) == len(set(labels)) == 4
    assert "전투기 (공격자)" in labels and "전투기 (방어자)" in labels


def test_the_chart_has_a_glyph_for_every_japanese_character():
    import warnings

    from tabletop.combat.chart import odds_chart
    from tabletop.core.i18n import speaking

    fight = build_fight("space", {"attacker": "3 fighter, 1 carrier", "defender": "2 destroyer"}, unit_book("ti4"))
    with speaking("ja"), warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        odds_chart(odds.solve(fight), "宇宙戦闘：拡張 悪 壊")
    assert [str(w.message) for w in seen if "Glyph" in str(w.message)] == []

"""The component registry: each button or menu declared once with its custom_id template and its
handler; ids made and read only through it; a press that needs words asks for them, then runs."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tabletop import features
from tabletop.core import components
from tabletop.core.commands import Context
from tabletop.core.components import NUMBER, SLUG, Component, InputField, NeedsInput, Press, find, press, press_asking
from tabletop.core.errors import UserError
from tabletop.core.i18n import t

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def ctx(compendium, state) -> Context:
    return Context(compendium, state)


@pytest.fixture
def registry(monkeypatch):
    """An empty registry for components declared by a test."""
    monkeypatch.setattr(components, "COMPONENTS", {})
    return components.COMPONENTS


def test_an_id_is_made_from_its_template_and_read_back(registry):
    vote = Component("t.vote", "t:{id}:vote:{index}", id=NUMBER, index=NUMBER)
    custom_id = vote.id(id=12, index=0)
    assert custom_id == "t:12:vote:0"
    assert find(custom_id) == (vote, {"id": "12", "index": "0"})
    assert find("t:12:vote:x") is None and find("t:12:vote:0:extra") is None
    with pytest.raises(ValueError, match="does not fit"):
        vote.id(id="12:vote:3", index=0)  # a value cannot smuggle in another id


def test_a_template_is_declared_once_with_a_pattern_for_each_value(registry):
    Component("t.open", "t:open:{game}", game=SLUG)
    with pytest.raises(ValueError, match="declared twice"):
        Component("t.other", "t:open:{game}", game=SLUG)
    with pytest.raises(ValueError, match="one pattern"):
        Component("t.half", "t:half:{a}:{b}", a=SLUG)
    with pytest.raises(ValueError, match="show"):
        Component("t.shown", "t:shown", show="loudly")


def _longest(pattern: str) -> int:
    """The longest value a pattern allows: "[a-z0-9-]{1,40}" 40, "prev|next" 4."""
    counted = re.search(r"\{(?:\d+,)?(\d+)\}$", pattern)
    return int(counted.group(1)) if counted else max(len(word) for word in pattern.split("|"))


def test_every_declared_component_has_a_handler_and_fits_discord():
    features.load()
    assert {"rule.open", "roll.again", "combat.odds", "agenda.vote", "agenda.play"} <= set(components.COMPONENTS)
    for comp in components.COMPONENTS.values():
        assert comp.handler is not None or comp.local, comp  # a pager is turned by its front end
        most = {k: _longest(v) for k, v in comp.fields.items()}
        longest = comp.template.format(
            **{k: "9" * n if v == NUMBER else "x" * n for (k, v), n in zip(comp.fields.items(), most.values())}
        )
        assert len(longest) <= components.CUSTOM_ID_MAX, comp


def test_a_press_without_a_handler_or_a_match_is_refused_in_a_sentence(registry, ctx):
    Component("t.bare", "t:bare")
    for custom_id in ("t:bare", "nothing:here"):
        with pytest.raises(UserError) as refused:
            press(ctx, custom_id)
        assert refused.value.message == t("error.unknown_button", "ko")


def test_a_press_that_needs_words_asks_each_field_once_then_runs(registry, ctx):
    form = Component("t.form", "t:form:{id}", id=NUMBER)
    seen: list[Press] = []

    @form.on_press
    def handler(ctx, p: Press):
        seen.append(p)
        answers = p.ask("Title", InputField("a", "First", 5), InputField("b", "Second", 5))
        return f"{p.values['id']} {answers['a']} {answers['b']}"

    with pytest.raises(NeedsInput) as need:
        press(ctx, "t:form:7")
    assert [f.key for f in need.value.fields] == ["a", "b"] and need.value.title == "Title"
    asked: list[str] = []
    assert press_asking(ctx, "t:form:7", None, lambda label: asked.append(label) or f" {label} ") == "7 First Second"
    assert asked == ["First", "Second"] and len(seen) == 3  # the checks ran before the question too


# --- nobody outside a declaration writes a custom_id ---------------------------------------------------


def _shape(node: ast.AST) -> str | None:
    """A string literal as an id would look: f-string values and {names} as a digit."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "0" for v in node.values)
    return None


def ids_written(source: str) -> list[str]:
    """String literals in `source` shaped like a declared component's custom_id, except the
    template given to Component(...) itself."""
    tree = ast.parse(source)
    templates = {
        id(arg)
        for call in ast.walk(tree)
        if isinstance(call, ast.Call) and getattr(call.func, "id", getattr(call.func, "attr", "")) == "Component"
        for arg in call.args[1:2]
    }
    found = []
    for node in ast.walk(tree):
        shape = _shape(node)
        if shape is None or id(node) in templates:
            continue
        filled = re.sub(r"{\w*}", "0", shape)
        if find(filled) is not None:
            found.append(shape)
    return found


def test_the_id_check_finds_an_id_written_by_hand():
    features.load()
    assert ids_written('x = f"rule:open:{game}:{section}"\ny = "combat:again:5"') == ["rule:open:0:0", "combat:again:5"]
    assert ids_written('C = Component("rule.open", "rule:open:{game}:{section}", game=SLUG, section=SLUG)') == []


def test_no_module_writes_a_custom_id_by_hand():
    features.load()
    sources = [*(ROOT / "tabletop").rglob("*.py"), *(ROOT / "cogs").rglob("*.py"), ROOT / "bot.py"]
    written = {str(p.relative_to(ROOT)): ids for p in sources if (ids := ids_written(p.read_text(encoding="utf-8")))}
    assert written == {}

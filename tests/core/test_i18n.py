"""The UI catalogues: the same keys in every locale, the same placeholders in every language,
and no key that no code uses."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from tabletop.core import i18n

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [*(ROOT / "tabletop").rglob("*.py"), *(ROOT / "cogs").rglob("*.py"), ROOT / "bot.py"]


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def test_every_key_in_every_locale():
    keys = {loc: set(i18n.catalogue(loc)) for loc in i18n.LOCALES}
    for loc in i18n.LOCALES:
        assert keys[loc] == keys[i18n.DEFAULT_LOCALE], (loc, keys[loc] ^ keys[i18n.DEFAULT_LOCALE])


def test_placeholders_match_between_languages():
    base = i18n.catalogue(i18n.DEFAULT_LOCALE)
    for loc in i18n.LOCALES:
        for key, text in i18n.catalogue(loc).items():
            assert placeholders(text) == placeholders(base[key]), (loc, key)
            assert text.strip(), (loc, key)


def _literals() -> tuple[set[str], set[str]]:
    """Every string constant in the code, and the constant heads of f-strings (f"agenda.type.{x}"
    uses every key starting with "agenda.type.")."""
    constants: set[str] = set()
    prefixes: set[str] = set()
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                constants.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                head = str(node.values[0].value)
                if "." in head:
                    prefixes.add(head)
    for template in (ROOT / "tabletop" / "site" / "templates").glob("*.html"):  # t("…") in Jinja
        constants |= set(re.findall(r"""\bt\(["']([\w.]+)["']""", template.read_text(encoding="utf-8")))
    return constants, prefixes


def _command_keys() -> set[str]:
    """Keys the Discord Translator asks for: the cogs build them from command and option names."""
    from tabletop import features
    from tabletop.core.commands import COMMANDS

    features.load()
    keys = set()
    for cmd in COMMANDS.values():
        parts = cmd.name.split()
        keys |= {f"cmd.{'.'.join(parts[:i])}" for i in range(1, len(parts) + 1)}
        keys |= {f"cmd.{'.'.join(parts[:i])}.desc" for i in range(1, len(parts) + 1)}
        for opt in cmd.options:
            keys.add(f"opt.{opt.name}")
            keys |= {f"opt.{parts[0]}.{opt.name}.desc", f"opt.{cmd.key}.{opt.name}.desc"}
            keys |= {f"choice.{opt.name}.{c}" for c in opt.choices}
    return keys


def test_no_key_is_unused():
    constants, prefixes = _literals()
    commands = _command_keys()
    unused = [
        key
        for key in i18n.catalogue(i18n.DEFAULT_LOCALE)
        if key not in constants and key not in commands and not any(key.startswith(p) for p in prefixes)
    ]
    assert unused == []


def test_a_missing_translation_falls_back_to_korean_and_a_missing_key_fails(monkeypatch):
    monkeypatch.setitem(i18n.catalogue("en"), "__probe__", "")
    monkeypatch.setitem(i18n.catalogue("ko"), "__probe__", "한국어")
    assert i18n.t("__probe__", "en") == "한국어"
    with pytest.raises(KeyError):
        i18n.t("no.such.key", "en")


def test_locales_are_normalised():
    assert i18n.lang("en-GB") == "en" and i18n.lang(None) == "ko" and i18n.lang("fr") == "ko"
    assert i18n.command_text("cmd.rule", "ja") == "ルール"
    assert i18n.command_text("cmd.rule", "fr") is None


@pytest.mark.parametrize(
    "word, expected",
    [
        ("의장 선출", "의장 선출을"),
        ("역순", "역순을"),
        ("분리 독트린", "분리 독트린을"),
        ("#3 안건", "#3 안건을"),
        ("의장 (Speaker)", "의장 (Speaker)을"),
    ],
)
def test_korean_particles_follow_the_last_sound(word, expected):
    assert i18n.t("agenda.ack.cancel", "ko", agenda=word) == f"정책 {expected} 취소했어요."


def test_particles_after_a_vowel_and_an_unreadable_end():
    assert i18n.t("combat.retreats", "ko", side="공격자", n=2).startswith("공격자가 ")
    assert i18n.t("combat.retreats", "ko", side="🙂", n=2).startswith("🙂이(가) ")


def test_the_language_comes_from_the_request_and_is_restored_after_it():
    from tabletop.core.i18n import catalogue, current, speaking, t

    assert current() == "ko" and t("prev") == catalogue("ko")["prev"]
    with speaking("en-US"):
        assert current() == "en" and t("prev") == catalogue("en")["prev"]
        with speaking("ja"):
            assert t("prev") == catalogue("ja")["prev"]
        assert current() == "en"
        assert t("prev", "ja") == catalogue("ja")["prev"]  # text stored in another language still can
    assert current() == "ko"


def test_no_function_takes_the_language_as_a_parameter():
    """The request's language is a context variable, never threaded through calls; only a name
    shown in a language other than the asker's (an agenda's stored language) may be asked for."""
    root = Path(__file__).resolve().parents[2]
    allowed = {"name", "label", "effect_label", "t", "lang", "speaking", "catalogue", "translate"}  # translate: discord.py's
    found = []
    for path in [*(root / "tabletop").rglob("*.py"), *(root / "cogs").rglob("*.py"), root / "bot.py"]:
        if "site" in path.parts:  # the website is built in a language chosen for the whole site
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            named = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name not in allowed
            if named and any(a.arg == "locale" for a in [*node.args.args, *node.args.kwonlyargs]):  # type: ignore[union-attr]
                found.append(f"{path.relative_to(root)}:{node.lineno} {node.name}")
    assert found == []

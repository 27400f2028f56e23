"""The rules database: built atomically, rebuilt when YAML changes, never touching state."""

from __future__ import annotations

import shutil
import sqlite3

import pytest
import yaml

from tabletop.core.paths import RULES_DIR
from tabletop.rules import ruledb
from tabletop.rules.compendium import Compendium
from tabletop.rules.packs import PackError
from tabletop.store import open_state


@pytest.fixture
def workspace(tmp_path):
    rules = tmp_path / "rules"
    shutil.copytree(RULES_DIR, rules)
    return rules, tmp_path / "data" / "rules.db"


def test_build_writes_every_table(rules_db):
    conn = sqlite3.connect(rules_db)
    tables = {r[0] for r in conn.execute("select name from sqlite_master where type in ('table')")}
    assert {"meta", "packs", "sections", "rules", "aliases", "related", "docs", "lexicon"} <= tables
    lemmas = conn.execute("select lemmas from docs where pack = 'ti4' and rule = '79.1'").fetchone()[0].split()
    assert "폭격" in lemmas and "굴리다" in lemmas  # analysed at build time: 굴립니다 -> 굴리다
    assert conn.execute("select count(*) from sections where pack = 'ti4'").fetchone()[0] == 28
    assert conn.execute("select target from related where pack='ti4' and section='79' and name='행성 방어막'").fetchone() == (
        "86",
    )
    assert conn.execute("select target from related where pack='ti4' and section='62' and name='영향력'").fetchone() == (None,)


@pytest.mark.slow  # builds the rules database twice: about 5 s
def test_ensure_rebuilds_when_yaml_changes(workspace):
    rules, db = workspace
    ruledb.ensure(rules, db)
    first = ruledb.stored_hash(db)
    assert ruledb.ensure(rules, db) == db and ruledb.stored_hash(db) == first  # unchanged: no rebuild
    path = rules / "ti4" / "74.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc["aliases"].append("별폭발")
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    ruledb.ensure(rules, db)
    assert ruledb.stored_hash(db) != first
    comp = Compendium(db)
    assert comp.search.search("별폭발")[0].section == "74"


def test_invalid_pack_keeps_the_previous_database(workspace):
    rules, db = workspace
    ruledb.build(rules, db)
    before = db.read_bytes()
    (rules / "ti4" / "79.yaml").write_text("id: '79'\nnumber: 79\ntitle: 폭격\nrules:\n- id: '79.1'\n", encoding="utf-8")
    with pytest.raises(PackError) as exc:
        ruledb.build(rules, db)
    assert f"{rules}/ti4/79.yaml: section 79, rule 79.1: 'text' is missing" in exc.value.messages
    assert db.read_bytes() == before
    assert not [p for p in db.parent.iterdir() if p.name.startswith(".rules-")]  # no temp file left


@pytest.mark.slow  # builds the rules database twice: about 5 s
def test_rebuild_never_touches_state(workspace, tmp_path):
    rules, db = workspace
    state = open_state(tmp_path / "state.db")
    state.set_setting("g1", "chat", "off")
    ruledb.build(rules, db)
    ruledb.build(rules, db)
    assert state.get_setting("g1", "chat") == "off"
    assert db != tmp_path / "state.db"


def test_the_database_gives_back_every_pack_exactly_as_its_yaml_reads(compendium):
    """Rows are made from the packs' dataclasses and read back into them (rows.py): nothing a
    pack says is lost or changed on the way, sections, rules, items and lexicon included."""
    from dataclasses import replace

    from tabletop.core import config
    from tabletop.rules.packs import load_packs

    for pack in load_packs(config.rules_dir()):
        # search cards are kept in a table of their own (search reads it): every sentence there
        assert compendium.packs[pack.id] == replace(pack, cards={}), pack.id
        stored = compendium.conn.execute(
            "select section, point, rule, kind, language, text from cards where pack = ? order by rowid", (pack.id,)
        ).fetchall()
        written = [(sid, *sentence) for sid, card in pack.cards.items() for sentence in card.texts()]
        assert [(s, k, pt, r, lang, t) for s, pt, r, k, lang, t in stored] == written, pack.id


def test_a_row_is_the_objects_fields_and_back():
    from tabletop.rules import rows
    from tabletop.rules.packs import Item, Rule

    rule = Rule("9.1", "text", "heading", (Item("bullet", "a"), Item("table", "b\tc")), {})
    made = rows.row(rule, pack="p", position=3)
    assert list(made)[:2] == ["pack", "position"] and set(rows.columns(Rule, pack=str, position=int)) == set(made)
    assert rows.value(Rule, {**made, "editor_note": None}) == rule  # None reads as the field's default

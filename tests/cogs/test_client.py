"""cogs.client: a running bot answers from rule packs imported or edited while it runs."""

from __future__ import annotations

import shutil

from tabletop.core import config
from tabletop.core.paths import RULES_DIR
from tabletop.packimport.writer import import_pack
from tabletop.rules import ruledb
from tabletop.rules.compendium import Compendium


async def test_a_pack_imported_while_running_answers_without_a_restart(tmp_path):
    from cogs.client import RulesBot

    rules, db = tmp_path / "rules", tmp_path / "rules.db"
    shutil.copytree(RULES_DIR / "liftoff", rules / "liftoff")
    ruledb.build(rules, db)
    config.use(rules_dir=rules, rules_db=db)
    bot = RulesBot(compendium=Compendium(db))
    try:
        bot._rules_seen = ruledb.content_hash()
        assert await bot.reload_rules() is False  # nothing changed: the same compendium
        before = bot.compendium
        source = tmp_path / "house.txt"
        source.write_text("간식 규칙\n\n간식은 차례가 끝난 사람만 먹습니다.\n", encoding="utf-8")
        import_pack(source, "house", rules)
        assert await bot.reload_rules() is True
        assert bot.compendium is not before and "house" in bot.compendium.packs
        assert bot.compendium.search.search("간식은 언제 먹어?", "house", limit=1)[0].section == "1"
        assert await bot.reload_rules() is False
    finally:
        config.forget_choices()
        await bot.close()


async def test_packs_that_cannot_be_built_leave_the_last_good_database_answering(tmp_path, caplog):
    from cogs.client import RulesBot

    rules, db = tmp_path / "rules", tmp_path / "rules.db"
    shutil.copytree(RULES_DIR / "liftoff", rules / "liftoff")
    ruledb.build(rules, db)
    config.use(rules_dir=rules, rules_db=db)
    bot = RulesBot(compendium=Compendium(db))
    try:
        bot._rules_seen = ruledb.content_hash()
        broken = next((rules / "liftoff").glob("0*.yaml"))
        broken.write_text("id: [unclosed\n", encoding="utf-8")
        assert await bot.reload_rules() is True
        assert "liftoff" in bot.compendium.packs  # still answering, from the database that was there
        assert "cannot be built" in caplog.text and broken.name in caplog.text
    finally:
        config.forget_choices()
        await bot.close()

"""The cut is chosen from a document's shape: rulebooks of several shapes, written for these tests
in three languages (tests/packimport/documents/), are cut where a reader would open them, the
dry run names the cut and the runner-up, and --level takes the one the admin asks for; and an
imported rulebook is answered in the other languages too."""

from __future__ import annotations

from pathlib import Path

import pytest
from said import said

from tabletop.cli.imports import report
from tabletop.core.i18n import speaking
from tabletop.packimport.writer import import_pack
from tabletop.rules import ruledb
from tabletop.rules.compendium import Compendium

DOCUMENTS = Path(__file__).resolve().parent / "documents"

# Each document as its writer laid it out: the heading level of the topics a reader opens and
# how many sections that makes (the front matter before the first one included).
SHAPES = {
    "parts_and_topics.en.md": (2, 17),  # four "#" parts of 3-5 "##" topics each, two paragraphs a topic
    "parts_and_topics.ja.md": (2, 10),  # three "#" parts of "##" topics
    "chapters.en.txt": (1, 6),  # five capitalised chapters, each of 3-4 two-line sub-headings
    "chapters.ko.md": (1, 4),  # four "#" chapters of paragraphs, each with one-line "##" notes
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_each_document_is_cut_where_a_reader_opens_it(name, tmp_path):
    level, sections = SHAPES[name]
    done = import_pack(DOCUMENTS / name, "shaped", tmp_path, dry_run=True)
    assert done.cut is not None and (done.cut.level, len(done.sections)) == (level, sections)
    assert done.runner_up is not None and done.runner_up.level != level and done.runner_up.score < done.cut.score


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_level_takes_the_cut_the_admin_asks_for(name, tmp_path):
    chosen = import_pack(DOCUMENTS / name, "shaped", tmp_path, dry_run=True)
    assert chosen.runner_up is not None
    asked = import_pack(DOCUMENTS / name, "shaped", tmp_path, dry_run=True, level=chosen.runner_up.level)
    assert asked.cut is not None and asked.cut.level == chosen.runner_up.level
    assert len(asked.sections) == chosen.runner_up.sections != len(chosen.sections)


def test_the_dry_run_names_the_cut_and_the_runner_up(tmp_path):
    done = import_pack(DOCUMENTS / "parts_and_topics.en.md", "shaped", tmp_path, dry_run=True)
    with speaking("en"):
        lines = report(done)
    assert said("import.report.cut", lines[1], "en", sections=17)
    assert said("import.report.runner_up", lines[2], "en", sections=5, level=1)
    assert not (tmp_path / "shaped").exists()


@pytest.mark.slow  # embeds a new pack: about 10 s
def test_an_imported_english_rulebook_answers_korean_and_japanese_questions(tmp_path):
    """An import has no lexicon and no cards: a question in another language shares no word with
    it, and the decision fitted on such packs (fusion.ANSWER_MODEL_BARE) answers what the meaning
    finds, while an off-topic line in the same languages still gets nothing."""
    rules = tmp_path / "rules"
    import_pack(DOCUMENTS / "parts_and_topics.en.md", "salt", rules)
    ruledb.build(rules, tmp_path / "rules.db")
    search = Compendium(tmp_path / "rules.db").search
    titles = {s.id: s.title for s in search.compendium.packs["salt"].sections}
    for question, title in (
        ("ストームフェイズでは何が起きますか?", "The Storm Phase"),
        ("트레이딩 페이즈에는 뭘 할 수 있어?", "The Trading Phase"),
        ("폭풍 단계에서는 무슨 일이 일어나?", "The Storm Phase"),
    ):
        found = search.search(question, "salt", limit=1)
        assert found and titles[found[0].section] == title, question
    for junk in ("오늘 점심 뭐 먹지?", "今日の昼ごはん何にしよう?"):
        assert search.search(junk, "salt") == [], junk

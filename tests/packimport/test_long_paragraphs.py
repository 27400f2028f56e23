"""A paragraph longer than a rule can be (sections.LONGEST_RULE) is split at sentence ends into
rules the model reads whole, every character kept (the import's own check) and said in the
report; a printed number keeps naming one rule."""

from __future__ import annotations

import pytest
from said import said

from tabletop.cli.imports import report
from tabletop.packimport import sections
from tabletop.packimport.writer import import_pack

SENTENCES = {
    "en": "Sailor {n} rows the boat to the harbour before the bell rings, then rests for a while.",
    "ko": "선원 {n}은 종이 울리기 전에 배를 항구로 저어 가고, 그다음 잠시 쉽니다.",
    "ja": "船員{n}は鐘が鳴る前に船を港まで漕ぎ、それから少し休みます。",
}


@pytest.mark.parametrize("language", sorted(SENTENCES))
def test_a_long_paragraph_becomes_rules_of_whole_sentences(language, tmp_path):
    joiner = "" if language == "ja" else " "
    paragraph = joiner.join(SENTENCES[language].format(n=n) for n in range(200))
    assert len(paragraph) > 3 * sections.LONGEST_RULE
    source = tmp_path / "long.md"
    source.write_text(f"# Harbour\n\n## Rowing\n\nShort first rule.\n\n{paragraph}\n\n## Resting\n\nRest.\n", "utf-8")
    done = import_pack(source, "long", tmp_path / "rules")  # writes only when every character is there
    rowing = next(s for s in done.sections if s["title"] == "Rowing")
    texts = [r["text"] for r in rowing["rules"]][1:]
    assert len(texts) >= 4 and all(len(t) <= sections.LONGEST_RULE for t in texts)
    end = "。" if language == "ja" else "."
    assert all(t.endswith(end) for t in texts)  # cut at sentence ends only
    assert joiner.join(texts) == paragraph
    assert any(said("import.note.split", line, parts=len(texts)) for line in report(done))


def test_a_run_without_sentence_ends_is_cut_at_spaces_then_anywhere():
    words = " ".join(["harbour"] * 1000)
    parts = sections.pieces(words)
    assert all(len(p) <= sections.LONGEST_RULE for p in parts) and " ".join(parts) == words
    solid = "港" * 5000
    assert "".join(sections.pieces(solid)) == solid and len(sections.pieces(solid)) == 3
    assert sections.pieces("Short.") == ["Short."]


def test_a_printed_rule_too_long_keeps_its_number_and_holds_the_rest_as_paragraphs(tmp_path):
    body = " ".join(SENTENCES["en"].format(n=n) for n in range(60))
    source = tmp_path / "numbered.txt"
    source.write_text(f"1 Harbour\n1.1 {body}\n1.2 Rest.\n2 Storms\n2.1 Storms come.\n", "utf-8")
    done = import_pack(source, "numbered", tmp_path / "rules")
    rules = done.sections[0]["rules"] if done.sections[0]["id"] == "1" else done.sections[1]["rules"]
    first = next(r for r in rules if r["id"] == "1.1")
    assert len(first["text"]) <= sections.LONGEST_RULE and len(first["items"]) >= 2
    assert [r["id"] for r in rules] == ["1.1", "1.2"]
    assert any(said("import.note.split_numbered", line, rule="1.1") for line in report(done))

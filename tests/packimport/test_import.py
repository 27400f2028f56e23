"""`bot.py pack import`: a rulebook cut into a pack that holds every character of it, sections
where the hand-made packs have them, searchable at once, and refusals that write nothing."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from boundaries import agreement, starts
from fidelity import PACK_SEEDS, RELATED_PREFIX, SEEDS
from run_bot import run_bot

from tabletop.core.errors import UserError
from tabletop.core.i18n import t
from tabletop.core.paths import RULES_DIR
from tabletop.packimport.fidelity import pack_lines, squash
from tabletop.packimport.writer import import_pack
from tabletop.rules import answers, cards, ruledb
from tabletop.rules.compendium import Compendium
from tabletop.rules.packs import load_pack

# The share of the hand-made packs' sections an import must also start (pooled over the five
# seeds, as the issue asks), and the least any one seed may fall to (today's figures: 0.86-1.00).
POOLED_FLOOR = 0.90
EACH_FLOOR = 0.80


def imported_text(tmp_path: Path, name: str, text: str, pack_id: str):
    """A document written to tmp_path/name and imported as pack_id: (the import, the pack)."""
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    done = import_pack(source, pack_id, tmp_path / "rules")
    return done, load_pack(tmp_path / "rules" / pack_id, tmp_path)


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> dict[str, tuple]:
    """Every seed imported as it comes, beside its hand-made pack."""
    root = tmp_path_factory.mktemp("imports")
    out = {}
    for pack_id, (seed, _) in PACK_SEEDS.items():
        done = import_pack(SEEDS / seed, pack_id, root)
        out[pack_id] = (done, load_pack(root / pack_id, root), load_pack(RULES_DIR / pack_id))
    return out


def test_every_seed_imports_with_every_character_in_order(imported):
    for pack_id, (done, pack, _) in imported.items():
        seed = (SEEDS / PACK_SEEDS[pack_id][0]).read_text(encoding="utf-8")
        # the check the writer made, made again here: the pack's characters are the file's
        # (a printed number's trailing dot apart: 62.13. is rule 62.13)
        document = squash([re.sub(r"^(\d+\.\d+)\.(?=\s)", r"\1", line) for line in seed.splitlines()])
        assert squash(pack_lines(pack)) == document, pack_id
        assert done.written and len(pack.sections) == len(done.sections)


def test_imports_start_sections_where_the_hand_made_packs_do(imported):
    found = total = 0
    for pack_id, (_, pack, hand) in imported.items():
        prefix = RELATED_PREFIX.get(pack_id, "")
        document = squash(pack_lines(pack))
        base = document.find(squash(pack_lines(hand, prefix))[:40])  # TI4's pack leaves out the front matter
        hand_starts = [base + x for x in starts(hand, prefix)]
        recall, _ = agreement(hand_starts, starts(pack))
        assert recall >= EACH_FLOOR, (pack_id, recall)
        found += round(recall * len(hand_starts))
        total += len(hand_starts)
    assert found / total >= POOLED_FLOOR, found / total


def test_the_glossary_keeps_its_printed_numbers(imported):
    done, pack, hand = imported["ti4"]
    assert pack.numbering == "source"
    assert pack.names["ko"] == "용어 사전" and pack.sections[0].title == "용어 사전"  # the line before 62, not 62's title
    numbers = {s.number for s in pack.sections}
    assert set(range(62, 90)) <= numbers
    bombard = next(s for s in pack.sections if s.number == 79)
    assert (bombard.title, bombard.kind) == ("폭격", "유닛 능력")
    hand_bombard = next(s for s in hand.sections if s.number == 79)
    assert [r.id for r in bombard.rules] == [r.id for r in hand_bombard.rules]
    assert bombard.rules[0].text == hand_bombard.rules[0].text


def test_markdown_headings_come_from_the_markup(tmp_path):
    source = tmp_path / "house.md"
    source.write_text(
        "# House rules\n\nOur table's rules.\n\n## Setup\n\nDeal five cards.\n\n```\n# not a heading\n```\n\n"
        "## Turns\n\nPlay one card.\n\n- Draw after playing.\n- Pass clockwise.\n\nScoring\n-------\n\nCount points.\n\n"
        "## Pieces\n\n- 5 cards\n- 2 dice\n",
        encoding="utf-8",
    )
    done = import_pack(source, "house", tmp_path / "rules", language="en")
    pack = load_pack(tmp_path / "rules" / "house", tmp_path)
    titles = [s.title for s in pack.sections]
    assert titles == ["House rules", "Setup", "Turns", "Scoring", "Pieces"] and pack.numbering == "generated"
    pieces = pack.sections[4].rules[0]  # a list first under its title: every item keeps its mark
    assert pieces.text == "" and [(i.kind, i.text) for i in pieces.items] == [("bullet", "5 cards"), ("bullet", "2 dice")]
    setup = pack.sections[1]
    assert "# not a heading" in " ".join(r.text for r in setup.rules)
    turns = pack.sections[2]
    assert [i.kind for i in turns.rules[0].items] == ["bullet", "bullet"]
    assert done.language == "en"


def test_a_word_file_reads_its_heading_styles_and_tables(tmp_path):
    import docx

    document = docx.Document()
    document.add_heading("보드게임", 0)
    document.add_heading("준비", 1)
    document.add_paragraph("카드를 섞습니다.")
    document.add_heading("점수", 1)
    document.add_paragraph("점수표는 아래와 같습니다.")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "1등", "5점"
    table.cell(1, 0).text, table.cell(1, 1).text = "2등", "3점"
    source = tmp_path / "game.docx"
    document.save(source)
    done = import_pack(source, "board", tmp_path / "rules")
    pack = load_pack(tmp_path / "rules" / "board", tmp_path)
    assert done.language == "ko"
    assert [s.title for s in pack.sections] == ["준비", "점수"] and pack.sections[0].part == "보드게임"
    rows = [i.cells for r in pack.sections[1].rules for i in r.items if i.kind == "row"]
    assert rows == [["1등", "5점"], ["2등", "3점"]]


def test_a_word_table_gives_a_merged_cell_once_and_a_nested_table_its_rows(tmp_path):
    import docx

    document = docx.Document()
    document.add_heading("점수", 1)
    document.add_paragraph("점수표입니다.")
    table = document.add_table(rows=2, cols=3)
    merged = table.cell(0, 0).merge(table.cell(0, 1))
    merged.text = "합친 칸"
    table.cell(0, 2).text = "오른쪽"
    table.cell(1, 0).text = "아래"
    inner = table.cell(1, 2).add_table(rows=1, cols=2)
    inner.cell(0, 0).text, inner.cell(0, 1).text = "안쪽", "표"
    document.add_heading("끝", 1)
    document.add_paragraph("끝입니다.")
    source = tmp_path / "merged.docx"
    document.save(source)
    import_pack(source, "merged", tmp_path / "rules")
    pack = load_pack(tmp_path / "rules" / "merged", tmp_path)
    rows = [i.cells for r in pack.sections[0].rules for i in r.items if i.kind == "row"]
    assert rows[0] == ["합친 칸", "오른쪽"] and ["안쪽", "표"] in rows
    assert sum(c.count("합친 칸") for row in rows for c in row) == 1


def test_numbers_with_a_dot_stay_as_written_unless_they_became_rule_numbers(tmp_path):
    _, pack = imported_text(tmp_path, "dots.txt", "Setup\n\n1.1. Each player takes a card.\n\n1.2. Shuffle the deck.\n", "dots")
    assert [r.text for r in pack.sections[0].rules] == ["1.1. Each player takes a card.", "1.2. Shuffle the deck."]


def test_line_and_page_breaks_of_every_kind_are_lines(tmp_path):
    _, pack = imported_text(
        tmp_path, "breaks.md", "# Title\n\nA line\u2028and more.\x0c\n## Play\r\n\r\nGo.\n\n## End\n\nStop.\n", "breaks"
    )
    assert [s.title for s in pack.sections] == ["Title", "Play", "End"]
    assert [r.text for r in pack.sections[0].rules] == ["A line and more."]


def test_a_dry_run_creates_nothing_and_an_unwritable_folder_is_a_sentence(tmp_path):
    source = tmp_path / "a.txt"
    source.write_text("준비\n\n카드를 섞습니다.\n", encoding="utf-8")
    import_pack(source, "a", tmp_path / "missing", dry_run=True)
    assert not (tmp_path / "missing").exists()
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(UserError, match="RULES_DIR"):
        import_pack(source, "a", blocker)


def test_a_failed_replace_puts_the_old_pack_back(tmp_path, monkeypatch):
    rules = tmp_path / "rules"
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("준비\n\n카드를 섞습니다.\n", encoding="utf-8")
    second.write_text("진행\n\n한 장씩 냅니다.\n", encoding="utf-8")
    import_pack(first, "mine", rules)
    real_rename = Path.rename

    def failing(self, target):
        if Path(target) == rules / "mine" and ".replaced" not in str(self):
            raise OSError("disk full")
        return real_rename(self, target)

    monkeypatch.setattr(Path, "rename", failing)
    with pytest.raises(UserError):
        import_pack(second, "mine", rules, replace=True)
    monkeypatch.undo()
    assert load_pack(rules / "mine", tmp_path).sections[0].title == "준비"
    assert sorted(p.name for p in rules.iterdir()) == ["mine"]


@pytest.mark.parametrize(
    ("name", "content", "pack_id", "key"),
    [
        ("empty.txt", b"", "x", "import.empty"),
        ("blank.md", b"\n  \n\t\n", "x", "import.empty"),
        ("binary.txt", b"\x89PNG\r\n\x1a\n\x00\x00", "x", "import.binary"),
        ("latin.txt", "café rules".encode("latin-1"), "x", "import.not_utf8"),
        ("broken.docx", b"PK\x03\x04 not a zip", "x", "import.binary"),
        ("rules.pdf", b"%PDF-1.7", "x", "import.pdf"),
        ("rules.odt", b"text", "x", "import.kind"),
        ("folder.txt", None, "x", "import.folder"),
        ("ok.txt", "규칙\n\n카드를 섞습니다.\n".encode(), "../escape", "import.bad_id"),
        ("ok.txt", "규칙\n\n카드를 섞습니다.\n".encode(), "a/b", "import.bad_id"),
        ("ok.txt", "규칙\n\n카드를 섞습니다.\n".encode(), "Ti4", "import.bad_id"),
        ("ok.txt", "규칙\n\n카드를 섞습니다.\n".encode(), "ti4", "import.exists"),
    ],
)
def test_bad_input_gets_a_sentence_and_writes_nothing(tmp_path, name, content, pack_id, key):
    from tabletop.core.i18n import catalogue

    rules = tmp_path / "rules"
    shutil.copytree(RULES_DIR / "ti4", rules / "ti4")
    before = sorted(p.relative_to(rules) for p in rules.rglob("*"))
    source = tmp_path / name
    if content is None:
        source.mkdir()
    else:
        source.write_bytes(content)
    with pytest.raises(UserError) as caught:
        import_pack(source, pack_id, rules)
    template = catalogue("ko")[key].split("{")[0]
    assert caught.value.message.startswith(template), caught.value.message
    assert sorted(p.relative_to(rules) for p in rules.rglob("*")) == before


def test_a_language_it_cannot_read_is_one_sentence(cli_env, tmp_path):
    source = tmp_path / "a.txt"
    source.write_text("준비\n\n카드를 섞습니다.\n", encoding="utf-8")
    env = {**cli_env, "RULES_DIR": str(tmp_path / "rules")}
    out = run_bot(["pack", "import", str(source), "--id", "a", "--language", "xx", "--locale", "en"], env)
    assert out.returncode == 1 and out.stderr.strip() == t("import.bad_language", "en", languages="ko, en, ja")
    assert not (tmp_path / "rules" / "a").exists()


def test_replace_swaps_the_pack_and_dry_run_writes_nothing(tmp_path):
    rules = tmp_path / "rules"
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("준비\n\n카드를 섞습니다.\n", encoding="utf-8")
    second.write_text("진행\n\n차례대로 한 장씩 냅니다.\n", encoding="utf-8")
    import_pack(first, "mine", rules)
    dry = import_pack(second, "mine", rules, replace=True, dry_run=True)
    assert not dry.written and load_pack(rules / "mine", tmp_path).sections[0].title == "준비"
    assert dry.replaces
    import_pack(second, "mine", rules, replace=True)
    assert load_pack(rules / "mine", tmp_path).sections[0].title == "진행"
    assert sorted(p.name for p in rules.iterdir()) == ["mine"]  # no staging or old copy left


@pytest.mark.slow  # embeds a new pack: about 10 s
def test_an_imported_pack_is_searchable_at_once(tmp_path):
    """No lexicon: numbers, titles and questions find its rules through the dense ranker too."""
    rules = tmp_path / "rules"
    shutil.copytree(RULES_DIR, rules)
    import_pack(SEEDS / PACK_SEEDS["ti4"][0], "glossary", rules, title="용어 사전")
    db = tmp_path / "rules.db"
    ruledb.build(rules, db)
    comp = Compendium(db)
    assert "glossary" in comp.packs
    answer = answers.lookup(comp, "79.1", "glossary")
    assert answer.section.number == 79 and answer.rule == "79.1"
    assert comp.search.search("폭격", "glossary", limit=1)[0].section == "79"
    top = [r.section for r in comp.search.search("함대 지원고를 넘는 함선은 어떻게 돼?", "glossary", limit=3)]
    assert "81" in top


def test_the_command_line_imports_and_the_console_answers_from_it(cli_env, tmp_path):
    rules = tmp_path / "rules"
    shutil.copytree(RULES_DIR, rules)
    env = {**cli_env, "RULES_DIR": str(rules)}
    source = tmp_path / "house.md"
    source.write_text(
        "# 우리 집 규칙\n\n## 간식 규칙\n\n간식은 차례가 끝난 사람만 먹습니다.\n\n## 휴식\n\n두 라운드마다 5분 쉽니다.\n",
        encoding="utf-8",
    )
    dry = run_bot(["pack", "import", str(source), "--id", "house", "--dry-run", "--locale", "en"], env)
    assert dry.returncode == 0 and "--dry-run" in dry.stdout and not (rules / "house").exists()
    done = run_bot(["pack", "import", str(source), "--id", "house"], env)
    assert done.returncode == 0, done.stderr
    assert "섹션 2개" in done.stdout and (rules / "house" / "pack.yaml").exists()
    meta = yaml.safe_load((rules / "house" / "pack.yaml").read_text(encoding="utf-8"))
    assert meta["names"]["ko"] == "우리 집 규칙" and meta["language"] == "ko"
    again = run_bot(["pack", "import", str(source), "--id", "house"], env)
    assert again.returncode == 1 and "--replace" in again.stderr and "Traceback" not in again.stderr
    out = run_bot(["console"], env, stdin="/settings game:house\n간식은 언제 먹어?\n/rule 휴식 game:house\n")
    assert out.returncode == 0, out.stderr
    assert "간식은 차례가 끝난 사람만 먹습니다." in out.stdout
    assert "두 라운드마다 5분 쉽니다." in out.stdout


def test_the_website_includes_an_imported_pack(tmp_path):
    from tabletop.site import build

    rules = tmp_path / "rules"
    shutil.copytree(RULES_DIR / "ti4", rules / "ti4")
    source = tmp_path / "house.txt"
    source.write_text("간식 규칙\n\n간식은 차례가 끝난 사람만 먹습니다.\n", encoding="utf-8")
    import_pack(source, "house", rules)
    db = tmp_path / "rules.db"
    ruledb.build(rules, db)
    out = tmp_path / "site"
    build.build(Compendium(db), out)
    pages = "".join(p.read_text(encoding="utf-8") for p in (out / "house").rglob("*.html"))
    assert "간식은 차례가 끝난 사람만 먹습니다." in pages


def test_plain_text_lists_end_where_a_heading_follows_a_blank_line(tmp_path):
    _, pack = imported_text(
        tmp_path,
        "small.txt",
        "작은 게임\n\n이 게임은 예시입니다.\n\n구성물\n\n- 카드 10장\n- 토큰 5개\n\n준비\n\n카드를 섞습니다.\n",
        "small",
    )
    assert [s.title for s in pack.sections] == ["작은 게임", "구성물", "준비"]
    assert [i.text for i in pack.sections[1].rules[0].items] == ["카드 10장", "토큰 5개"]


def test_japanese_plain_text_keeps_its_list_marks_and_noun_headings(tmp_path):
    done, pack = imported_text(
        tmp_path,
        "kitsune.txt",
        "きつねの宝探し\n\nきつねの宝探しは、森で宝石を集めるゲームです。\n\n内容物\n\n・森タイル二十枚\n・宝石チップ三十個\n\n"
        "手番の流れ\n\n手番プレイヤーはカードを一枚引き、\nきつねコマを進めます。\n",
        "kitsune",
    )
    assert done.language == "ja" and pack.names["ja"] == "きつねの宝探し"
    assert [s.title for s in pack.sections] == ["きつねの宝探し", "内容物", "手番の流れ"]
    assert [(i.kind, i.text) for i in pack.sections[1].rules[0].items] == [
        ("bullet", "・森タイル二十枚"),
        ("bullet", "・宝石チップ三十個"),
    ]
    assert pack.sections[2].rules[0].text == "手番プレイヤーはカードを一枚引き、きつねコマを進めます。"  # joined without a space


def test_a_rules_folder_of_imported_packs_only_answers(tmp_path):
    """An imported pack has no aliases, related topics or lexicon: the database still has those
    tables, so a folder of imported packs alone (RULES_DIR) answers."""
    rules = tmp_path / "rules"
    source = tmp_path / "small.txt"
    source.write_text("준비\n\n카드를 섞습니다.\n\n종료\n\n카드가 없으면 끝납니다.\n", encoding="utf-8")
    import_pack(source, "small", rules)
    db = tmp_path / "rules.db"
    ruledb.build(rules, db)
    comp = Compendium(db)
    assert answers.lookup(comp, "2.1", "small").section.title == "종료"


def test_a_printed_glossary_keeps_lead_ins_inside_its_numbered_sections(tmp_path):
    _, pack = imported_text(
        tmp_path,
        "printed.txt",
        "62 정책 단계\n\n62.1 첫 규칙입니다.\n\n63 정책 카드\n\n63.1 둘째 규칙입니다.\n\n"
        "법: 게임에 남습니다.\n\n명령: 한 번 쓰입니다.\n\n선출: 누군가를 뽑습니다.\n\n64 정치\n\n64.1 셋째 규칙입니다.\n",
        "printed",
    )
    assert [s.number for s in pack.sections] == [62, 63, 64]
    assert [i.text for i in pack.sections[1].rules[0].items][:1] == ["법: 게임에 남습니다."]


def test_a_word_file_with_broken_xml_is_a_sentence(tmp_path):
    import zipfile

    import docx

    good = tmp_path / "good.docx"
    docx.Document().save(good)
    broken = tmp_path / "broken.docx"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(broken, "w") as out:
        for item in src.infolist():
            data = src.read(item.filename)
            out.writestr(item, b"<w:document><unclosed>" if item.filename == "word/document.xml" else data)
    with pytest.raises(UserError, match="docx"):
        import_pack(broken, "broken", tmp_path / "rules")


def test_a_question_finds_an_imported_rule_by_a_word_read_in_its_sentence(tmp_path):
    """해적이 read alone splits as 해 + 적 + 이; in the question it is 해적: the rule is found."""
    rules = tmp_path / "rules"
    source = tmp_path / "star.md"
    source.write_text(
        "# 별빛 상인\n\n## 차례 진행\n\n주사위를 굴리고 이동합니다.\n\n### 해적 습격\n\n주사위 두 개가 같은 눈이면 해적이 습격합니다.\n\n"
        "## 게임 종료\n\n누군가 금화 20개를 모으면 끝납니다.\n",
        encoding="utf-8",
    )
    import_pack(source, "star", rules)
    db = tmp_path / "rules.db"
    ruledb.build(rules, db)
    results = Compendium(db).search.search("해적이 오면 어떻게 돼?", "star", limit=1)
    assert results and results[0].rule == "1.2"


def test_markup_decides_every_heading_even_beside_printed_numbers_and_chapter_marks(tmp_path):
    _, pack = imported_text(
        tmp_path,
        "mixed.md",
        "# 정책\n\n62 정책 단계\n\n62.1 첫 규칙입니다.\n\n63 정책 카드\n\n63.1 둘째 규칙입니다.\n\n"
        "# 부록\n\n제3장 전투\n\n끝입니다.\n",
        "mixed",
    )
    assert pack.numbering == "generated" and [s.title for s in pack.sections] == ["정책", "부록"]


def test_an_import_writes_an_empty_card_per_section_that_the_check_lists(tmp_path):
    rules = tmp_path / "rules"
    done = import_pack(SEEDS / PACK_SEEDS["ti4"][0], "glossary", rules, title="용어 사전")
    written = sorted((rules / "glossary" / "cards").glob("*.yaml"))
    assert len(written) == len(done.sections)
    pack = load_pack(rules / "glossary", tmp_path)
    first = pack.sections[0]
    card = pack.cards[first.id]
    assert card.names == {"ko": first.title, "en": "", "ja": ""} and not card.questions
    keys = [key for key, _ in cards.gaps(first, card, pack.language)]
    assert keys[:1] == ["cards.gap.name"] and keys.count("cards.gap.summary") == 3 and "cards.gap.count" in keys


@pytest.mark.parametrize("title", ['evil: "x"\nlanguage: ja\n- [', "x" * 5000, "tab\there", "bell\a"])
def test_a_title_is_one_line_a_menu_can_show(tmp_path, title):
    """--title became the /game list's entry: a line break injected lines, 5,000 characters
    overflowed Discord's 100-character choice."""
    source = tmp_path / "ok.txt"
    source.write_text("규칙\n\n카드를 섞습니다.\n", encoding="utf-8")
    with pytest.raises(UserError) as caught:
        import_pack(source, "mine", tmp_path / "rules", title=title)
    assert caught.value.message == t("import.bad_title", limit=100)
    assert not (tmp_path / "rules" / "mine").exists()


def test_without_ti4_the_first_pack_present_is_every_commands_game(cli_env, tmp_path):
    """A RULES_DIR of imported packs only: /game, /rule and the command line answer from the pack
    there is (the console's /game ended in KeyError: 'ti4' and an error id)."""
    rules = tmp_path / "rules"
    source = tmp_path / "small.txt"
    source.write_text("준비\n\n카드를 섞습니다.\n\n종료\n\n카드가 없으면 끝납니다.\n", encoding="utf-8")
    import_pack(source, "small", rules)
    env = {**cli_env, "RULES_DIR": str(rules), "RULES_DB": str(tmp_path / "rules.db")}
    console = run_bot(["console"], env, stdin="/game\n/rule 종료\n")
    assert console.returncode == 0 and "Traceback" not in console.stdout + console.stderr
    assert "▶ small" in console.stdout and "2.1 카드가 없으면 끝납니다." in console.stdout
    assert t("error.unexpected", error_id="").split("{")[0][:10] not in console.stdout
    for command, says in ((["rule", "2.1"], "카드가 없으면"), (["search", "카드"], "2 종료")):
        done = run_bot(command, env)
        assert done.returncode == 0 and says in done.stdout, done.stderr

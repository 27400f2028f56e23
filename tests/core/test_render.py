"""Every section of every pack renders into pages that fit Discord and lose no text."""

from __future__ import annotations

from fidelity import norm
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.core.render import Reply, check_limits, paginate, plain, split_text
from tabletop.rules import answers


def all_sections(compendium):
    return [s for p in compendium.packs.values() for s in p.sections]


def section_texts(section):
    """Every piece of source text a section holds (table rows cell by cell: a page shows
    them with a │ between cells)."""
    texts = section.intro_lines() + ([section.part] if section.part else [])
    for r in section.rules:
        texts += [x for x in (r.heading, r.text) if x]
        for item in r.items:
            texts += item.cells if item.kind == "row" else [item.text]
    return [norm(t) for t in texts if t.strip()]


def test_every_section_fits_and_keeps_its_full_text(compendium):
    for section in all_sections(compendium):
        for rule_id in [None] + [r.id for r in section.rules[:3]]:
            answer = answers.section_answer(compendium, section, rule_id)
            joined = ""
            for reply in answer.replies():
                assert check_limits(reply) == [], (section.id, check_limits(reply))
                joined += "\n" + plain(reply.embeds[0].description)
            flat = norm(joined)
            for text in section_texts(section):
                assert text in flat, (section.id, text[:40])
            if rule_id:
                assert "▶" in answer.pages[answer.start].description


def test_long_section_is_split_between_rules(compendium):
    s = compendium.section("ti4", "62")
    answer = answers.section_answer(compendium, s, "62.22")
    assert len(answer.pages) >= 2
    assert "62.22" in answer.pages[answer.start].description
    for page in answer.pages:  # no rule cut in the middle: every page starts at a block start
        first = plain(page.description).lstrip()
        assert first.startswith(("62.", "정책 단계", "▶"))
    r = answer.reply(answer.start)
    nav = r.rows[0]
    assert [b.custom_id for b in nav] == ["page:prev", "page:next"]
    assert nav[1].disabled == (answer.start == len(answer.pages) - 1)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(min_size=0, max_size=3000), min_size=1, max_size=8), st.integers(50, 4000))
def test_pagination_never_loses_or_exceeds(blocks, budget):
    pages = paginate(blocks, budget)
    assert all(len(text) <= budget for text, _ in pages)
    joined = "".join(text for text, _ in pages)
    squash = lambda x: "".join(x.split())  # noqa: E731
    assert squash(joined) == squash("".join(blocks))


@given(st.text(max_size=5000), st.integers(1, 500))
def test_split_text_round_trip(text, budget):
    chunks = split_text(text, budget)
    assert all(len(c) <= budget for c in chunks)
    assert "".join(c.replace("\n", "") for c in chunks) == text.replace("\n", "")


def test_check_limits_catches_overflow():
    from tabletop.core.render import Embed

    assert check_limits(Reply(content="x" * 2001))
    assert check_limits(Reply(embeds=[Embed(title="t" * 257)]))
    assert check_limits(Reply(embeds=[Embed(description="d" * 4097)]))


def test_a_lone_menus_options_are_numbered_without_the_menus_name():
    from tabletop.core.render import Reply, Select, SelectOption, choices

    one = Select("pick", "열어 볼 항목 고르기…", [SelectOption("79 폭격", "79"), SelectOption("80 피해 견딤", "80")])
    assert [c.label for c in choices(Reply(rows=[[one]]))] == ["79 폭격", "80 피해 견딤"]
    other = Select("other", "결과 고르기…", [SelectOption("가결", "0")])
    labels = [c.label for c in choices(Reply(rows=[[one], [other]]))]
    assert labels == ["열어 볼 항목 고르기: 79 폭격", "열어 볼 항목 고르기: 80 피해 견딤", "결과 고르기: 가결"]

"""Every section of every pack renders into pages that fit Discord and lose no text."""

from __future__ import annotations

from fidelity import norm
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.core.payloads import check_limits
from tabletop.core.render import Reply, paginate, plain, split_text
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


def test_a_reply_becomes_one_card_with_its_buttons_inside():
    from tabletop.core.payloads import ACTION_ROW, CONTAINER, MEDIA_GALLERY, TEXT_DISPLAY, card, card_payload, role
    from tabletop.core.render import Button, Embed

    reply = Reply(
        content="found in Liftoff",
        embeds=[
            Embed(title="T", description="D", fields=[("A", "1"), ("B", "2")], footer="F", image="attachment://c.png", color=7)
        ],
        rows=[[Button("x", "rule:open:ti4:75")], []],
        ephemeral=True,
    )
    top = card(reply)
    assert [c["type"] for c in top] == [TEXT_DISPLAY, CONTAINER] and top[0]["content"] == "found in Liftoff"
    inside = top[1]["components"]
    assert top[1]["accent_color"] == 7
    assert [c["type"] for c in inside] == [TEXT_DISPLAY] * 4 + [MEDIA_GALLERY, TEXT_DISPLAY, ACTION_ROW]  # no empty row
    assert [c["content"] for c in inside if c["type"] == TEXT_DISPLAY] == ["### T", "D", "**A**\n1", "**B**\n2", "-# F"]
    assert [role(c["id"])[1] for c in inside[:4]] == [1, 2, 10, 11]
    assert inside[4]["items"] == [{"media": {"url": "attachment://c.png"}}]
    assert inside[-1]["components"][0]["custom_id"] == "rule:open:ti4:75"
    assert card_payload(reply)["flags"] == 1 << 15 | 64 and "embeds" not in card_payload(reply)


def test_card_limits_count_nested_components_and_shared_text():
    from tabletop.core.render import Button, Embed

    forty_one = Reply(
        embeds=[Embed(title="t", description="d", fields=[(str(i), "v") for i in range(14)])],
        rows=[[Button(str(i), f"b{r}{i}") for i in range(5)] for r in range(4)],
    )
    assert any("components" in p for p in check_limits(forty_one))  # 1 + 16 texts + 4 rows + 20 buttons
    assert not any("components" in p for p in check_limits(Reply(embeds=forty_one.embeds, rows=forty_one.rows[:3])))
    wordy = Reply(embeds=[Embed(title="t" * 200, description="d" * 3800)])  # each within an embed's limits
    assert any("card text" in p for p in check_limits(wordy))

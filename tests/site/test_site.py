"""The rules website: every section at its address with every rule at its anchor, the packs'
text exactly, related topics, names in every language, deep links from the bot's answers, and
the pages in a real browser (headless Chromium driven by Playwright): the target rule
highlighted, a Korean question searched offline, a page that is not blank."""

from __future__ import annotations

import html
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from run_bot import run_bot
from said import said

from tabletop.core.i18n import t
from tabletop.core.payloads import component
from tabletop.rules import answers, links

ROOT = Path(__file__).resolve().parents[2]


def page_text(path: Path) -> str:
    raw = re.sub(r"<script.*?</script>", "", path.read_text("utf-8"), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", raw)).split())


def test_every_section_has_its_page_and_every_rule_its_anchor(compendium, site):
    for pack in compendium.packs.values():
        assert (site / pack.id / "index.html").exists() and (site / pack.id / "search.html").exists()
        for section in pack.sections:
            page = (site / links.page(pack.id, section.id)).read_text("utf-8")
            for rule in section.rules:
                assert f'id="{links.anchor(rule.id)}"' in page, (pack.id, rule.id)
    assert 'id="r79-1"' in (site / "ti4" / "79.html").read_text("utf-8")


def test_pages_hold_the_packs_text_exactly(compendium, site):
    for pack in compendium.packs.values():
        for section in pack.sections:
            shown = page_text(site / links.page(pack.id, section.id))
            for rule in section.rules:
                for line in [rule.text, rule.heading, *(i.text for i in rule.items if i.kind != "row")]:
                    assert " ".join(line.split()) in shown, (pack.id, rule.id, line[:40])


def test_related_topics_names_and_outside_topics(compendium, site):
    page = (site / "ti4" / "79.html").read_text("utf-8")
    shown = page_text(site / "ti4" / "79.html")
    assert "Bombardment" in shown and "폭격" in shown  # the section's names in every language
    for topic in compendium.related(compendium.section("ti4", "79")):
        if topic.target:
            assert f'href="{topic.target}.html"' in page
        else:
            assert f"{topic.name} {answers.t('related.missing', 'ko')}" in shown
    index = page_text(site / "index.html")
    assert all(p.name("ko") in index for p in compendium.packs.values())


def test_answers_link_to_their_rule_on_the_site(compendium, monkeypatch, cli_env):
    monkeypatch.setenv("RULES_SITE_URL", "https://rules.example/ti4-site/")
    answer = answers.lookup(compendium, "79.1", "ti4")
    link = [b for row in answer.reply().rows for b in row if getattr(b, "url", "")]
    assert link and link[0].url == "https://rules.example/ti4-site/ti4/79.html#r79-1"
    assert component(link[0]) == {"type": 2, "style": 5, "label": t("site.open"), "url": link[0].url}
    env = dict(cli_env, RULES_SITE_URL="https://rules.example")
    out = run_bot(["render", "79.1", "--json"], env)
    assert "https://rules.example/ti4/79.html#r79-1" in out.stdout
    monkeypatch.delenv("RULES_SITE_URL")
    assert not [b for row in answers.lookup(compendium, "79.1", "ti4").reply().rows for b in row if getattr(b, "url", "")]


def test_a_japanese_packs_pages_say_their_text_is_japanese(site):
    page = (site / "galaxy-trucker-big-expansion" / "loans.html").read_text("utf-8")
    assert '<html lang="ko">' in page and '<main lang="ja">' in page  # Korean UI, Japanese rules
    assert "<main>" in (site / "ti4" / "79.html").read_text("utf-8")  # Korean rules in a Korean UI


def test_the_search_index_reads_korean_as_the_bot_does(compendium):
    from tabletop.site import search_index

    index = search_index.build(compendium, "ti4")
    assert "굴리다" in index["surface"].get("굴립니다", [])  # the rules' own form, as its lemma
    assert any(t.startswith("L:보병") for t, _ in index["lexicon"]["인프"])  # a player's spelling
    assert "으로" in index["particles"]
    assert index["docs"][index["numbers"]["79.1"]][1] == "79.html#r79-1"
    assert index["docs"][index["names"]["sustaindamage"][0]][3] == "80"
    assert index["docs"][index["names"]["爆撃"][0]][3] == "79"  # the Japanese name
    json.dumps(index, ensure_ascii=False)


def test_site_command_refuses_a_file_and_builds_a_folder(cli_env, tmp_path):
    afile = tmp_path / "file"
    afile.write_text("x")
    out = run_bot(["site", str(afile)], cli_env)
    assert out.returncode == 1 and said("site.not_a_folder", out.stderr) and "Traceback" not in out.stderr
    out = run_bot(["site", str(afile / "under")], cli_env)  # a path through a file
    assert out.returncode == 1 and said("site.parent_not_a_folder", out.stderr) and "Traceback" not in out.stderr
    out = run_bot(["site", "/proc/no-such-folder/site"], cli_env)  # a folder that cannot be made
    assert out.returncode == 1 and said("site.cannot_write", out.stderr) and "Traceback" not in out.stderr
    here = tmp_path / "here"
    here.mkdir()
    out = run_bot(["site", ""], cli_env, cwd=here)  # would write into the current folder
    assert out.returncode == 1 and said("site.no_folder", out.stderr) and list(here.iterdir()) == []
    out = run_bot(["site", str(tmp_path / "s")], cli_env)
    assert out.returncode == 0 and (tmp_path / "s" / "ti4" / "79.html").exists()
    # --locale is the site's language: its own words, and our notes and descriptions
    out = run_bot(["site", str(tmp_path / "s"), "--locale", "en"], cli_env)
    index = (tmp_path / "s" / "ti4" / "index.html").read_text(encoding="utf-8")
    assert out.returncode == 0 and "Rules Reference glossary 62–89" in index and "용어 사전 62–89" not in index
    assert "supernovas" in (tmp_path / "s" / "ti4" / "74.html").read_text(encoding="utf-8")


# --- in a real browser ------------------------------------------------------------------------


def test_a_rule_opened_by_its_anchor_is_highlighted(browser, served):
    page = browser.new_page()
    page.goto(f"{served}/ti4/79.html#r79-1")
    background = page.eval_on_selector("#r79-1", "e => getComputedStyle(e).backgroundColor")
    other = page.eval_on_selector("#r79-2", "e => getComputedStyle(e).backgroundColor")
    assert background != other and background not in ("rgba(0, 0, 0, 0)", "transparent")
    assert page.evaluate("() => location.hash") == "#r79-1"
    page.close()


def test_a_korean_question_searched_in_the_browser_leads_to_its_rule(browser, served):
    page = browser.new_page()
    page.goto(f"{served}/ti4/search.html")
    page.fill("#q", "폭격 주사위는 언제 굴려?")
    page.press("#q", "Enter")
    page.wait_for_selector("#results li a")
    first = page.locator("#results li a").first
    assert first.inner_text().startswith("79 폭격")
    first.click()
    page.wait_for_url(re.compile(r".*/ti4/79\.html#r79-\d+$"))
    target = page.evaluate("() => location.hash.slice(1)")
    assert page.eval_on_selector(f"#{target}", "e => getComputedStyle(e).backgroundColor") not in ("rgba(0, 0, 0, 0)",)
    # a player's spelling and a particle, as the bot reads them: 인프 is 보병 (infantry)
    page.goto(f"{served}/ti4/search.html?q=" + "인프는 어디로")
    page.wait_for_selector("#results li a")
    assert page.locator("#results li").count() > 0
    page.close()


def _browser_search(page, queries: list[str]) -> list[list[str]]:
    """The sections the page's own search ranks first for each question (at most three)."""
    return page.evaluate("qs => qs.map(q => window.searchRules(q).slice(0, 3).map(d => window.SEARCH_INDEX.docs[d][3]))", queries)


def test_the_browser_search_opens_numbers_and_names_in_every_language(browser, served):
    page = browser.new_page()
    page.goto(f"{served}/ti4/search.html")
    found = _browser_search(
        page, ["79.1", "sustain damage", "サステインダメージ", "爆撃はいつ？", "PDS가 우주전투에 쏠 수 있어?", "62.99"]
    )
    assert [f[:1] for f in found] == [["79"], ["80"], ["80"], ["79"], ["89"], []]
    assert page.evaluate("() => window.SEARCH_INDEX.docs[window.searchRules('79.1')[0]][1]") == "79.html#r79-1"
    page.goto(f"{served}/galaxy-trucker-big-expansion/search.html")
    assert _browser_search(page, ["대출 갚는 법"])[0][:1] == ["loans"]  # Korean, read against kanji
    page.close()


def test_a_page_is_not_blank(browser, served):
    from PIL import Image

    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
    page.goto(f"{served}/ti4/79.html")
    shot = Image.open(io.BytesIO(page.screenshot(full_page=False))).convert("L")
    low, high = shot.getextrema()
    assert high - low > 100  # text on a background, not one flat colour
    assert len(shot.getcolors(maxcolors=256) or []) > 20  # anti-aliased glyphs: Korean text was drawn
    page.close()


def test_site_serve_previews_on_localhost_and_skips_an_up_to_date_build(cli_env, tmp_path):
    import urllib.request

    out = tmp_path / "s"
    subprocess.run([sys.executable, "bot.py", "site", str(out)], cwd=ROOT, env=cli_env, check=True, capture_output=True)
    proc = subprocess.Popen(
        [sys.executable, "bot.py", "site", str(out), "--serve", "--port", "0"],
        cwd=ROOT,
        env=cli_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert said("site.up_to_date", proc.stdout.readline())  # built above: not rebuilt
        url = re.search(r"http://\S+/", proc.stdout.readline()).group(0)
        with urllib.request.urlopen(url + "ti4/79.html", timeout=10) as response:
            assert 'id="r79-1"' in response.read().decode("utf-8")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


# the width a placeholder needs in the box's own font, and the room the box gives it
_PLACEHOLDER_FIT = """(e, text) => {
  const style = getComputedStyle(e);
  const pen = document.createElement("canvas").getContext("2d");
  pen.font = style.font;
  const room = e.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [pen.measureText(text).width, room];
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_the_search_boxs_hint_is_shown_whole_in_every_language(browser, served, width):
    from tabletop.core.i18n import LOCALES, t

    page = browser.new_page(viewport={"width": width, "height": 800})
    for address in (f"{served}/ti4/79.html", f"{served}/ti4/search.html"):
        page.goto(address)
        box = page.locator("input[type=search]").first
        for locale in LOCALES:
            needed, room = box.evaluate(_PLACEHOLDER_FIT, t("site.search.placeholder", locale))
            assert needed <= room, (address, width, locale, needed, room)
    page.close()


# draws a text in an element's font and says whether it differs from the box a missing glyph gets
_DRAWN = r"""(e, text) => {
  const pen = document.createElement("canvas").getContext("2d");
  pen.canvas.width = 400; pen.canvas.height = 60;
  pen.font = getComputedStyle(e).font;
  const picture = s => { pen.clearRect(0, 0, 400, 60); pen.fillText(s, 4, 40);
    return Array.from(pen.getImageData(0, 0, 400, 60).data).join(","); };
  return Array.from(text).every(ch => picture(ch) !== picture("\u{10FFFD}"));
}"""


def test_kanji_in_the_japanese_pack_are_drawn_not_boxes(browser, served):
    page = browser.new_page()
    page.goto(f"{served}/galaxy-trucker-big-expansion/index.html")
    assert page.locator("main").evaluate(_DRAWN, "拡悪壊張") is True
    page.close()


def test_the_index_names_each_document_not_our_seed_files(site):
    index = page_text(site / "index.html")
    assert "seed" not in index and ".txt" not in index
    assert "Galaxy Trucker: The Big Expansion rules" in index

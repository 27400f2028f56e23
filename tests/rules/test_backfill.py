"""A big pack's texts are embedded after its build (tabletop/rules/backfill.py): the build does
not wait for them, the pack answers by its words meanwhile and says so, and once they are in it
is searched by meaning too, in the same process."""

from __future__ import annotations

import fcntl
import threading
import uuid

import pytest

from tabletop.cli import opened
from tabletop.packimport.writer import import_pack
from tabletop.rules import answers, backfill, ruledb
from tabletop.rules.compendium import Compendium
from tests.said import said

ENGLISH_RULES = """# Harbour Days

## Setting Up

Each player takes a ship, three cargo crates and five coins. {mark}

Shuffle the weather cards and place the deck beside the board.

## Turn Order

The player who last saw the sea goes first; play passes to the left.

On your turn you move, then you may trade, then you draw a weather card.

## Movement

A ship moves up to three spaces along the dotted sea lanes.

A ship may not pass through a space that holds another ship.

## Docking

A ship that ends its move beside a free pier docks there and unloads its cargo.

Only one ship may use a pier at a time.

## Storms

When the storm die shows a cloud, every ship at sea loses one sail.

A ship without sails drifts one space toward the reef each round.

## Trading

Two ships at the same harbour may swap cargo crates one for one.

## Repairs

Paying two coins at a shipyard restores one lost sail.

## End of the Game

The game ends when the weather deck runs out; the player with the most coins wins.
"""


@pytest.fixture
def waiting_pack(tmp_path, monkeypatch):
    """A small imported pack whose texts nobody embedded before, built with nothing embedded
    inline (as a big import is), in a rules folder of its own."""
    monkeypatch.setenv("EMBEDDINGS_CACHE", str(tmp_path / "cache.db"))
    monkeypatch.setattr(backfill, "INLINE_PASSAGES", 0)
    rules = tmp_path / "rules"
    source = tmp_path / "harbour.md"
    source.write_text(ENGLISH_RULES.format(mark=uuid.uuid4().hex), encoding="utf-8")
    import_pack(source, "harbour", rules)
    db = tmp_path / "rules.db"
    ruledb.build(rules, db)
    return rules, db


def test_a_pack_left_for_later_answers_by_its_words_and_says_so(waiting_pack):
    _, db = waiting_pack
    comp = Compendium(db)
    assert comp.waiting["harbour"] >= 16  # every passage, none embedded by the build
    assert comp.search._dense_view(comp.search.index("harbour"), "storm", "storm") is None
    answer = answers.lookup(comp, "storm die cloud", "harbour")
    assert answer.section.title == "Storms"
    with pytest.raises(answers.UserError) as refused:  # only the meaning could find this one
        answers.lookup(comp, "ゲームはいつ終わる?", "harbour")
    assert said("rules.waiting.note", refused.value.message, count=comp.waiting["harbour"])
    assert said("rules.waiting.note", answer.note, count=comp.waiting["harbour"])


def test_once_embedded_the_same_process_searches_by_meaning(waiting_pack):
    _, db = waiting_pack
    comp = Compendium(db)
    index = comp.search.index("harbour")  # an engine made before the texts are in
    waited = comp.waiting["harbour"]
    seen: list[tuple[int, int]] = []
    assert comp.embed_waiting(lambda done, total: seen.append((done, total))) == waited
    assert comp.waiting == {} and seen[-1] == (waited, waited)
    assert comp.search._dense_view(index, "storm", "storm") is not None
    answer = answers.lookup(comp, "ゲームはいつ終わる?", "harbour")  # no word in common: the meaning finds it
    assert answer.section.title == "End of the Game" and not answer.note


def test_a_rebuild_takes_the_embedded_texts_from_the_cache(waiting_pack):
    rules, db = waiting_pack
    assert Compendium(db).embed_waiting() > 0
    (rules / "harbour" / "01.yaml").write_text((rules / "harbour" / "01.yaml").read_text("utf-8") + "\n", "utf-8")
    ruledb.build(rules, db)
    assert Compendium(db).waiting == {}


def test_one_process_fills_at_a_time_and_a_closing_one_stops(waiting_pack):
    _, db = waiting_pack
    with open(db.with_name(db.name + ".embedding"), "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert backfill.fill(db) == 0  # another process is at it: nothing done twice
    stop = threading.Event()
    stop.set()
    assert backfill.fill(db, stop=stop) == 0
    assert Compendium(db).waiting["harbour"] >= 16  # nothing written


def test_the_command_line_says_how_to_finish_and_the_console_embeds_meanwhile(waiting_pack, monkeypatch, capsys):
    rules, db = waiting_pack
    monkeypatch.setenv("RULES_DIR", str(rules))
    monkeypatch.setenv("RULES_DB", str(db))
    comp = opened.compendium()
    count = comp.waiting["harbour"]
    assert said("rules.waiting.later", capsys.readouterr().err, pack="harbour", count=count)
    comp = opened.compendium(background=True)
    assert said("rules.waiting.background", capsys.readouterr().err, pack="harbour", count=count)
    worker = next(t for t in threading.enumerate() if t.name == "embed-later")
    worker.join(timeout=120)
    assert comp.waiting == {}


def test_a_lone_kanji_or_hangul_syllable_is_a_word_the_meaning_is_asked_about(waiting_pack):
    _, db = waiting_pack
    index = Compendium(db).search.index("harbour")
    assert index.asks("嵐") and index.asks("돛이 없으면?") and index.asks("storm")
    assert not index.asks("ー") and not index.asks("é") and not index.asks("?")


def test_build_embeds_what_was_left_for_later_at_once_with_its_progress(waiting_pack, capsys):
    from tabletop.cli import main

    _, db = waiting_pack
    count = Compendium(db).waiting["harbour"]
    main._embed_waiting(db)
    out = capsys.readouterr()
    assert said("build.embedding", out.err, done=count, total=count)
    assert said("build.embedded", out.out, count=count)
    assert Compendium(db).waiting == {}

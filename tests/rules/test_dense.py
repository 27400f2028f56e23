"""Dense retrieval: vectors stored with the rules database, the cache, the lexical-only
fallback, topics without an entry of their own, and the health line."""

from __future__ import annotations

import numpy as np
import pytest
from run_bot import run_bot

from tabletop.core.i18n import t
from tabletop.rules import dense
from tabletop.rules.search import SearchEngine


class BrokenModel(dense.Embedder):
    """A model that fails to load, as on a platform the wheel does not support."""

    def _load(self):
        if not self.problem:
            self.problem = "OSError: cannot load the engine"
        return None


def test_every_passage_is_embedded_with_the_database(compendium):
    rows = compendium.conn.execute("select vector from docs").fetchall()
    assert rows and all(r[0] is not None and len(r[0]) == 4 * dense.DIMENSIONS for r in rows)
    vectors = dense.from_blobs([r[0] for r in rows[:5]])
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-3)  # unit vectors: cosine is a dot


def test_meaning_proposes_what_the_words_cannot_find(compendium):
    """A Japanese paraphrase of sustain damage (80) shares no word with the Korean rules: the
    words alone find nothing, and the meaning alone brings 80 into the first three."""
    query = "攻撃を受けても一度だけ壊れずに耐えられる能力はいつ使う？"
    assert compendium.search.search(query, limit=3, dense=False) == []
    assert "80" in [r.section for r in compendium.search.search(query, limit=3)]


def test_search_runs_lexically_when_the_model_cannot_load(compendium, caplog):
    engine = SearchEngine(compendium, embedder=BrokenModel())
    assert not engine.dense_available
    assert engine.search("폭격")[0].section == "79"
    assert engine.search("피해 견딤 쓴 배 다음 라운드에 또 쓸 수 있어?")[0].section == "80"


def test_the_cache_returns_the_same_vectors_without_the_model(tmp_path):
    cache = tmp_path / "cache.db"
    texts = ["폭격: 폭격 주사위를 굴립니다.", "행성 방어막"]
    first = dense.embed_passages(texts, cache=cache)
    again = dense.embed_passages(texts, model=BrokenModel(), cache=cache)  # all from the cache
    assert first is not None and again is not None and np.array_equal(first, again)
    assert dense.embed_passages([*texts, "새 문장"], model=BrokenModel(), cache=cache) is None


def test_every_bundled_passage_ships_its_vector(tmp_path):
    """A fresh clone embeds nothing on its first start: every passage of the bundled packs has
    its vector in the shipped file (after editing a pack: python tools/ship_vectors.py)."""
    from tabletop.rules import ruledb

    texts = ruledb.passages()
    assert len(texts) > 1000
    vectors = dense.embed_passages(texts, model=BrokenModel(), cache=tmp_path / "empty.db")
    assert vectors is not None and vectors.shape == (len(texts), dense.DIMENSIONS)


def test_every_bundled_card_ships_its_vectors(tmp_path):
    """The search cards too: summaries read as passages, questions as questions (after editing a
    card: python tools/ship_vectors.py)."""
    from tabletop.rules import ruledb

    summaries, questions = ruledb.card_texts()
    assert len(summaries) >= 3 * 149 and len(questions) > 2000
    for texts, side in ((summaries, "passage"), (questions, "query")):
        vectors = dense.embed_passages(texts, model=BrokenModel(), cache=tmp_path / "empty.db", side=side)
        assert vectors is not None and vectors.shape == (len(texts), dense.DIMENSIONS)


def test_a_question_and_a_passage_of_the_same_text_have_keys_of_their_own():
    assert dense.passage_key("폭격", "query") != dense.passage_key("폭격")


def test_an_edited_passage_is_embedded_and_never_read_from_the_shipped_file(tmp_path):
    shipped = tmp_path / "shipped.db"
    dense.ship(["폭격: 폭격 주사위를 굴립니다."], shipped)
    assert (
        dense.embed_passages(["폭격: 폭격 주사위를 굴립니다."], model=BrokenModel(), cache=tmp_path / "c.db", shipped=shipped)
        is not None
    )
    assert (
        dense.embed_passages(
            ["폭격: 폭격 주사위를 두 번 굴립니다."], model=BrokenModel(), cache=tmp_path / "c.db", shipped=shipped
        )
        is None
    )


def test_a_question_about_a_topic_without_an_entry_is_answered_with_a_note(compendium):
    """의장 (the speaker) has no section in 62-89: a question asking more than its name gets the
    best rule among those that mention it, marked as such; the bare name gets `missing`."""
    results = compendium.search.search("동점이면 의장이 정함?")
    assert results and results[0].section == "62" and results[0].absent is not None
    assert results[0].absent.name == "의장"
    assert compendium.search.search("의장") == [] and compendium.search.find("의장").missing[0].name == "의장"


def test_health_says_which_search_runs(cli_env):
    out = run_bot(["health"], cli_env)
    assert t("health.dense") in out.stdout  # in the run's language (Korean by default)


@pytest.mark.parametrize("query", ["79", "폭격", "ㅍㄱ"])
def test_names_and_numbers_still_answer_first(compendium, query):
    assert compendium.search.search(query)[0].section == "79"


def test_the_answer_says_the_topic_has_no_entry_of_its_own(compendium):
    from tabletop.rules import answers

    reply = answers.lookup(compendium, "동점이면 의장이 정함?", "ti4").reply()
    assert "의장 (Speaker)" in reply.content and "62" in reply.embeds[0].title


class RecordingModel(dense.Embedder):
    """The real model, keeping every question it was asked to read."""

    def __init__(self) -> None:
        super().__init__()
        self.read: list[str] = []

    def query(self, text: str):
        self.read.append(text)
        return super().query(text)


def test_the_model_reads_the_whole_question(compendium):
    """No token budget cuts a question: its last words reach the model, followed by the rules'
    terms for its slang and its other-language names."""
    model = RecordingModel()
    engine = SearchEngine(compendium, embedder=model)
    question = (
        "상대 행성에 인프 내렸는데 거기 있던 상대 pds가 우주 포격을 쏘고 나서 지상 전투에서 둘 다 전멸하면 "
        "그 행성은 누구 거야? 그리고 그 다음 라운드에 내가 다시 내려도 돼?"
    )
    engine.search(question)
    assert model.read and model.read[-1].startswith(question) and "보병" in model.read[-1][len(question) :]
    engine.search("歩兵を2つの惑星に分けて降ろしたらどっちから戦う？")
    assert "보병" in model.read[-1]  # the Japanese name 歩兵 brings the rules' own word


def _words(coverage: dict[str, float]):
    from tabletop.rules import fusion

    return fusion.WordEvidence({}, coverage, dict.fromkeys(coverage, 1.0), {})


def _view(z: dict[str, float]):
    from tabletop.rules import fusion

    return fusion.DenseView(z, np.array(list(z.values())), 0.85, z)


def test_each_rankers_first_choice_is_among_the_first_three():
    """The meaning's favourite, far behind on words, still shows third; the words' favourite
    keeps its place; the rest follow the fused order."""
    from tabletop.rules import fusion

    words = _words({"a": 0.9, "b": 0.8, "c": 0.7, "d": 0.6})
    z = {"a": 0.5, "b": 0.4, "c": 0.3, "d": 0.2, "e": 1.5}
    fused = fusion.fuse({}, _view(z), words)
    ranked = sorted(fused, key=lambda s: -fused[s][0])
    assert ranked[:3] == ["a", "b", "e"]
    assert ranked[3:] == ["c", "d"]


def test_both_first_choices_late_take_the_last_two_places():
    from tabletop.rules import fusion

    # the words' favourite 'x' is pulled down by a very negative z; the meaning's favourite 'y'
    # has no words; a, b and c beat both on the fused score
    words = _words({"x": 0.9, "a": 0.6, "b": 0.6, "c": 0.6})
    z = {"x": -5.0, "a": 1.5, "b": 1.5, "c": 1.5, "y": 3.0}
    fused = fusion.fuse({}, _view(z), words)
    ranked = sorted(fused, key=lambda s: -fused[s][0])
    assert ranked[0] in {"a", "b", "c"} and set(ranked[1:3]) == {"x", "y"}, ranked


def test_a_named_section_stays_above_everything_fused():
    from tabletop.rules import fusion

    fused = fusion.fuse({"n": [88.0, None, "initials"]}, _view({"n": -1.0, "y": 9.0}), _words({"y": 1.0}))
    assert fused["n"][0] == 88.0 and fused["y"][0] < 88.0
    # two named sections fill the first places: a ranker's first choice is lifted below both
    best = {"n1": [95.0, None, "exact"], "n2": [60.0, None, "initials"]}
    words = _words({"a": 0.9, "b": 0.8, "w": 0.7})
    fused = fusion.fuse(best, _view({"n1": 0.0, "n2": 0.0, "a": 0.5, "b": 0.4, "w": -9.0, "y": 0.45}), words)
    ranked = sorted(fused, key=lambda s: -fused[s][0])
    assert ranked[:2] == ["n1", "n2"] and max(fused[s][0] for s in fused if s not in best) < 60.0, ranked


def test_a_passage_longer_than_the_models_window_is_read_from_its_first_window():
    """Past WINDOW_TOKENS the engine reads further windows (a second each: a 2 MB paragraph
    never finished building); a passage is embedded as its first window, a short one whole."""
    embedder = dense.embedder()
    model = embedder._load()
    sentence = "A ship that moves through a reef loses one hull point unless it carries a pilot. "
    long_text = sentence * 3000  # about 250 KB
    start = dense._first_window(model, long_text, False)
    assert long_text.startswith(start) and model.token_count(start, False) <= dense.WINDOW_TOKENS
    assert model.token_count(long_text[: len(start) + len(sentence)], False) > dense.WINDOW_TOKENS  # the longest that fits
    assert dense._first_window(model, sentence, False) == sentence
    vectors = embedder.passages([long_text, start])
    assert np.allclose(vectors[0], vectors[1])

"""Dense retrieval: vectors stored with the rules database, the cache, the lexical-only
fallback, topics without an entry of their own, and the health line."""

from __future__ import annotations

import numpy as np
import pytest
from run_bot import run_bot

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


def test_a_paraphrase_is_ranked_by_meaning_too(compendium):
    """'Knocked on its side' is sustained damage (80): the words alone rank 68, 82 and 74; the
    meaning brings 80 into the first three."""
    query = "한 대 맞고 옆으로 눕혀놓은 배도 이동이나 수송은 그대로 돼?"
    assert "80" not in [r.section for r in compendium.search.search(query, limit=3, dense=False)]
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


def test_a_question_about_a_topic_without_an_entry_is_answered_with_a_note(compendium):
    """의장 (the speaker) has no section in 62-89: a question asking more than its name gets the
    best rule among those that mention it, marked as such; the bare name gets `missing`."""
    results = compendium.search.search("동점이면 의장이 정함?")
    assert results and results[0].section == "62" and results[0].absent is not None
    assert results[0].absent.name == "의장"
    assert compendium.search.search("의장") == [] and compendium.search.missing("의장")[0].name == "의장"


def test_health_says_which_search_runs(cli_env):
    out = run_bot(["health"], cli_env)
    assert "search: dense + lexical" in out.stdout


@pytest.mark.parametrize("query", ["79", "폭격", "ㅍㄱ"])
def test_names_and_numbers_still_answer_first(compendium, query):
    assert compendium.search.search(query)[0].section == "79"


def test_the_answer_says_the_topic_has_no_entry_of_its_own(compendium):
    from tabletop.rules import answers

    reply = answers.lookup(compendium, "동점이면 의장이 정함?", "ti4").reply()
    assert "의장 (Speaker)" in reply.content and "62" in reply.embeds[0].title


def test_the_model_reads_a_question_within_its_token_budget():
    """The model's cost grows with every token: the rules' terms take at most half the budget,
    and a question too long for the rest loses its tail, cut between words; a short question
    is read whole with its terms."""
    model = dense.embedder()
    count = lambda t: model._load().token_count(t, True)  # noqa: E731
    long_question = (
        "상대 행성에 보병을 내렸는데 거기 있던 상대 PDS가 우주 포격을 쏘고 나서 지상 전투에서 둘 다 전멸하면 그 행성은 누구 거야?"
    )
    assert count(long_question) > dense.QUERY_TOKENS
    read = model.within_budget(long_question, ["지상 전투", "우주 포격"])
    assert count(read) <= dense.QUERY_TOKENS
    kept, _, terms = read.partition(" (")
    assert terms == "지상 전투, 우주 포격)"
    assert long_question.startswith(kept) and len(kept) < len(long_question) and long_question[len(kept)] == " "
    many_terms = [f"용어{n}" for n in range(40)]
    read = model.within_budget("폭격", many_terms)
    assert read.startswith("폭격 (") and count(read) - count("") <= dense.QUERY_TOKENS // 2 + count("폭격") - count("")
    assert model.within_budget("커토 받으면 어디 넣어?", ["지휘 토큰"]) == "커토 받으면 어디 넣어? (지휘 토큰)"
    assert count(model.within_budget("가" * 200, [])) <= dense.QUERY_TOKENS


def test_a_long_question_sheds_its_particles_before_its_tail(compendium):
    """Dropping the particles (에, 을, 부터) keeps a question's content within the budget: the
    question below fits whole without them, where cut as written it loses its last words."""
    model = dense.embedder()
    analyzer = compendium.search.analyzer
    count = lambda t: model._load().token_count(t, True)  # noqa: E731
    question = "보병을 두 행성에 나눠서 내렸는데 어느 쪽부터 싸워?"
    compact = analyzer.without_particles(question)
    assert compact == "보병 두 행성 나눠서 내렸는데 어느 쪽 싸워?"
    assert count(question) > dense.QUERY_TOKENS >= count(compact)
    assert model.within_budget(question, [], analyzer.without_particles) == compact
    assert not model.within_budget(question, []).endswith("싸워?")  # without it, the tail is cut
    short = "커토 받으면 어디에 넣어?"  # within the budget: read as written
    assert model.within_budget(short, [], analyzer.without_particles) == short
    assert analyzer.without_particles("Does Harrow hit my own ground forces?") == "Does Harrow hit my own ground forces?"


def _view(z: dict[str, float]):
    from tabletop.rules import fusion

    return fusion.DenseView(z, np.array(list(z.values())))


def test_each_rankers_first_choice_is_among_the_first_three():
    """The dense ranker's favourite, far behind on words, still shows third; the lexical
    favourite keeps its place; the rest follow the fused order."""
    from tabletop.rules import fusion

    lexical = {"a": [90.0, None, "text"], "b": [80.0, None, "text"], "c": [70.0, None, "text"], "d": [60.0, None, "text"]}
    z = {"a": 0.5, "b": 0.4, "c": 0.3, "d": 0.2, "e": 2.0}
    fused = fusion.fuse(lexical, _view(z), weight=0.75)
    ranked = sorted(fused, key=lambda s: -fused[s][0])
    assert ranked[:3] == ["a", "b", "e"]
    assert ranked[3:] == ["c", "d"]


def test_both_first_choices_late_take_the_last_two_places():
    from tabletop.rules import fusion

    # the lexical favourite 'x' is pulled down by a very negative z; the dense favourite 'y' has no words
    lexical = {"x": [60.0, None, "text"], "a": [59.0, None, "text"], "b": [58.0, None, "text"], "c": [57.0, None, "text"]}
    z = {"x": -5.0, "a": 1.0, "b": 0.9, "c": 0.8, "y": 6.0}
    fused = fusion.fuse(lexical, _view(z), weight=0.75)
    ranked = sorted(fused, key=lambda s: -fused[s][0])
    assert ranked[0] == "a" and set(ranked[1:3]) == {"x", "y"}, ranked

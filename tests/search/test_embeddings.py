"""The vector path against a fake /v1/embeddings server: hybrid, cache, reindex, fallback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from savenow.errors import LLMError
from savenow.search import EmbeddingError, MemorySearch, OpenAIEmbedder, SearchOptions
from tests.fakes.fake_embeddings import FakeEmbeddingsServer
from tests.fakes.fake_llm import FakeLLMServer, Reply, error_reply

from .conftest import TODAY

# As a multilingual model would: the English question's words sit near the Chinese note's.
CONCEPTS = {
    "flowers": "flower",
    "flower": "flower",
    "桔梗": "flower",
    "wife": "wife",
    "小雨": "wife",
    "like": "like",
    "喜欢": "like",
}


@pytest.fixture
def server() -> Iterator[FakeEmbeddingsServer]:
    with FakeEmbeddingsServer(CONCEPTS) as fake:
        yield fake


def _options(server: FakeEmbeddingsServer, **overrides: object) -> SearchOptions:
    values: dict[str, object] = {
        "provider": "openai",
        "model": "fake-embed-1",
        "base_url": server.base_url,
        "api_key": "sk-test",
        "headers": {"X-Team": "home"},
        "max_retries": 0,
    }
    values.update(overrides)
    return SearchOptions(**values)  # type: ignore[arg-type]


def test_hybrid_finds_a_cross_language_paraphrase_lexical_search_misses(
    tmp_path: Path, server: FakeEmbeddingsServer
) -> None:
    from .conftest import FILES, write_files

    # No "小雨（老婆）" line and no "Flowers" heading: nothing lexical ties the question to the note
    # (with them the alias graph finds it lexically too, see test_aliases.py).
    files = {
        "MEMORY.md": "# MEMORY.md\n\n## Rules\n- Never expose the database port to the internet.\n",
        "memory/2026-04-11.md": "# 2026-04-11\n\n## 小雨\n- 小雨喜欢桔梗\n",
        "memory/2026-05-20.md": FILES["memory/2026-05-20.md"],
    }
    workspace = write_files(tmp_path / "ws", files)
    query = "which flowers does my wife like"
    assert MemorySearch(workspace, today=TODAY).search(query).results == []
    response = MemorySearch(workspace, _options(server), today=TODAY).search(query)
    assert response.fallback is None and (response.provider, response.model) == ("openai", "fake-embed-1")
    assert "桔梗" in response.results[0].snippet
    first = server.requests[0]
    assert first.path == "/v1/embeddings" and first.body["model"] == "fake-embed-1"
    assert first.headers["Authorization"] == "Bearer sk-test" and first.headers["X-Team"] == "home"


def test_weights_are_normalized(workspace: Path, server: FakeEmbeddingsServer) -> None:
    options = _options(server, vector_weight=7.0, text_weight=3.0)
    assert options.weights == pytest.approx((0.7, 0.3))
    hits = MemorySearch(workspace, options, today=TODAY).search("证书到期", min_score=0.0).results
    assert all(0.0 <= h.score <= 1.0 for h in hits)


def test_the_second_index_run_makes_no_embedding_calls(workspace: Path, server: FakeEmbeddingsServer) -> None:
    MemorySearch(workspace, _options(server), today=TODAY).sync()
    calls = server.embedding_calls
    assert calls >= 1 and len(server.inputs()) >= 7
    assert MemorySearch(workspace, _options(server), today=TODAY).sync().embedded == 0
    # Even a full rebuild (other chunking, same chunks) is served from the cache.
    rebuilt = MemorySearch(workspace, _options(server, chunk_tokens=500), today=TODAY).sync()
    assert rebuilt.rebuilt and rebuilt.embedded == 0
    assert server.embedding_calls == calls


def test_a_model_change_reindexes_with_the_new_model(workspace: Path, server: FakeEmbeddingsServer) -> None:
    MemorySearch(workspace, _options(server), today=TODAY).sync()
    before = server.embedding_calls
    report = MemorySearch(workspace, _options(server, model="fake-embed-2"), today=TODAY).sync()
    assert report.rebuilt and report.embedded >= 7
    assert {r.body["model"] for r in server.requests[before:]} == {"fake-embed-2"}


def test_batches(workspace: Path, server: FakeEmbeddingsServer) -> None:
    MemorySearch(workspace, _options(server, batch_size=2), today=TODAY).sync()
    assert all(len(r.body["input"]) <= 2 for r in server.requests) and server.embedding_calls >= 4


def test_a_failing_provider_falls_back_to_lexical_results(
    workspace: Path, server: FakeEmbeddingsServer
) -> None:
    server.fail_with = 500
    response = MemorySearch(workspace, _options(server), today=TODAY).search("证书到期")
    assert response.results and response.results[0].path == "memory/2026-05-20.md"
    assert response.fallback is not None and response.fallback["reason"] == "provider_error"
    assert response.provider == "lexical"
    assert "sk-test" not in str(response.to_json())


def test_an_unreachable_provider_falls_back_too(workspace: Path) -> None:
    options = SearchOptions(
        provider="openai", model="m", base_url="http://127.0.0.1:9/v1", max_retries=0, timeout_s=2
    )
    response = MemorySearch(workspace, options, today=TODAY).search("证书到期")
    assert response.results and response.fallback and response.fallback["reason"] == "provider_error"


def test_the_embedder_retries_then_raises(server: FakeEmbeddingsServer) -> None:
    server.fail_with = 503
    slept: list[float] = []
    embedder = OpenAIEmbedder(base_url=server.base_url, model="m", max_retries=2, sleep=slept.append)
    with pytest.raises(EmbeddingError, match="failed 3 times"):
        embedder.embed(["x"])
    assert server.embedding_calls == 3 and slept == [1.0, 2.0]  # the shared client's backoff
    assert isinstance(EmbeddingError("x"), LLMError)


def test_the_embedder_honours_retry_after_through_the_shared_client() -> None:
    rows = {"object": "list", "data": [{"index": 0, "embedding": [0.6, 0.8]}]}
    slept: list[float] = []
    with FakeLLMServer() as fake:
        fake.script(error_reply(429, "slow down", headers={"Retry-After": "7"}), Reply(body=rows))
        embedder = OpenAIEmbedder(
            base_url=fake.base_url, model="m", api_key="sk-secret-1234", headers={"X-Org": "org-9"},
            sleep=slept.append,
        )  # fmt: skip
        assert embedder.embed(["x"], "query") == [[0.6, 0.8]]
        embedder.close()
    assert slept == [7.0] and [r.path for r in fake.requests] == ["/v1/embeddings"] * 2
    assert fake.requests[0].headers["x-org"] == "org-9"
    assert "sk-secret-1234" not in repr(embedder) and "org-9" not in repr(embedder)


def test_a_provider_error_never_shows_the_key_or_headers(workspace: Path) -> None:
    with FakeLLMServer() as fake:
        fake.script(error_reply(400, "bad key sk-secret-1234 for org-9xyz"))
        options = SearchOptions(
            provider="openai", model="m", base_url=fake.base_url, api_key="sk-secret-1234",
            headers={"X-Org": "org-9xyz"}, max_retries=0,
        )  # fmt: skip
        response = MemorySearch(workspace, options, today=TODAY).search("证书到期")
    assert response.results and response.fallback and response.fallback["reason"] == "provider_error"
    text = str(response.to_json())
    assert "sk-secret-1234" not in text and "org-9xyz" not in text


def test_input_types_are_sent_only_when_configured(workspace: Path, server: FakeEmbeddingsServer) -> None:
    MemorySearch(workspace, _options(server), today=TODAY).search("证书")
    assert all("input_type" not in r.body for r in server.requests)
    before = server.embedding_calls
    engine = MemorySearch(workspace, _options(server, send_input_type=True), today=TODAY)
    report = engine.sync()
    assert report.rebuilt and report.embedded >= 7  # other vectors: not served from the plain cache
    engine.search("证书")
    kinds = [r.body["input_type"] for r in server.requests[before:]]
    assert set(kinds[:-1]) == {"passage"} and kinds[-1] == "query"

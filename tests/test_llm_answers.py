"""What every LLM caller does to an answer before reading it (savenow.llm.answers)."""

from __future__ import annotations

from savenow.llm import strip_thinking, unfenced_answer


def test_thinking_blocks_go_in_any_case() -> None:
    assert strip_thinking("<THINK>plan</think>\n 答案 ") == "答案"
    assert strip_thinking(None) == ""


def test_one_fence_round_the_whole_answer_goes() -> None:
    assert unfenced_answer('<think>x</think>```json\n{"objects": []}\n```') == '{"objects": []}'
    assert unfenced_answer("```\n## 摘要\n- 端口 6380\n```") == "## 摘要\n- 端口 6380"


def test_a_fence_inside_the_answer_stays() -> None:
    answer = "Summary\n```\ncode\n```"
    assert unfenced_answer(answer) == answer

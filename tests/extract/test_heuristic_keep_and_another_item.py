"""The 'keep that' cue and the 'one more item?' question, both languages: what they are and are not."""

import pytest

from savenow.extract.heuristic.signals import LEX


@pytest.mark.parametrize("text", ["Keep that.", "Remember that.", "remember this", "记住这个", "存一下"])
def test_a_request_to_keep_what_was_just_said(text: str) -> None:
    assert LEX.KEEP_THAT.search(text)


@pytest.mark.parametrize(
    "text", ["I don't remember that.", "I can't remember this one", "you never remember that"]
)
def test_not_remembering_is_no_request_to_keep(text: str) -> None:
    assert not LEX.KEEP_THAT.search(text)


@pytest.mark.parametrize(
    "text",
    ["Anything else?", "Any new exercises?", "Any other changes?", "还有别的吗？", "其他呢？", "还有吗？"],
)
def test_a_question_for_one_more_item(text: str) -> None:
    assert LEX.ANOTHER_ITEM.search(text)


@pytest.mark.parametrize(
    "text", ["Any side effects?", "What's the new price?", "How much more?", "还有多久？", "新的地址是哪个？"]
)
def test_a_question_about_this_item_asks_for_no_other(text: str) -> None:
    assert not LEX.ANOTHER_ITEM.search(text)

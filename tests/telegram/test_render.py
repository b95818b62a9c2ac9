import re

from hypothesis import given, settings
from hypothesis import strategies as st

from savenow.telegram.render import (
    CHUNK_LIMIT,
    chunk_html,
    escape,
    markdown_to_html,
    render_preview,
    telegram_length,
)

PREVIEW = """### /savenow preview — memory/2026-05-15.md

**2 candidates** → 1 add, 1 merge. No write performed.

---

**1. ADD — Gateway <token> & fix**
- Resolved `unauthorized: a<b` by updating snake_case_names.
_compared against:_ (no close match above 0.4)

**2. MERGE — Telegram rules → existing "Telegram UI conventions" (14:02)**
_reason: Two new rules belong to the same_topic._
_(1 duplicate bullet will be skipped by script)_
_target_: "X" not found in today's memory — will add as new section."""

TAG = re.compile(r"<(/?)(\w+)[^>]*>")


def balanced(chunk: str) -> bool:
    stack: list[str] = []
    for closing, name in TAG.findall(chunk):
        if not closing:
            stack.append(name)
        elif not stack or stack.pop() != name:
            return False
    return not stack


def no_broken_markup(chunk: str) -> bool:
    # every '<' starts a whole tag and every '&' a whole entity
    without_tags = TAG.sub("", chunk)
    return (
        "<" not in without_tags
        and ">" not in without_tags
        and not re.search(r"&(?!(amp|lt|gt|quot|#\d+);)", without_tags)
    )


def test_preview_markdown_becomes_escaped_html() -> None:
    html = markdown_to_html(PREVIEW)
    lines = html.splitlines()
    assert lines[0] == "<b>/savenow preview — memory/2026-05-15.md</b>"
    assert "<b>1. ADD — Gateway &lt;token&gt; &amp; fix</b>" in lines
    assert "• Resolved <code>unauthorized: a&lt;b</code> by updating snake_case_names." in lines
    assert "<i>compared against:</i> (no close match above 0.4)" in lines
    assert "<i>reason: Two new rules belong to the same_topic.</i>" in lines
    assert '<i>target</i>: "X" not found in today\'s memory — will add as new section.' in lines
    assert all(balanced(line) for line in lines)


def test_escape_leaves_quotes() -> None:
    assert escape('a < b & "c"') == 'a &lt; b &amp; "c"'


def test_short_html_is_one_chunk() -> None:
    html = markdown_to_html(PREVIEW)
    assert chunk_html(html) == [html]


def test_long_html_splits_at_line_ends_within_the_limit() -> None:
    html = markdown_to_html(PREVIEW)
    chunks = chunk_html("\n\n".join([html] * 40))
    assert len(chunks) > 1
    for chunk in chunks:
        assert telegram_length(chunk) <= CHUNK_LIMIT
        assert balanced(chunk) and no_broken_markup(chunk)
        assert chunk.startswith(("<b>", "<i>")) or chunk[0] not in "\n "


def test_a_tag_longer_than_a_chunk_is_closed_and_reopened() -> None:
    html = "<b>" + "word " * 2000 + "</b>"
    chunks = chunk_html(html)
    assert len(chunks) == 3
    assert all(c.startswith("<b>") and c.endswith("</b>") and balanced(c) for c in chunks)
    assert "".join(c[3:-4] for c in chunks).split() == ["word"] * 2000


def test_emoji_count_twice_as_telegram_counts_them() -> None:
    html = "😀" * 3000
    chunks = chunk_html(html)
    assert [telegram_length(c) for c in chunks] == [4000, 2000]


def test_long_preview_is_shortened_with_the_full_markdown_kept() -> None:
    long = PREVIEW + "\n" + "\n".join(f"- bullet {i} " + "x" * 200 for i in range(200))
    rendered = render_preview(long, max_chunks=3, shortened_note="<i>see the file</i>")
    assert rendered.shortened and rendered.full_markdown == long
    assert len(rendered.chunks) == 1 and rendered.chunks[0].endswith("<i>see the file</i>")
    assert telegram_length(rendered.chunks[0]) <= CHUNK_LIMIT and balanced(rendered.chunks[0])


def test_a_few_chunks_are_not_shortened() -> None:
    medium = PREVIEW + "\n" + "\n".join(f"- bullet {i} " + "y" * 200 for i in range(30))
    rendered = render_preview(medium, max_chunks=3)
    assert not rendered.shortened and 1 < len(rendered.chunks) <= 3


markdown_text = st.lists(
    st.one_of(
        st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300),
        st.sampled_from(["### head", "---", "- `a<b`", "**bold & x**", "_it_", "😀" * 50, "&amp;" * 20]),
    ),
    max_size=60,
).map("\n".join)


@settings(max_examples=150, deadline=None)
@given(markdown_text, st.integers(min_value=200, max_value=4000))
def test_chunks_are_balanced_bounded_and_lose_nothing(markdown: str, limit: int) -> None:
    html = markdown_to_html(markdown)
    chunks = chunk_html(html, limit)
    for chunk in chunks:
        assert telegram_length(chunk) <= limit
        assert balanced(chunk) and no_broken_markup(chunk)
        assert TAG.sub("", chunk).strip()  # never an empty message
    visible = "".join(TAG.sub("", c) for c in chunks)
    assert re.sub(r"\s", "", visible) == re.sub(r"\s", "", TAG.sub("", html))

from savenow.compaction import SessionMessage, cut_index, message_tokens, session_tokens
from savenow.compaction.tokens import TOOL_CALL_TOKENS
from savenow.text.tokens import estimate_tokens


def m(role: str, n: int, tool: bool = False) -> SessionMessage:
    return SessionMessage(
        id=str(n),
        role=role,
        content=f"m{n}",
        tool_name="bash" if tool else None,
        tool_input="ls" if tool else None,
    )


def test_keeps_preserve_recent_messages():
    messages = [m("user" if i % 2 == 0 else "assistant", i) for i in range(10)]
    assert cut_index(messages, 4) == 6


def test_never_starts_the_kept_part_on_a_tool_result():
    # user, assistant(call), tool, assistant(call), tool, assistant, user, assistant
    messages = [
        m("user", 0),
        m("assistant", 1),
        m("user", 2),
        m("assistant", 3, tool=True),
        m("tool", 4),
        m("assistant", 5, tool=True),
        m("tool", 6),
        m("assistant", 7),
    ]
    cut = cut_index(messages, 2)  # nominal cut 6 is a tool result
    assert not messages[cut].is_tool_result
    assert all(not (messages[i].is_tool_call and i + 1 == cut) for i in range(len(messages)))
    assert cut <= 6  # never keeps fewer than preserve_recent


def test_a_split_turn_moves_back_to_its_user_message_when_near():
    messages = [
        m("user", 0),
        m("assistant", 1),
        m("user", 2),
        m("assistant", 3),
        m("assistant", 4),
        m("assistant", 5),
    ]
    assert cut_index(messages, 3) == 2


def test_nothing_to_cut_when_the_session_is_short():
    messages = [m("user", 0), m("assistant", 1)]
    assert cut_index(messages, 4) == 0
    assert cut_index(messages, 2) == 0


def test_cjk_estimate_counts_one_token_per_han_character():
    text = "网关令牌不匹配的修复方法"
    assert estimate_tokens(text) == len(text)  # 12, where characters / 4 would say 3
    assert estimate_tokens("abcd efgh") == 3
    assert estimate_tokens("改 port 到 8443") == 2 + 3  # 2 CJK + ceil(11 / 4)


def test_tool_calls_cost_ten_tokens_plus_their_input():
    call = SessionMessage(id="1", role="assistant", content="", tool_name="bash", tool_input="df -h")
    assert message_tokens(call) == estimate_tokens("bash df -h") + TOOL_CALL_TOKENS


def test_server_reported_usage_wins():
    messages = [
        SessionMessage(id="1", role="user", content="x" * 400),
        SessionMessage(id="2", role="assistant", content="y" * 400, usage_tokens=5000),
        SessionMessage(id="3", role="user", content="z" * 40),
    ]
    assert session_tokens(messages, None) == 5000 + 10
    assert session_tokens(messages[:1], "摘要") == 2 + 100

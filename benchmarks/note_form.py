"""Note form: how many of the notes a preview would write do not read like notes (issue 12).

    python benchmarks/note_form.py                       # the shared cases
    python benchmarks/note_form.py --cases a.jsonl --cases b.jsonl --show

A written note (add or merge, after the comparer) is counted as badly formed when

* a bullet opens with chat filler: an acknowledgement, an apology, a discovery or
  "here it is" lead-in ("There it is:", "原因找到了：", "规则就是：", "抱歉"),
* a bullet holds an ellipsis ("…", "...") the chat did not have at that place,
* its title holds a pronoun ("her", "他", "你") or is, or ends in, an empty label
  ("notes", "要点", a bare "Owner"), or
* it repeats another written note of the same preview (a shared bullet, or two
  bullets that are nearly the same text).

The word lists are general discourse words of English and Chinese, not words of any
case. Prints the share per kind and in all (goal ≤ 5%); ``--show`` lists the notes.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from eval_common import DEFAULT_CASES, load_cases, run_in_process

from savenow.extract.heuristic import HeuristicExtractor
from savenow.text.normalize import bullet_key, similarity

# Openers a person never writes at the top of a note: they belong to the conversation.
_EN_FILLER = (
    r"ok(?:ay)?|sure|yes|yeah|yep|yup|no|nope|right|alright|all right|got it|noted|understood|done|great|perfect"
    r"|good|nice|cool|hmm+|oh|ah|aha|odd|weird|interesting|sorry|apologies|my bad|thanks|thank you|well"
    r"|so|anyway|actually|btw|by the way|i see|makes sense|as expected|of course"
    r"|there it is|there we go|here it is|here's the thing|that's it|that's the (?:rule|one|fix|cause|problem|issue)"
    r"|that explains it|that matches|found it|found the (?:cause|problem|issue|culprit)|bingo|nailed it"
    r"|good (?:news|catch|call|point)|you're right|fair enough"
)
_ZH_FILLER = (
    r"好的?|好吧|收到|明白了?|了解了?|嗯+|哦|噢|对的?|行|可以|没问题|抱歉|不好意思|对不起|谢谢|奇怪|有意思|果然"
    r"|原因找到了|找到原因了|找到了|找到问题了|问题找到了|就是这个|那就对了|这就对了|这就是原因|规则就是|结论就是"
    r"|小提醒|提醒一下|顺便记一下|顺便说一下|顺便|另外|话说|其实|说实话|我看了一下|我查了一下|你说得对|确实|懂了|原来如此|搞定了?"
)
# A filler word is followed by a pause (a comma, a colon, a dash); a filler phrase of three
# Chinese characters or more ("顺便记一下", "原因找到了") is filler however it goes on.
FILLER = re.compile(
    rf"^\s*(?:(?:{_EN_FILLER})(?![\w'])|(?:{_ZH_FILLER}))\s*(?:[,，.。!！:：;；—–~]|\s-\s|$)"
    rf"|^\s*(?:{'|'.join(w for w in _ZH_FILLER.split('|') if len(w) >= 3 and w.isalpha())})",
    re.IGNORECASE,
)
_EN_PRONOUN = re.compile(
    r"(?<![\w'])(?:he|she|her|hers|him|his|they|them|their|it|its|this|that|these|those|you|your|i|me|my|we|us|our)(?![\w'])",
    re.IGNORECASE,
)
_ZH_PRONOUN = re.compile(r"[他她它你您我咱](?:们)?|这个|那个|这些|那些|这样|那样")
_EMPTY_LABEL = re.compile(
    r"(?:^|[:：\s])(?:notes?|points?|misc|details?|info|stuff|要点|笔记|备注|杂项|信息|内容|相关)\s*$"
    r"|^\s*(?:owner|rule|fix|setup|change|decision|preference|负责人|规则|修复|配置|变更|决定|偏好)\s*$",
    re.IGNORECASE,
)
_ELLIPSIS = re.compile(r"…|\.\.\.")
REPEAT_SIMILARITY = 0.85


def filler_bullet(bullet: str) -> bool:
    return FILLER.match(bullet) is not None


def new_ellipsis(bullet: str, chat: str) -> bool:
    """An ellipsis whose few characters before it never stand before an ellipsis in the chat."""
    for match in _ELLIPSIS.finditer(bullet):
        before = bullet[max(0, match.start() - 6) : match.start()]
        if f"{before}{match.group(0)}" not in chat:
            return True
    return False


def bad_title(title: str) -> bool:
    return bool(_EN_PRONOUN.search(title) or _ZH_PRONOUN.search(title) or _EMPTY_LABEL.search(title))


def repeats(bullets: list[str], others: list[list[str]]) -> bool:
    keys = {bullet_key(b) for b in bullets}
    for other in others:
        if keys & {bullet_key(b) for b in other}:
            return True
        if any(similarity(a, b) >= REPEAT_SIMILARITY for a in bullets for b in other):
            return True
    return False


def form_problems(entries: list[dict], chat: str) -> list[tuple[dict, list[str]]]:
    """Each written entry with the names of the form problems it has."""
    written = [e for e in entries if e.get("action") in ("add", "merge")]
    result = []
    for number, entry in enumerate(written):
        bullets = list(entry.get("bullets") or [])
        problems = []
        if any(filler_bullet(b) for b in bullets):
            problems.append("filler")
        if any(new_ellipsis(b, chat) for b in bullets):
            problems.append("ellipsis")
        if entry.get("action") == "add" and bad_title(entry.get("title") or ""):
            problems.append("title")  # a merge's title is not written: its bullets go under the target
        if repeats(bullets, [list(e.get("bullets") or []) for e in written[:number]]):
            problems.append("repeat")
        result.append((entry, problems))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cases", action="append", help="a cases.jsonl file (repeatable)")
    parser.add_argument("--show", action="store_true", help="list the badly formed notes")
    args = parser.parse_args(argv)
    extractor = HeuristicExtractor()
    counts = {"filler": 0, "ellipsis": 0, "title": 0, "repeat": 0}
    total = bad = 0
    for path in args.cases or [str(DEFAULT_CASES)]:
        for case in load_cases(path):
            chat = "\n".join(m["text"] for m in case["transcript"])
            entries = run_in_process(case, extractor.extract)
            for entry, problems in form_problems(entries, chat):
                total += 1
                bad += bool(problems)
                for problem in problems:
                    counts[problem] += 1
                if problems and args.show:
                    print(
                        f"{case['id']}: {','.join(problems)}: {entry['title']} | {' / '.join(entry['bullets'])}"
                    )

    def share(n: int) -> str:
        return f"{n / total:.1%}" if total else "n/a"

    print(
        f"notes={total}  badly formed={bad} ({share(bad)})  "
        + "  ".join(f"{name}={n} ({share(n)})" for name, n in counts.items())
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

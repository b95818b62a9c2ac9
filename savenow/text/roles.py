"""Words for the people (and pets) around someone: kinship, household and everyday roles.

General vocabulary in both languages, one group per role, so that a role written one way (wife)
is known to be the same role written another (老婆, 妻子). Search uses it to read statements like
"老公 阿杰" or "my daughter Doudou" (a role word next to a name) and to let a question about a role
find the person's name. Add a word to the group it means; keep groups to one role.
"""

from __future__ import annotations

from functools import cache

__all__ = ["ROLE_WORDS", "role_equivalents", "starts_with_role"]

_GROUPS = (
    "wife 老婆 妻子 太太 媳妇 爱人 夫人",
    "husband 老公 丈夫 先生 爱人",
    "partner 对象 伴侣 男朋友 女朋友 boyfriend girlfriend",
    "daughter 女儿 闺女",
    "son 儿子",
    "kid child children 孩子 小孩 小朋友 娃 宝宝",
    "mom mother mum 妈 妈妈 老妈 母亲 我妈",
    "dad father 爸 爸爸 老爸 父亲 我爸",
    "parents 父母 爸妈 长辈 老人",
    "grandma grandmother 奶奶 外婆 姥姥",
    "grandpa grandfather 爷爷 外公 姥爷",
    "brother 哥哥 弟弟 哥 弟",
    "sister 姐姐 妹妹 姐 妹",
    "father-in-law 岳父 公公",
    "mother-in-law 岳母 婆婆 丈母娘",
    "cat 猫 猫咪 小猫",
    "dog 狗 狗狗 小狗",
    "pet 宠物",
    "landlord 房东",
    "bookkeeper accountant 会计 代账",
    "boss manager 老板 领导 上司",
    "colleague coworker 同事",
    "teacher 老师 班主任",
    "doctor 医生 大夫",
    "tutor 家教",
    "nanny 阿姨 保姆",
    "friend 朋友",
    "neighbor neighbour 邻居",
)


@cache
def _index() -> tuple[dict[str, frozenset[str]], tuple[str, ...]]:
    equivalents: dict[str, set[str]] = {}
    for line in _GROUPS:
        words = line.split()
        for word in words:
            equivalents.setdefault(word, set()).update(words)
    han = tuple(sorted((w for w in equivalents if not w.isascii()), key=len, reverse=True))
    return {w: frozenset(group) for w, group in equivalents.items()}, han


ROLE_WORDS: frozenset[str] = frozenset(w for line in _GROUPS for w in line.split())


def role_equivalents(word: str) -> frozenset[str]:
    """The words of the same role (``wife`` → 老婆, 妻子 …); empty for a word that names no role."""
    return _index()[0].get(word.casefold(), frozenset())


def starts_with_role(token: str) -> str | None:
    """The role word ``token`` is or starts with (``女儿朵朵`` → ``女儿``; ``wife`` → ``wife``)."""
    if token.isascii():
        folded = token.casefold()
        return folded if folded in ROLE_WORDS else None
    for word in _index()[1]:
        if token.startswith(word):
            return word
    return None

"""The offline extractor's tuning: thresholds, and the named rules with their weights.

The thresholds of chat context, statements and notes, and every weight a sentence's score
is built from (:data:`RULES`), each with what it rewards or penalizes: tuning starts here and
a rule is found by its name. Placement's own topic scores stay in :mod:`.placement`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...vocabulary import NoteKind

# --------------------------------------------------------------------------- thresholds

SEED_MIN = 4.0  # a statement this strong can start a note on its own
MEMBER_MIN = 1.5  # weaker statements may only support a note started by a stronger one
BULLET_RATIO = 0.55  # a supporting sentence becomes a bullet when it scores this share of the seed
MAX_BULLETS = 3
MAX_BULLET_CHARS = 320
SAME_TEXT = 0.5  # similarity above which two sentences say the same thing
FAR_SAME_TEXT = 0.6  # … when they are more than two messages apart and share no identifier
CONFIRM_WINDOW = 10  # messages after a fix in which the user's "works" counts as confirmation
APPLIED_WINDOW = 5  # messages after a command in which the user's "ran it, works" reports it applied
SUPERSEDE_WINDOW = 6  # messages back in which a "wait, X is taken" withdraws the statements naming X
ANSWER_CORRECTION_REACH = 10  # messages after an interview answer in which a correction still replaces it
MEASURE_CORRECTION_REACH = 3  # messages back in which the measure a "sorry, 10mg" corrects was said
SUMMARY_MIN_IDS = 2  # identifiers an assistant's summary after "works now" holds to be the state kept
APPLIED_SHARED_WORDS = 2  # … naming this many words of its code
STEM_CHARS = 6  # "migrate" / "migrating", "recreate" / "recreated": one word when their first letters agree
INCIDENT_WINDOW = 6  # messages within which a cause found, confirmed and fixed is one incident
CAUSE_FIX_SAME_TEXT = 0.75  # a cause and its fix share words and identifiers; only near-copies are one bullet
LIST_MIN_ITEMS = 3  # "1. … 2. … 3. …" in one message: fewer is an aside, not a list of facts
RULE_MESSAGE_CHARS = 200  # a user's rule message this short is one instruction
MARKER_ONLY_CHARS = 24
ASK_NOTE_CHARS = 30  # "ok 记一下" / "remember that" — a reply this short only asks to keep what was said
RESTATED_TERMS = 3  # content terms an acknowledgement must repeat to restate the user's rule
ECHO_SHARE = 0.5  # … and the share of a plain echo's own terms that must be the user's
ITEM_FOLLOW_UP = 3  # messages after a numbered item that are still about it (a question and its answer)
BARE_RULE_ACK_CHARS = 16  # "Understood." / "OK." — takes a rule on board without restating it
TAG_QUESTION_CHARS = 8  # "ok?", "right?", "好吗？": a tag on a statement, not a question
CHOICE_WINDOW = 6  # messages back from the user's pick in which the proposal and the alternatives are
CHOICE_MAX_CHARS = 60
THIS_WAY_TAIL = (
    8  # characters after "这么写" / "like this" up to which a user rule adopting a proposal says nothing else
)
DETAIL_DISTANCE = 2  # messages between two acknowledgements of details about one subject
FOLLOW_UP_DISTANCE = (
    3  # an acknowledgement's follow-up question, the user's answer (one or two messages), its ack
)
INTERVIEW_BULLETS = 5  # bullets of one interview subject: one per answer, a person's list of what was asked
ATTRIBUTE_QUESTION_CHARS = 16  # "Firm?" / "订单号呢？" — a question this short asks for an attribute …
ATTRIBUTE_ANSWER_CHARS = 24  # … answered this briefly ("PNR 是 K7QW2M"): one more detail, not a new subject
INTERVIEWER_LEAD_CHARS = 80  # what an interviewer says before its question, unless it acknowledges
SUBSTANTIVE_HAN = 6  # Chinese characters an answer without values needs to open a subject
RESTATED_MIN_IDS = 2  # identifiers a chat sentence must share with a saved bullet to restate it
RESTATED_MIN_TERMS = 4  # words a sentence without identifiers must share with a saved bullet …
RESTATED_STILL_TERMS = 2  # words a sentence saying its fact still holds must share with the bullet
RESTATED_TERM_SHARE = 0.6  # … making up this share of the shorter of the two

# Kinds that make an incident (what broke and what fixed it) and a standing rule.
INCIDENT = frozenset({NoteKind.ROOT_CAUSE, NoteKind.FIX})
STANDING = frozenset({NoteKind.FUTURE, NoteKind.OWNER, NoteKind.PREFERENCE})


# --------------------------------------------------------------------------- scoring rules


@dataclass(frozen=True)
class Rule:
    """A named scoring rule: the weight a sentence gains (or, negative, loses) when it applies."""

    name: str
    weight: float
    why: str


# What the explicit markers say (each also records the sentence's kind).
NOTE_MARKER = Rule("note_marker", 4.0, 'says it is worth keeping: "for the notes", 记住, "rule:"')
CARRIED_NOTE = Rule("carried_note", 2.0, "under a note marker said just before, or the user asked to note it")
STANDING_MARKER = Rule("standing_marker", 2.0, 'a standing rule: "from now on", 以后, always / never')
OWNER_MARKER = Rule("owner_marker", 4.0, 'names who owns something: "X owns …", X 负责')
PREFERENCE_MARKER = Rule("preference_marker", 2.0, "a standing rule about how the user likes things")
ROOT_CAUSE_MARKER = Rule("root_cause_marker", 1.5, 'says why it broke: "root cause", 根因')
ROOT_CAUSE_CONFIRMED = Rule("root_cause_confirmed", 1.5, "… and the user then confirmed the fix worked")
FIX_MARKER = Rule("fix_marker", 1.0, 'says what repaired it: "the fix is", 修法')
FIX_CONFIRMED = Rule("fix_confirmed", 1.0, "… and the user then confirmed it worked")
APPLIED_INSTRUCTION = Rule(
    "applied_instruction", 2.0, "an instruction with identifiers the user applied and saw work"
)
CHANGE_MARKER = Rule("change_marker", 1.5, "the assistant says it changed something (done / 已改)")
CHANGE_CONFIRMED = Rule("change_confirmed", 1.0, "… and the user confirmed it")

# What the conversation around the sentence says.
KNOWN_BEFORE = Rule("known_before", 1.0, "says its fact was saved or agreed before")
IDENTIFIERS_MAX = Rule(
    "identifiers_max", 2.0, "the most identifiers can add (0.6 each, 0.4 more for a long id)"
)
RESTATED_WITH_IDS = Rule(
    "restated_with_ids", 3.0, "the assistant restates the user (with identifiers, or 'noted')"
)
RESTATED = Rule("restated", 2.0, "the assistant restates the user's standing rule or ownership")
RESTATED_VALUES = Rule(
    "restated_values", 3.5, "an acknowledgement repeating the user's amounts, doses or times (no identifier)"
)
RESTATED_VALUE = Rule("restated_value", 0.5, "… per quantity it repeats (at most 2)")
USERS_OWN_WORDS = Rule(
    "users_own_words", 1.0, "an acknowledgement repeating the user's words: a fact handed over"
)
ACCEPTED_PROPOSAL = Rule(
    "accepted_proposal", 3.0, 'a proposal with identifiers the user agreed to ("yes do that")'
)
ACCEPTED_CHANGE = Rule("accepted_change", 2.0, "a fix or change without identifiers the user agreed to")
CONFIRMED_QUESTION = Rule(
    "confirmed_question", 2.5, '"…，对吗？" answered "对": the user confirmed the sentence'
)
USER_DEFINITION = Rule("user_definition", 0.5, 'the user defines an identifier ("X is …")')
PICKED_UP = Rule("picked_up", 2.0, "the user's identifiers, picked up by the assistant: a fact handed over")
RECORDED = Rule("recorded", 2.0, 'a rule the user set that the assistant said it recorded ("记下了")')
CORRECTED_VALUE = Rule("corrected_value", 4.0, "the user's corrected value, accepted by the assistant")
HANDED_FACT = Rule(
    "handed_fact", 3.0, 'a value or identifier the user states and the assistant takes down ("Noted.", 好的)'
)
ADOPTED_OWN_WORDS = Rule(
    "adopted_own_words",
    2.5,
    'the user applies the assistant\'s proposal naming its identifier ("改了 … allkeys-lru")',
)
HANDED_ITEM = Rule("handed_item", 3.0, "a numbered item of the user's dump")
HANDED_VALUE = Rule("handed_value", 0.5, "… per number, time or name it holds (at most 3)")
CONFIRMED_FACT = Rule("confirmed_fact", 2.5, "the user agreed and repeated its value: a fact both sides hold")
CHOSEN_ITEM = Rule("chosen_item", 3.0, "the list item the user picked (the others lose as much)")
CHOSEN_OPTION = Rule("chosen_option", 4.0, "the option the user picked from the assistant's proposals")
ADOPTED_THIS_WAY = Rule("adopted_this_way", 3.0, 'the proposal a user rule adopts "this way" (这么写)')
APPLIED_FIX = Rule("applied_fix", 3.0, "a fix the user applied and confirmed")
APPLIED_LATER = Rule(
    "applied_later",
    3.5,
    "a command or setting the user reports, a few messages on, done and working, naming its words or values",
)
CONFIRMED_BEFORE = Rule(
    "confirmed_before", 2.5, 'the sentence before a bare "…, right?" the user said yes to'
)

CONFIRMED_SUMMARY = Rule(
    "confirmed_summary",
    2.5,
    'the assistant sums up the state right after the user said it works ("那现在 … 监听 6380"), with identifiers',
)

WRAP_UP = Rule(
    "wrap_up",
    2.0,
    'the assistant answers the user with what now holds ("So: …", "Confirmed: …", "所以：…"), with a value or name',
)
WRAP_UP_CONFIRMED = Rule("wrap_up_confirmed", 1.5, "… right after the user said it works")

INTERVIEW_ANSWER = Rule(
    "interview_answer",
    4.0,
    "the answers to the assistant's questions about one subject, in a run of two or more",
)

# Penalties.
HEDGED = Rule("hedged", -1.5, 'hedges ("maybe", "可能") and nobody accepted it')
NOT_CHOSEN = Rule("not_chosen", -2.0, "says it was not chosen")
PROBE = Rule("probe", -2.0, '"let\'s check …" is a step, not a fact')
REJECTED = Rule("rejected", -3.0, "the user said it still fails")
DEFERRED = Rule("deferred", -3.0, "the assistant puts it off to later")
SUPERSEDED = Rule(
    "superseded", -4.0, 'a value the user then stops on ("等下，6381 是 sentinel 在用的"): not the one kept'
)
MINOR_SHARE = Rule("minor_share", 0.25, "the share of its score a sentence the user calls minor keeps")

RULES: tuple[Rule, ...] = tuple(value for value in list(globals().values()) if isinstance(value, Rule))

"""Session compaction with a pre-compaction memory flush (DESIGN §13).

    from savenow.compaction import SessionCompactor
    compactor = SessionCompactor(preserve_recent=4, max_tokens=80000, store_path=".clawsession.json")
    if compactor.should_compact():
        result = compactor.compact()
        print(result.removed_count)
"""

from .compactor import SessionCompactor
from .cut import cut_index
from .flush import Flusher
from .model import CompactionResult, FlushReport, HistoryItem, SessionMessage, SessionSnapshot
from .stores import CompactionStore, SessionFileStore, TranscriptStore
from .summary import OfflineSummarizer, Summarizer
from .tokens import TOOL_CALL_TOKENS, message_tokens, session_tokens

__all__ = [
    "TOOL_CALL_TOKENS",
    "CompactionResult",
    "CompactionStore",
    "FlushReport",
    "Flusher",
    "HistoryItem",
    "OfflineSummarizer",
    "SessionCompactor",
    "SessionFileStore",
    "SessionMessage",
    "SessionSnapshot",
    "Summarizer",
    "TranscriptStore",
    "cut_index",
    "message_tokens",
    "session_tokens",
]

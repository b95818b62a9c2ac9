"""Structured memory objects (DESIGN §14): self, relationship, topic and saved.

- :mod:`.model` — the types, fields, identity and validation of ``upsert_memory`` JSON
- :mod:`.files` — one Markdown file per object (frontmatter + list sections)
- :mod:`.store` — upsert / correct / forget / undo / maintain, locked and journaled
- :mod:`.extract` — the extractor interface and the shared planning step
- :mod:`.heuristic` — the offline extractor
- :mod:`.service` — extract preview, apply, and the replies the Telegram layer sends
"""

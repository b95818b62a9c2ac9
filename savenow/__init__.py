"""savenow: durable notes from a chat into the agent's daily memory file, with a preview first."""

__version__ = "0.1.0"

"""The memory engine: parse the daily file (document), compare entries with it (compare),
apply decisions (merge), render the preview (preview) and write under a lock (writer).

Kept free of imports so ``import savenow.memory.document`` stays cheap for the drop-ins.
"""

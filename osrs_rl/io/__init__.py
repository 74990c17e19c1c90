"""File utilities every package that writes or reads files shares (``atomic.py``: atomic writes, stale temp
files; ``framing.py``: what to say of a file too short to show its magic; ``writable.py``: whether an output
place can be written, asked before the work).

Below ``train/``, ``replay/`` and ``audit/`` in the layer order (``tests/test_layering.py``), so none of
them imports another to write a file.
"""

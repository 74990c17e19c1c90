"""File utilities every package that writes files shares (``atomic.py``: atomic writes, stale temp files).

Below ``train/``, ``replay/`` and ``audit/`` in the layer order (``tests/test_layering.py``), so none of
them imports another to write a file.
"""

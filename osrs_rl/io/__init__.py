"""File utilities every package that writes or reads files shares (``atomic.py``: atomic writes, stale temp
files; ``framing.py``: what to say of a file too short to show its magic; ``writable.py``: whether an output
place can be written, asked before the work; ``setup_file.py``: one setup per folder of read-back runs;
``provenance.py``: the version, git commit and dirty flag that every file records).

Below ``train/``, ``replay/`` and ``audit/`` in the layer order (``tests/test_layering.py``), so none of
them imports another to write a file.
"""

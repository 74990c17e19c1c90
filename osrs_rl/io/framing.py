"""The start of a framed file (a magic, then a fixed header): what to say when there is too little of it."""

from __future__ import annotations


def cut_short(data: bytes, magic: bytes, header_size: int, where: str, kind: str) -> str | None:
    """Why ``data`` cannot even show its magic: an empty file, or one cut off inside the magic itself
    (a reader says "empty" or "truncated" there, not "bad magic"). None when it can be read further."""
    if not data:
        return f"{where} is an empty file (0 bytes), not a {kind}"
    if len(data) < len(magic) and magic.startswith(data):
        return f"{where} is a truncated file ({len(data)} bytes): a {kind}'s header alone is {header_size} bytes"
    return None

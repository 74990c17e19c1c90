"""The audit report on the terminal: the compact tables (``tables.py``) drawn with rich."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from osrs_rl.audit.tables import tables


def print_report(report: dict, console: Console | None = None) -> None:
    console = console or Console()
    if not console.is_terminal:
        console = Console(width=max(console.width, 120))     # logs and pipes get whole rows, not cut ones
    for t in tables(report, compact=True):
        table = RichTable(title=t.title, title_justify="left")
        for k, col in enumerate(t.columns):
            table.add_column(col, justify="left" if k == 0 else "right")
        for row in t.rows:
            table.add_row(*(Text(c, style="bold red" if c in ("FLAG", "NO") else "") for c in row))
        console.print(table)
        if t.note:
            console.print(Text(t.note, style="dim"))

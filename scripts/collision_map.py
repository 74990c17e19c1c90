"""Print the walkable tiles of an area from the Shortest Path plugin's collision map (the game's cache).

The RuneLite plugin "Shortest Path" (github Skretzo/shortest-path) ships
``src/main/resources/collision-map.zip``, dumped from the live OSRS cache by its
``ExtractCollisionMap`` workflow. Format (read from its ``SplitFlagMap.java`` / ``CollisionMap.java``;
no code copied):

- one zip entry per 64x64 region, named ``"{x >> 6}_{y >> 6}"``;
- the entry's bytes are a Java ``BitSet.valueOf`` bit array (bit ``i`` is ``byte[i >> 3] >> (i & 7) & 1``,
  trailing zero bytes trimmed);
- bit ``(plane * 4096 + (y & 63) * 64 + (x & 63)) * 2 + flag``: flag 0 set = a step north from (x, y) is
  open, flag 1 set = a step east is open; south and west are the neighbour's north and east bits;
- a tile with none of its four edges open is blocked (``CollisionMap.isBlocked``).

The dump keeps walkability only: which blocked tiles hold an object that also blocks line of sight
(a pillar) must come from elsewhere, and this script marks none.

Usage::

    python scripts/collision_map.py collision-map.zip --x 2252 2283 --y 3058 3083 [--plane 0]

prints the rows north to south, ``.`` walkable and ``#`` blocked, ready for an encounter's map file.
"""

from __future__ import annotations

import argparse
import sys
import zipfile

REGION = 64


class CollisionMap:
    def __init__(self, path: str):
        self.zip = zipfile.ZipFile(path)
        self.regions: dict[tuple[int, int], bytes] = {}

    def _region(self, rx: int, ry: int) -> bytes:
        if (rx, ry) not in self.regions:
            try:
                self.regions[rx, ry] = self.zip.read(f"{rx}_{ry}")
            except KeyError:
                self.regions[rx, ry] = b""          # no data: everything blocked
        return self.regions[rx, ry]

    def _bit(self, x: int, y: int, plane: int, flag: int) -> bool:
        data = self._region(x // REGION, y // REGION)
        i = (plane * REGION * REGION + (y % REGION) * REGION + (x % REGION)) * 2 + flag
        return (i >> 3) < len(data) and (data[i >> 3] >> (i & 7)) & 1 == 1

    def open_north(self, x, y, plane=0):
        return self._bit(x, y, plane, 0)

    def open_east(self, x, y, plane=0):
        return self._bit(x, y, plane, 1)

    def walkable(self, x: int, y: int, plane: int = 0) -> bool:
        return (self.open_north(x, y, plane) or self.open_east(x, y, plane)
                or self.open_north(x, y - 1, plane) or self.open_east(x - 1, y, plane))


def rows(cmap: CollisionMap, xs: tuple[int, int], ys: tuple[int, int], plane: int) -> list[str]:
    return ["".join("." if cmap.walkable(x, y, plane) else "#" for x in range(xs[0], xs[1] + 1))
            for y in range(ys[1], ys[0] - 1, -1)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("zip", help="the plugin's collision-map.zip")
    ap.add_argument("--x", nargs=2, type=int, required=True, metavar=("MIN", "MAX"))
    ap.add_argument("--y", nargs=2, type=int, required=True, metavar=("MIN", "MAX"))
    ap.add_argument("--plane", type=int, default=0)
    args = ap.parse_args(argv)
    for line in rows(CollisionMap(args.zip), tuple(args.x), tuple(args.y), args.plane):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())

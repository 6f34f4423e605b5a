#!/usr/bin/env python3
"""A deliberately WRONG Yut Nori (BOJ 15778) solution, kept as test data for `gamebench stress`.

It follows the statement except for one shortcut: a token that stops on duet-mo (the second
corner) does NOT take the diagonal through bang on its next move; it keeps going around the
outer ring. The mo and bang shortcuts, stacking, catching and drawing are right.
"""
import sys

OUTER = ["do", "gae", "geol", "yut", "mo", "duet-do", "duet-gae", "duet-geol", "duet-yut",
         "duet-mo", "chi-do", "chi-gae", "chi-geol", "chi-yut", "chi-mo", "nal-do", "nal-gae",
         "nal-geol", "nal-yut", "cham-meoki"]
MO = ["mo", "mo-do", "mo-gae", "bang", "sok-yut", "sok-mo", "chi-mo", "nal-do", "nal-gae",
      "nal-geol", "nal-yut", "cham-meoki"]
DUET_MO = ["duet-mo", "duet-modo", "duet-mogae", "bang", "saryeo", "anchi", "cham-meoki"]
BANG = ["bang", "saryeo", "anchi", "cham-meoki"]
CORNER = {
    "do": (24, 30), "gae": (18, 30), "geol": (12, 30), "yut": (6, 30), "mo": (0, 30),
    "duet-do": (0, 24), "duet-gae": (0, 18), "duet-geol": (0, 12), "duet-yut": (0, 6),
    "duet-mo": (0, 0), "chi-do": (6, 0), "chi-gae": (12, 0), "chi-geol": (18, 0),
    "chi-yut": (24, 0), "chi-mo": (30, 0), "nal-do": (30, 6), "nal-gae": (30, 12),
    "nal-geol": (30, 18), "nal-yut": (30, 24), "cham-meoki": (30, 30), "mo-do": (5, 25),
    "mo-gae": (10, 20), "bang": (15, 15), "sok-yut": (20, 10), "sok-mo": (25, 5),
    "duet-modo": (5, 5), "duet-mogae": (10, 10), "saryeo": (20, 20), "anchi": (25, 25),
}
TEMPLATE = """\
..----..----..----..----..----..
..    ..    ..    ..    ..    ..
| \\                          / |
|  \\                        /  |
|   \\                      /   |
|    ..                  ..    |
..   ..                  ..   ..
..     \\                /     ..
|       \\              /       |
|        \\            /        |
|         ..        ..         |
|         ..        ..         |
..          \\      /          ..
..           \\    /           ..
|             \\  /             |
|              ..              |
|              ..              |
|             /  \\             |
..           /    \\           ..
..          /      \\          ..
|         ..        ..         |
|         ..        ..         |
|        /            \\        |
|       /              \\       |
..     /                \\     ..
..   ..                  ..   ..
|    ..                  ..    |
|   /                      \\   |
|  /                        \\  |
| /                          \\ |
..    ..    ..    ..    ..    ..
..----..----..----..----..----..
"""
START, ESCAPED = "start", "escaped"


def route(station):
    if station in ("mo", "mo-do", "mo-gae", "sok-yut", "sok-mo"):
        return MO
    # BUG: stopping on duet-mo should take the diagonal (route 2); here it stays outside.
    if station in ("duet-modo", "duet-mogae"):
        return DUET_MO
    if station in ("bang", "saryeo", "anchi"):
        return BANG
    return OUTER


def destination(station, steps):
    if station == START:
        return OUTER[steps - 1]
    r = route(station)
    p = r.index(station) + steps
    return r[p] if p < len(r) else ESCAPED


def main():
    lines = sys.stdin.read().split("\n")
    n = int(lines[0])
    places = {t: START for t in "ABCDabcd"}
    for line in lines[1:1 + n]:
        token, sides = line.split()
        steps = sides.count("F") or 5
        here = places[token]
        if here == ESCAPED:
            continue  # the bug can let a token escape early; the judge's input moves it later
        to = destination(here, steps)
        team = token.isupper()
        movers = [token] if here == START else \
            [t for t in places if places[t] == here and t.isupper() == team]
        for t in movers:
            places[t] = to
        if to not in (START, ESCAPED):
            for t in places:
                if places[t] == to and t.isupper() != team:
                    places[t] = START
    rows = [list(l) for l in TEMPLATE.split("\n")[:32]]
    for t, place in places.items():
        if place in (START, ESCAPED):
            continue
        r, c = CORNER[place]
        k = "ABCD".index(t.upper())
        rows[r + k // 2][c + k % 2] = t
    sys.stdout.write("".join("".join(r) + "\n" for r in rows))


main()

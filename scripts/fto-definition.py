#!/usr/bin/env python3
"""fto-definition.py - writes the face-turning octahedron's corners and edges as a twsearch
definition (.tws), from the geometry alone.

usage: python3 scripts/fto-definition.py [--free] > examples/fto-corners-edges.tws

The octahedron's vertices are the unit points on the axes; its faces have normals (+-1, +-1,
+-1), the face of normal n lying in the plane n.p = 1. Each face is cut by a plane parallel to
it at a third of the way from the centre, n.p = 1/3 (cubing.js puzzle geometry "o f
0.333333333333333"), which splits every face into nine triangles: 3 of corners, 3 of edges, 3
of centres. Two stickers are one piece when they lie on the same side of every cut. A face's
turn is the clockwise (seen from outside) third of a turn of everything beyond its cut.

The corner on the +z axis is held: the turns of the four faces that touch it are written as
the face turned and then the whole puzzle turned back about the same axis, so that the held
corner comes home with its orientation; that is the rest of the puzzle (everything on the
near side of the face's cut) turned a third of a turn anticlockwise. No other rotation brings
the corner home (the octahedron's 24 rotations move its 6 corners' 4 orientations each
simply), so the two descriptions are one move. With --free every face turns plainly and no
corner is held: 2,759,049,216,000 positions, as twsearch's samples/main/FTO.tws without its
two sets of centres, 12 times the held count (the moves make the 12 rotations that keep the
light faces light; the other 12 would flip every edge in place).

A corner's orientation counts its stickers round its vertex anticlockwise, from a sticker on a
face whose normal has an even number of minus signs ("light" faces); an edge's first sticker is
its light face's. A face's third of a turn keeps light faces light, so edges never turn in
place (one orientation) and corners turn by 0 or 2 quarters of their four.

Faces are named as cubing.js names the FTO's: U, F, L, R around the held corner (U and F
meeting only there, the clockwise U taking it towards L), their opposites D, B (cubing.js
names it BB), BR (opposite L) and BL (opposite R).
"""

import math
import sys
from fractions import Fraction
from itertools import permutations, product

THIRD = Fraction(1, 3)
NORMALS = [n for n in product((1, -1), repeat=3)]
HELD = (0, 0, 1)


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def apply(m, p):
    return tuple(dot(row, p) for row in m)


def light(n):
    return n.count(-1) % 2 == 0


def rotations():
    """The octahedron's 24 rotations: signed permutation matrices of determinant 1."""
    out = []
    for perm in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            m = [[0] * 3 for _ in range(3)]
            for i in range(3):
                m[i][perm[i]] = signs[i]
            det = sum(
                m[0][a] * m[1][b] * m[2][c] * (1 if (a, b, c) in ((0, 1, 2), (1, 2, 0), (2, 0, 1)) else -1)
                for a, b, c in permutations(range(3))
            )
            if det == 1:
                out.append(m)
    return out


def clockwise(n):
    """The third of a turn about normal n, clockwise seen from outside."""
    u = (n[1], -n[0], 0)  # perpendicular to n
    for m in rotations():
        if apply(m, n) == n and m != [[1, 0, 0], [0, 1, 0], [0, 0, 1]]:
            if dot(cross(u, apply(m, u)), n) < 0:
                return m
    raise SystemExit("no clockwise third of a turn")


def inverse(m):
    return [[m[j][i] for j in range(3)] for i in range(3)]


def stickers():
    """Each face's nine triangles, by their centroids: (point, face normal)."""
    out = []
    for n in NORMALS:
        corners = [tuple(Fraction(n[i]) if j == i else Fraction(0) for j in range(3)) for i in range(3)]

        def at(w):
            return tuple(sum(w[k] * corners[k][c] for k in range(3)) for c in range(3))

        for i, j, k in product(range(3), repeat=3):
            if i + j + k == 2:  # pointing like the face
                out.append((at((Fraction(3 * i + 1, 9), Fraction(3 * j + 1, 9), Fraction(3 * k + 1, 9))), n))
            if i + j + k == 1:  # pointing the other way
                out.append((at((Fraction(3 * i + 2, 9), Fraction(3 * j + 2, 9), Fraction(3 * k + 2, 9))), n))
    return out


def side(p):
    return tuple(dot(n, p) > THIRD for n in NORMALS)


def pieces(all_stickers):
    by_side = {}
    for s in all_stickers:
        by_side.setdefault(side(s[0]), []).append(s)
    corners = [v for v in by_side.values() if len(v) == 4]
    edges = [v for v in by_side.values() if len(v) == 2]
    assert len(corners) == 6 and len(edges) == 12, "6 corners and 12 edges"
    return corners, edges


def vertex(corner):
    """The axis point a corner's stickers gather round."""
    total = [sum(p[c] for p, _ in corner) for c in range(3)]
    return tuple(int(math.copysign(1, t)) if abs(t) > 1 else 0 for t in total)


def order_corner(corner):
    """A corner's stickers anticlockwise round its vertex seen from outside, a light one first."""
    v = vertex(corner)
    a = next(e for e in ((1, 0, 0), (0, 1, 0), (0, 0, 1)) if dot(e, v) == 0)
    b = cross(v, a)
    ring = sorted(corner, key=lambda s: math.atan2(float(dot(s[0], b)), float(dot(s[0], a))))
    first = next(i for i, s in enumerate(ring) if light(s[1]))
    return ring[first:] + ring[:first]


def order_edge(edge):
    return sorted(edge, key=lambda s: not light(s[1]))


def sort_key(piece):
    """Highest first (the held corner first), then by x, then by y."""
    mid = [sum(p[c] for p, _ in piece) for c in range(3)]
    return (-mid[2], -mid[0], -mid[1])


def move_lines(pieces_, step, slots):
    """For each position, the position whose piece the move brings there, and the turn the
    piece starting there gets (twsearch lists a twist where its piece starts)."""
    where = {p: (i, k) for i, piece in enumerate(pieces_) for k, (p, _) in enumerate(piece)}
    perm, twist = [0] * len(pieces_), [0] * len(pieces_)
    for i, piece in enumerate(pieces_):
        j, k = where[step(piece[0][0])]
        assert all(where[step(p)] == (j, (k + t) % slots) for t, (p, _) in enumerate(piece)), "rigid"
        perm[j] = i + 1
        twist[i] = k
    return perm, twist


def face_names():
    """U, F, L, R round the held corner, and their opposites."""
    around = [n for n in NORMALS if dot(n, HELD) > 0]
    u = (1, 1, 1)
    f = tuple(-x if i < 2 else x for i, x in enumerate(u))
    # The clockwise U takes the held corner to the vertex U shares with L.
    towards = apply(clockwise(u), HELD)
    left = next(n for n in around if n not in (u, f) and dot(n, towards) > 0)
    right = next(n for n in around if n not in (u, f, left))
    names = {u: "U", f: "F", left: "L", right: "R"}
    opposite = {"U": "D", "F": "B", "L": "BR", "R": "BL"}
    for n, name in list(names.items()):
        names[tuple(-x for x in n)] = opposite[name]
    return [(name, n) for name in ("U", "F", "L", "R", "B", "BR", "BL", "D") for n, x in names.items() if x == name]


def main():
    free = "--free" in sys.argv[1:]
    corners, edges = pieces(stickers())
    corners = sorted((order_corner(c) for c in corners), key=sort_key)
    edges = sorted((order_edge(e) for e in edges), key=sort_key)
    title = "FTO corners and edges" if free else "FTO corners and edges, corner held"
    command = "python3 scripts/fto-definition.py" + (" --free" if free else "")
    print(f"# The face-turning octahedron's corners and edges{'' if free else ' with one corner held'}:")
    print("# 6 corners of 4 stickers, 12 edges; the centres left out. Written by")
    print(f"# `{command}` from the geometry (a regular octahedron, each face cut by a")
    print("# plane parallel to it at 1/3 of the way from the centre: cubing.js puzzle geometry")
    print('# "o f 0.333333333333333"); that script says how the moves and orientations are made.')
    if not free:
        print("# The corner where U, F, L and R meet (corner 1) is held: U, F, L, R turn the rest")
        print("# of the puzzle (a face turn, then the whole puzzle turned back). 229,920,768,000")
        print("# positions (T. Rokicki, cubing/twips issue 114: diameter 13).")
    print("# A move line says, for each position, which position's piece comes there; the")
    print("# second line, the quarter turns a corner gets, anticlockwise round its vertex,")
    print("# listed where the corner starts.")
    print(f"Name {title}")
    print()
    print("Set CORNERS 6 4")
    print("Set EDGES 12 1")
    print()
    print("Solved")
    print("CORNERS")
    print(" ".join(str(i + 1) for i in range(6)))
    print(" ".join("0" for _ in range(6)))
    print("EDGES")
    print(" ".join(str(i + 1) for i in range(12)))
    print("End")
    held = vertex(corners[0]) == HELD
    assert held, "the held corner sorts first"
    for name, n in face_names():
        turn = clockwise(n)
        back = inverse(turn)
        touches = dot(n, HELD) > 0 and not free

        def step(p, n=n, turn=turn, back=back, touches=touches):
            beyond = dot(n, p) > THIRD
            if touches:
                return p if beyond else apply(back, p)
            return apply(turn, p) if beyond else p

        cp, ct = move_lines(corners, step, 4)
        ep, et = move_lines(edges, step, 2)
        assert not any(et), "edges never turn in place"
        assert free or (cp[0] == 1 and ct[0] == 0), "the held corner stays"
        print()
        print(f"Move {name}")
        print("CORNERS")
        print(" ".join(map(str, cp)))
        print(" ".join(map(str, ct)))
        print("EDGES")
        print(" ".join(map(str, ep)))
        print("End")


if __name__ == "__main__":
    main()

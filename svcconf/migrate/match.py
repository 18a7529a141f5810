"""Line matching in linear time: which lines of one text reappear, in order, in another.

Patience style: lines that occur exactly once in both ranges anchor the match (their longest
increasing run), common first and last lines extend it, and the gaps between anchors are matched
the same way. A gap where nothing anchors stays unmatched. The work is bounded by a fixed number
of passes over the input, so a hostile file cannot make it quadratic.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence
from itertools import pairwise

PASSES = 16  # how many times, at most, each line is looked at while searching for anchors

Block = tuple[int, int, int]  # (start in a, start in b, length): a[i:i+n] == b[j:j+n]


def matching_blocks(a: Sequence[str], b: Sequence[str]) -> list[Block]:
    """Equal runs of a and b, increasing in both, adjacent runs merged."""
    pairs: list[tuple[int, int]] = []
    budget = PASSES * (len(a) + len(b))
    ranges = [(0, len(a), 0, len(b))]
    while ranges:
        alo, ahi, blo, bhi = ranges.pop()
        while alo < ahi and blo < bhi and a[alo] == b[blo]:
            pairs.append((alo, blo))
            alo, blo = alo + 1, blo + 1
        while alo < ahi and blo < bhi and a[ahi - 1] == b[bhi - 1]:
            ahi, bhi = ahi - 1, bhi - 1
            pairs.append((ahi, bhi))
        if alo == ahi or blo == bhi or budget <= 0:
            continue
        budget -= (ahi - alo) + (bhi - blo)
        anchors = _anchors(a, alo, ahi, b, blo, bhi)
        if not anchors:
            continue  # nothing anchors: the gap stays unmatched
        pairs.extend(anchors)
        edges = [(alo - 1, blo - 1), *anchors, (ahi, bhi)]
        ranges.extend((i + 1, i2, j + 1, j2) for (i, j), (i2, j2) in pairwise(edges))
    pairs.sort()
    blocks: list[Block] = []
    for i, j in pairs:
        if blocks and blocks[-1][0] + blocks[-1][2] == i and blocks[-1][1] + blocks[-1][2] == j:
            blocks[-1] = (blocks[-1][0], blocks[-1][1], blocks[-1][2] + 1)
        else:
            blocks.append((i, j, 1))
    return blocks


def _anchors(a: Sequence[str], alo: int, ahi: int, b: Sequence[str], blo: int, bhi: int) -> list[tuple[int, int]]:
    """(i, j) of lines unique in a[alo:ahi] and in b[blo:bhi], the longest run increasing in both."""
    count: dict[str, int] = {}
    for line in a[alo:ahi]:
        count[line] = count.get(line, 0) + 1
    where: dict[str, int] = {}
    for j in range(blo, bhi):
        line = b[j]
        if count.get(line) == 1:
            where[line] = -1 if line in where else j
    candidates = [(i, where[a[i]]) for i in range(alo, ahi) if where.get(a[i], -1) >= 0]
    # Longest increasing subsequence of the b positions (patience sorting): tails[k] ends the best run of length k+1.
    tails: list[int] = []
    tail_index: list[int] = []
    previous: list[int] = []
    for index, (_i, j) in enumerate(candidates):
        k = bisect_left(tails, j)
        previous.append(tail_index[k - 1] if k else -1)
        if k == len(tails):
            tails.append(j)
            tail_index.append(index)
        else:
            tails[k] = j
            tail_index[k] = index
    run: list[tuple[int, int]] = []
    index = tail_index[-1] if tail_index else -1
    while index >= 0:
        run.append(candidates[index])
        index = previous[index]
    run.reverse()
    return run


def opcodes(a: Sequence[str], b: Sequence[str]) -> Iterator[tuple[str, int, int, int, int]]:
    """(tag, i1, i2, j1, j2) turning a into b, tags as difflib names them: equal, replace, delete, insert."""
    i = j = 0
    for bi, bj, size in [*matching_blocks(a, b), (len(a), len(b), 0)]:
        if i < bi and j < bj:
            yield "replace", i, bi, j, bj
        elif i < bi:
            yield "delete", i, bi, j, bj
        elif j < bj:
            yield "insert", i, bi, j, bj
        if size:
            yield "equal", bi, bi + size, bj, bj + size
        i, j = bi + size, bj + size

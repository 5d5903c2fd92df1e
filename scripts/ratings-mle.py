#!/usr/bin/env python3
"""Ordo-style ratings of the games of a PGN file, to set beside the arena's Elo figures.

Reads the White, Black and Result tags (with python-chess when it is installed, else with
a tag-pair reader), fits the logistic (Bradley-Terry) maximum-likelihood ratings that Ordo
computes, centred on 0, and gives each a 95 % error from the Fisher information, as well as
the rating difference of every pairing with its error.

    scripts/ratings-mle.py games.pgn
"""

import math
import re
import sys

TAG = re.compile(r'^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+"((?:[^"\\]|\\.)*)"\]\s*$')


def read_results(path):
    """(white, black, white's score) of every game."""
    games, tags = [], {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = TAG.match(line.strip())
            if m:
                tags[m.group(1)] = re.sub(r'\\(.)', r'\1', m.group(2))
            elif tags and line.strip() == "":
                continue
            elif tags:
                score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(tags.get("Result"))
                if score is not None:
                    games.append((tags["White"], tags["Black"], score))
                tags = {}
    return games


def mle(games):
    names = sorted({g[0] for g in games} | {g[1] for g in games})
    idx = {n: i for i, n in enumerate(names)}
    n = len(names)
    points = [0.0] * n
    meet = [[0.0] * n for _ in range(n)]
    for w, b, s in games:
        points[idx[w]] += s
        points[idx[b]] += 1 - s
        meet[idx[w]][idx[b]] += 1
        meet[idx[b]][idx[w]] += 1
    gamma = [1.0] * n
    for _ in range(100000):
        new = [points[i] / sum(meet[i][j] / (gamma[i] + gamma[j]) for j in range(n) if j != i)
               for i in range(n)]
        mean = sum(math.log(g) for g in new) / n
        new = [math.exp(math.log(g) - mean) for g in new]
        change = max(abs(math.log(a) - math.log(b)) for a, b in zip(new, gamma))
        gamma = new
        if change < 1e-13:
            break
    k = 400 / math.log(10)
    ratings = {name: k * math.log(gamma[idx[name]]) for name in names}
    # Fisher information of the log-strengths; the variance of a difference from the
    # pseudo-inverse restricted to centred ratings.
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j:
                p = gamma[i] / (gamma[i] + gamma[j])
                v = meet[i][j] * p * (1 - p)
                info[i][j] -= v
                info[i][i] += v
    # Fix the last rating's log-strength at its value: invert the reduced matrix.
    m = n - 1
    a = [row[:m] + [1.0 if r == c else 0.0 for c in range(m)] for r, row in enumerate(info[:m])]
    for c in range(m):
        piv = max(range(c, m), key=lambda r: abs(a[r][c]))
        a[c], a[piv] = a[piv], a[c]
        d = a[c][c]
        a[c] = [x / d for x in a[c]]
        for r in range(m):
            if r != c:
                f = a[r][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    cov = [[0.0] * n for _ in range(n)]
    for r in range(m):
        for c in range(m):
            cov[r][c] = a[r][m + c]
    def var_diff(i, j):
        return cov[i][i] + cov[j][j] - 2 * cov[i][j]
    # Variance of a rating relative to the pool mean.
    def var_rating(i):
        w = [-1.0 / n] * n
        w[i] += 1.0
        return sum(w[r] * w[c] * cov[r][c] for r in range(n) for c in range(n))
    z = 1.959963984540054
    errors = {name: z * k * math.sqrt(var_rating(idx[name])) for name in names}
    pairs = {}
    for i in range(n):
        for j in range(i + 1, n):
            if meet[i][j] > 0:
                pairs[(names[i], names[j])] = (ratings[names[i]] - ratings[names[j]],
                                               z * k * math.sqrt(var_diff(i, j)))
    return ratings, errors, pairs


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: ratings-mle.py GAMES.pgn")
    games = read_results(sys.argv[1])
    ratings, errors, pairs = mle(games)
    print(f"{len(games)} games")
    print(f"{'engine':<16} {'rating':>9} {'± 95%':>8}")
    for name in sorted(ratings, key=ratings.get, reverse=True):
        print(f"{name:<16} {ratings[name]:>+9.1f} {errors[name]:>8.1f}")
    print()
    print(f"{'pairing':<24} {'difference':>10} {'± 95%':>8}")
    for (a, b), (d, e) in pairs.items():
        print(f"{a + ' vs ' + b:<24} {d:>+10.1f} {e:>8.1f}")


if __name__ == "__main__":
    main()

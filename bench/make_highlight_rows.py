#!/usr/bin/env python3
"""Rows for the highlight-card benchmark: N texts of about 7 lines at 56 px in 860 px (about
190 characters of the article generator's words), the same every run. usage: make_highlight_rows.py N OUT.csv"""
import csv
import random
import sys

from make_article import WORDS

n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(5)
with open(path, "w", newline="") as f:
    out = csv.writer(f)
    out.writerow(["id", "text"])
    for i in range(n):
        words = []
        while sum(len(w) + 1 for w in words) < 190:
            words.append(rng.choice(WORDS))
        out.writerow([f"card{i:05d}", " ".join(words).capitalize() + "."])

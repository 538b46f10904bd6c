#!/usr/bin/env python3
"""Rows for the batch benchmark: N story cards with mixed-script headlines and captions, the
same every run. usage: make_rows.py N OUT.csv"""
import csv
import random
import sys

words = ["Stories", "disappear", "after", "a", "day", "but", "the", "way", "they", "look", "stays", "with",
         "people", "Истории", "исчезают", "через", "день", "物語は", "消える", "القصص", "تختفي", "बाद", "में"]
random.seed(7)
with open(sys.argv[2], "w", newline="", encoding="utf-8") as f:
    out = csv.writer(f)
    out.writerow(["id", "title", "caption"])
    for i in range(int(sys.argv[1])):
        title = " ".join(random.choice(words) for _ in range(random.randint(3, 9)))
        caption = " ".join(random.choice(words) for _ in range(random.randint(2, 7)))
        out.writerow([f"card{i:05d}", title, caption])

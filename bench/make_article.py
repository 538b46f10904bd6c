#!/usr/bin/env python3
"""Writes a deterministic pseudo-English article of about N A4 pages at 11 pt: sections with
'# ' headings and paragraphs of varied length (for the paged-PDF benchmark and the demo).
With --typst, the same article as typst markup for the side-by-side benchmark: A4, Noto Sans
11 pt, page numbers, headings, no spacing between paragraphs (as hlrender sets them).
With --mixed, the paragraphs take turns in English, Russian, Arabic and Japanese (the fonts in
fonts/ cover them); with --markdown, paragraphs are separated by blank lines (CommonMark)."""
import random
import sys

WORDS = ("the a highlight line page text story card render every corner seam block shape glyph font "
         "paragraph layout break width height margin preview document reader service pipeline golden "
         "image vector stays with people round hug never leave should after day but way they look "
         "across of to in on for and from by is are was were be can will may each one two three").split()

RUSSIAN = ("строка страница текст история карточка каждый угол блок форма шрифт абзац ширина высота "
           "поле документ читатель сервис образ люди день после путь они смотрят через для и из по это").split()
ARABIC = ("النص الصفحة السطر القصة البطاقة كل زاوية كتلة شكل الخط الفقرة العرض الارتفاع الهامش "
          "المستند القارئ الخدمة الصورة الناس يوم بعد طريق هم ينظرون عبر من إلى في على").split()
JAPANESE = ("文字 行 頁 物語 カード 角 形 段落 幅 高さ 余白 文書 読者 画像 人 日 道 見る 書く "
            "ここ そして また これは その 新しい 大きな 小さな").split()

def article(pages: int, seed: int = 13, mixed: bool = False) -> str:
    rng = random.Random(seed)
    out = []
    words = 0
    section = 0
    while words < pages * 710:
        if words // 3500 >= section:
            section += 1
            out.append(f"# Section {section}: {rng.choice(WORDS).capitalize()} {rng.choice(WORDS)}")
        n = rng.randint(20, 160)
        script = (len(out) % 4) if mixed else 0
        if script == 3:
            # Japanese: no spaces; about two characters a word, a full stop now and then.
            text = "".join(rng.choice(JAPANESE) + ("。" if rng.random() < 0.08 else "") for _ in range(n // 2))
            out.append(text.rstrip("。") + "。")
            words += n
            continue
        vocabulary = [WORDS, RUSSIAN, ARABIC][script]
        sentence = []
        for i in range(n):
            w = rng.choice(vocabulary)
            sentence.append(w.capitalize() if i == 0 or sentence[-1].endswith(".") else w)
            if rng.random() < 0.08:
                sentence[-1] += rng.choice([".", ",", ".", ";"])
        out.append(" ".join(sentence).rstrip(",;") + ".")
        words += n
    return "\n".join(out) + "\n"

def typst(text: str) -> str:
    fonts = '("Noto Sans", "Noto Sans Arabic", "Noto Sans CJK JP")'
    head = ['#set page("a4", numbering: "1")', f'#set text(font: {fonts}, size: 11pt)', '#set par(spacing: 0pt)', ""]
    # The generator's words and punctuation (letters . , ; :) have no meaning in typst markup.
    body = [("= " + line[2:]) if line.startswith("# ") else line for line in text.splitlines()]
    return "\n".join(head) + "\n\n".join(body) + "\n"

if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    text = article(int(args[0]) if args else 50, mixed="--mixed" in sys.argv)
    if "--markdown" in sys.argv:
        text = "\n\n".join(text.splitlines()) + "\n"
    sys.stdout.write(typst(text) if "--typst" in sys.argv else text)

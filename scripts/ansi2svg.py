#!/usr/bin/env python3
"""Render a tmux capture (`tmux capture-pane -e -p`, text with SGR colour codes) as an SVG image.

  scripts/ansi2svg.py CAPTURE.ansi OUT.svg --cols 100 --rows 30 [--title TEXT]

Understands what ratatui emits through crossterm: SGR 0/1/2/3/4/7/22/23/24/27, the 8+8 basic
colours (30-37, 90-97, 40-47, 100-107), 256-colour (38;5;N / 48;5;N) and truecolour
(38;2;R;G;B / 48;2;R;G;B), 39/49 defaults. Wide characters (CJK) take two cells. Used by
scripts/screenshots.sh; the images in docs/screenshots/ come from the real binary this way.
"""
import argparse
import html
import re
import sys
import unicodedata

FG, BG = "#d0d0d0", "#1c1c1c"
BASIC = ["#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
         "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"]
CELL_W, CELL_H, FONT = 8.4, 17, 14
# The SGR codes that set or clear text attributes: code -> (attributes, value).
ATTRIBUTES = {1: (["bold"], True), 2: (["dim"], True), 3: (["italic"], True),
              4: (["underline"], True), 7: (["reverse"], True), 22: (["bold", "dim"], False),
              23: (["italic"], False), 24: (["underline"], False), 27: (["reverse"], False)}


def xterm256(n):
    if n < 16:
        return BASIC[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    v = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (v, v, v)


class Style:
    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = self.bg = None
        self.bold = self.dim = self.italic = self.underline = self.reverse = False

    def key(self):
        return (self.fg, self.bg, self.bold, self.dim, self.italic, self.underline, self.reverse)

    def apply(self, params):
        p = [int(x) if x else 0 for x in params.split(";")] if params else [0]
        i = 0
        while i < len(p):
            c = p[i]
            if c == 0:
                self.reset()
            elif c in ATTRIBUTES:
                for name in ATTRIBUTES[c][0]:
                    setattr(self, name, ATTRIBUTES[c][1])
            elif 30 <= c <= 37:
                self.fg = BASIC[c - 30]
            elif 90 <= c <= 97:
                self.fg = BASIC[c - 90 + 8]
            elif 40 <= c <= 47:
                self.bg = BASIC[c - 40]
            elif 100 <= c <= 107:
                self.bg = BASIC[c - 100 + 8]
            elif c == 39:
                self.fg = None
            elif c == 49:
                self.bg = None
            elif c in (38, 48) and i + 1 < len(p):
                if p[i + 1] == 5 and i + 2 < len(p):
                    colour = xterm256(p[i + 2])
                    i += 2
                elif p[i + 1] == 2 and i + 4 < len(p):
                    colour = "#%02x%02x%02x" % tuple(p[i + 2:i + 5])
                    i += 4
                else:
                    colour = None
                if c == 38:
                    self.fg = colour
                else:
                    self.bg = colour
            i += 1


def width(ch):
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def parse(text, cols, rows):
    """Returns rows of cells: (char, style key); a wide char's second cell is None."""
    style = Style()
    grid = []
    for line in text.split("\n")[:rows]:
        cells = []
        for m in re.finditer(r"\x1b\[([0-9;]*)m|\x1b\[[0-9;?]*[A-Za-z]|(.)", line):
            if m.group(2) is None:
                if m.group(0).endswith("m"):
                    style.apply(m.group(1))
                continue
            ch = m.group(2)
            if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
                continue
            cells.append((ch, style.key()))
            if width(ch) == 2:
                cells.append(None)
        grid.append(cells[:cols])
    while len(grid) < rows:
        grid.append([])
    return grid


def colours(key):
    fg, bg, bold, dim, italic, underline, reverse = key
    fg, bg = fg or FG, bg or BG
    if reverse:
        fg, bg = bg, fg
    return fg, bg, bold, dim, italic, underline


def render(grid, cols, rows, title):
    top = 28 if title else 0
    w, h = cols * CELL_W + 20, rows * CELL_H + 20 + top
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
           f'viewBox="0 0 {w:.0f} {h:.0f}">',
           f'<rect width="100%" height="100%" rx="8" fill="{BG}"/>']
    if title:
        out.append(f'<text x="{w / 2:.0f}" y="19" fill="#888" font-family="sans-serif" '
                   f'font-size="12" text-anchor="middle">{html.escape(title)}</text>')
    out.append(f'<g font-family="\'DejaVu Sans Mono\',\'Noto Sans Mono CJK SC\',Menlo,Consolas,'
               f'monospace" font-size="{FONT}" xml:space="preserve">')
    for r, cells in enumerate(grid):
        y = 10 + top + r * CELL_H
        col = 0
        runs = []  # (start col, text, cells wide, key)
        for cell in cells:
            if cell is None:
                continue
            ch, key = cell
            wch = width(ch)
            if runs and runs[-1][3] == key and runs[-1][0] + runs[-1][2] == col and wch == 1 \
                    and runs[-1][4]:
                s, t, n, k, narrow = runs[-1]
                runs[-1] = (s, t + ch, n + 1, k, True)
            else:
                runs.append((col, ch, wch, key, wch == 1))
            col += wch
        for start, text, n, key, _ in runs:
            fg, bg, bold, dim, italic, underline = colours(key)
            x = 10 + start * CELL_W
            if bg != BG:
                out.append(f'<rect x="{x:.1f}" y="{y}" width="{n * CELL_W:.1f}" '
                           f'height="{CELL_H}" fill="{bg}"/>')
            if text.strip() == "":
                continue
            attrs = [f'x="{x:.1f}"', f'y="{y + CELL_H - 4}"', f'fill="{fg}"',
                     f'textLength="{n * CELL_W:.1f}"', 'lengthAdjust="spacingAndGlyphs"']
            if bold:
                attrs.append('font-weight="bold"')
            if dim:
                attrs.append('opacity="0.6"')
            if italic:
                attrs.append('font-style="italic"')
            if underline:
                attrs.append('text-decoration="underline"')
            out.append(f'<text {" ".join(attrs)}>{html.escape(text)}</text>')
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("capture")
    ap.add_argument("out")
    ap.add_argument("--cols", type=int, default=100)
    ap.add_argument("--rows", type=int, default=30)
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    text = open(a.capture, encoding="utf-8", errors="replace").read()
    grid = parse(text, a.cols, a.rows)
    if not any(grid):
        print(f"{a.capture}: the capture is empty", file=sys.stderr)
        return 1
    open(a.out, "w", encoding="utf-8").write(render(grid, a.cols, a.rows, a.title))
    return 0


if __name__ == "__main__":
    sys.exit(main())

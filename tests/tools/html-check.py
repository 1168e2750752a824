#!/usr/bin/env python3
# html-check.py: what the HTML report tests read from a page as Chromium
# rendered it, with the standard library only.
#
#   html-check.py charts DOM      a line per chart (<figure class="chart">):
#                                 its id, then each series' count of point
#                                 symbols (<use> in <g class="series">),
#                                 comma-separated, then its caption
#   html-check.py xtics DOM ID    the x of each tic label on chart ID's
#                                 x axis (the row of texts above its
#                                 label): "LABEL X"
#   html-check.py xlabel DOM ID   chart ID's x axis label (the lowest text)
#   html-check.py ytics DOM ID    the y of each tic label on chart ID's
#                                 y axis (numbers in one column): "LABEL Y"
#   html-check.py texts DOM ID    every text drawn in chart ID: "X Y TEXT"
#   html-check.py points DOM ID   every point symbol of chart ID: "SERIES X Y"
#                                 (series counted from 1)
#   html-check.py titles DOM ID   the hover titles of chart ID's points
#   html-check.py text DOM        the page's text, one line per text node
#   html-check.py tags DOM        a count per element name: "NAME N"
#   html-check.py png FILE        "WIDTH HEIGHT VARIANCE": the variance of
#                                 the screenshot's grey levels (0-255)
import re
import struct
import sys
import zlib
from html.parser import HTMLParser


class Page(HTMLParser):
    """The charts, tags and text of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = {}
        self.text = []
        self.charts = []        # [id, [points per series], caption, texts,
                                # titles, points]
        self.chart = None
        self.series = None      # the series whose <g> is open, as depth
        self.depth = 0
        self.stack = []         # (tag, transform x) of open elements
        self.in_title = None    # where a <title>'s text goes
        self.in_caption = False
        self.in_text = None     # the x of the <g> around a <text>

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        x = None
        m = re.match(r'translate\(([-0-9.]+),([-0-9.]+)\)', a.get('transform', ''))
        if m:
            x = (float(m.group(1)), float(m.group(2)))
        if tag == 'figure' and 'chart' in a.get('class', '').split():
            self.chart = [a.get('id', '?'), [], '', [], [], []]
            self.charts.append(self.chart)
        elif tag == 'g' and a.get('class') == 'series' and self.chart is not None:
            self.chart[1].append(0)
            self.series = len(self.stack)
        elif tag == 'use' and self.series is not None:
            self.chart[1][-1] += 1
            if x is not None:
                self.chart[5].append((len(self.chart[1]), x))
        elif tag == 'figcaption':
            self.in_caption = True
        elif tag == 'title' and self.chart is not None and self.stack and \
                self.stack[-1][0] == 'use':
            self.in_title = 'point'
        elif tag == 'text' and self.chart is not None:
            for t, tx in reversed(self.stack):
                if tx is not None:
                    self.in_text = tx
                    break
        if tag not in ('meta', 'br', 'img', 'input', 'link', 'hr'):
            self.stack.append((tag, x))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in ('meta', 'br', 'img', 'input', 'link', 'hr'):
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        while self.stack:
            t, _ = self.stack.pop()
            if self.series is not None and len(self.stack) == self.series:
                self.series = None
            if t == tag:
                break
        if tag == 'figure':
            self.chart = None
        elif tag == 'figcaption':
            self.in_caption = False
        elif tag == 'title':
            self.in_title = None
        elif tag == 'text':
            self.in_text = None

    def handle_data(self, data):
        if data.strip():
            self.text.append(data.strip())
        if self.in_caption and self.chart is not None:
            self.chart[2] += data
        if self.in_title == 'point':
            self.chart[4].append(data)
        if self.in_text is not None and data.strip():
            self.chart[3].append((data.strip(), self.in_text))


def page(path):
    p = Page()
    with open(path, encoding='utf-8') as f:
        p.feed(f.read())
    p.close()
    return p


def chart(p, cid):
    for c in p.charts:
        if c[0] == cid:
            return c
    sys.exit('no chart %s' % cid)


def png(path):
    """Width, height and grey-level variance of an 8-bit PNG."""
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit('%s: not a PNG' % path)
    pos, idat = 8, b''
    while pos < len(data):
        n, = struct.unpack('>I', data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
    if depth != 8 or interlace or ctype not in (0, 2, 4, 6):
        sys.exit('%s: a PNG this checker does not read' % path)
    bpp = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    total = total2 = count = 0
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else
                                      b if pb <= pc else c)) & 255
        prev = line
        # grey level of every 2nd pixel: enough to tell a page from a blank
        for x in range(0, w, 2):
            px = line[x * bpp:x * bpp + min(bpp, 3)]
            g = sum(px) / len(px)
            total += g
            total2 += g * g
            count += 1
    mean = total / count
    return w, h, total2 / count - mean * mean


def main():
    what, path = sys.argv[1], sys.argv[2]
    if what == 'png':
        w, h, var = png(path)
        print('%d %d %.1f' % (w, h, var))
        return
    p = page(path)
    if what == 'charts':
        for c in p.charts:
            print('%s %s %s' % (c[0], ','.join(map(str, c[1])) or '-',
                                ' '.join(c[2].split())))
    elif what in ('xtics', 'xlabel'):
        # every chart has an x label: the lowest row of texts; its tic
        # labels are the row above it
        texts = chart(p, sys.argv[3])[3]
        rows = sorted({xy[1] for _, xy in texts}, reverse=True)
        row = rows[0] if what == 'xlabel' else rows[1] if len(rows) > 1 else None
        for label, xy in texts:
            if xy[1] == row:
                print('%s %.2f' % (label, xy[0]) if what == 'xtics' else label)
    elif what == 'ytics':
        texts = chart(p, sys.argv[3])[3]
        nums = [(label, xy) for label, xy in texts
                if re.fullmatch(r'-?[0-9.]+(e[-+]?[0-9]+)?', label)]
        xs = [xy[0] for _, xy in nums]
        at = max(set(xs), key=xs.count) if xs else None
        for label, xy in nums:
            if xy[0] == at:
                print('%s %.2f' % (label, xy[1]))
    elif what == 'texts':
        for label, xy in chart(p, sys.argv[3])[3]:
            print('%.2f %.2f %s' % (xy[0], xy[1], label))
    elif what == 'points':
        for series, xy in chart(p, sys.argv[3])[5]:
            print('%d %.2f %.2f' % (series, xy[0], xy[1]))
    elif what == 'titles':
        for t in chart(p, sys.argv[3])[4]:
            print(t)
    elif what == 'text':
        for t in p.text:
            print(t)
    elif what == 'tags':
        for t in sorted(p.tags):
            print(t, p.tags[t])
    else:
        sys.exit('unknown request %s' % what)


main()

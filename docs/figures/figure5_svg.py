#!/usr/bin/python3
"""Fig. 5 of docs/robustness.md as an SVG, from the CSV and JSON line of `gpprobe paper-robustness --figure 5`:
per test point (a column) the image, its certified Delta map (red: raising the pixel raises the class
probability, blue: lowers it; one colour scale per map, symmetric about 0) and LIME's coefficients (the
same colours); Delta's patch and LIME's patch outlined in black, pixels constant or nearly constant in
training (the CSV's constant_in_training, nearly_constant_in_training) hatched grey and left out of the
colour scale. Python's standard library only.

    gpprobe paper-robustness --figure 5 --data FILE [flags] --out fig5.csv 2> fig5.json
    python3 docs/figures/figure5_svg.py fig5.csv fig5.json "3,5,8" "title" > fig5.svg
"""
import csv
import json


def set_apart(r):
    """Constant or nearly constant in training (a CSV from before the nearly-constant column: constant)."""
    return r['constant_in_training'] == 'yes' or r.get('nearly_constant_in_training') == 'yes'
import math
import sys

CELL = 14


def colour(v, scale):
    t = max(-1.0, min(1.0, v / scale)) if scale > 0 else 0.0
    if t >= 0:
        g = round(255 * (1 - t))
        return f'rgb(255,{g},{g})'
    g = round(255 * (1 + t))
    return f'rgb({g},{g},255)'


def main():
    csv_path, json_path, names, title = sys.argv[1:5]
    names = names.split(',')
    rows = list(csv.DictReader(open(csv_path)))
    summary = next(json.loads(line) for line in open(json_path) if line.startswith('{'))
    d = sum(1 for r in rows if r['point'] == rows[0]['point'])
    side = int(round(math.sqrt(d)))
    panel = side * CELL
    gap = 18
    width = len(summary['points']) * (panel + gap) + 90
    height = 3 * (panel + gap) + 70
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
           f'font-size="12"><title>{title}</title>',
           '<defs><pattern id="hatch" width="4" height="4" patternUnits="userSpaceOnUse">'
           '<path d="M0,4 L4,0" stroke="#999" stroke-width="1"/></pattern></defs>',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="4" y="16">{title}</text>']
    for label, y in (('image', 0), ('Δ', 1), ('LIME', 2)):
        out.append(f'<text x="4" y="{54 + y * (panel + gap) + panel / 2}">{label}</text>')
    for a, p in enumerate(summary['points']):
        cells = [r for r in rows if r['point'] == str(p['point'])]
        x0 = 80 + a * (panel + gap)
        out.append(f'<text x="{x0}" y="32">point {p["point"]} ("{names[p["class"]]}")</text>')
        out.append(f'<text x="{x0}" y="46">p = {p["probability"]:.2f}</text>')
        for row_index, key in enumerate(('value', 'delta', 'lime')):
            values = [float(r[key]) for r in cells]
            varying = [v for v, r in zip(values, cells) if not set_apart(r)]
            scale = max((abs(v) for v in varying), default=1.0)
            y0 = 54 + row_index * (panel + gap)
            patch = set(p['patch'] if key == 'delta' else p['lime_patch'] if key == 'lime' else [])
            for j, (v, r) in enumerate(zip(values, cells)):
                x, y = x0 + (j % side) * CELL, y0 + (j // side) * CELL
                if key == 'value':
                    g = round(255 * (1 - max(0.0, min(1.0, v))))
                    fill = f'rgb({g},{g},{g})'
                elif set_apart(r):
                    fill = 'url(#hatch)'
                else:
                    fill = colour(v, scale)
                out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>')
            for j in sorted(patch):
                x, y = x0 + (j % side) * CELL, y0 + (j // side) * CELL
                out.append(f'<rect x="{x + 1}" y="{y + 1}" width="{CELL - 2}" height="{CELL - 2}" fill="none" '
                           'stroke="black" stroke-width="2"/>')
            out.append(f'<rect x="{x0}" y="{y0}" width="{panel}" height="{panel}" fill="none" stroke="#666"/>')
    out.append('</svg>')
    print('\n'.join(out))


if __name__ == '__main__':
    main()

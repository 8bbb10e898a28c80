#!/usr/bin/python3
"""Fig. 3 of docs/robustness.md as an SVG, from the CSV of `gpprobe paper-robustness --figure 3`: per test
point (a panel) the certified interval of the adversarial extreme (pi_min for a point the model puts in
class 1, pi_max otherwise) against gamma — its lower and upper ends as solid and dashed blue lines — and
the probability the GPFGS attack reaches (pink), with the decision threshold 0.5 (grey). Python's
standard library only.

    gpprobe paper-robustness --figure 3 --data FILE [flags] --out fig3.csv
    python3 docs/figures/figure3_svg.py fig3.csv "title" > fig3.svg
"""
import csv
import sys

W, H, PAD = 260, 200, 40


def main():
    csv_path, title = sys.argv[1:3]
    rows = list(csv.DictReader(open(csv_path)))
    points = []
    for r in rows:
        if r['point'] not in points:
            points.append(r['point'])
    width = len(points) * (W + PAD) + PAD
    height = H + 2 * PAD + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
           f'font-size="12"><title>{title}</title>', f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="4" y="16">{title}</text>']
    for a, p in enumerate(points):
        cells = [r for r in rows if r['point'] == p]
        gammas = [float(r['gamma']) for r in cells]
        g_max = max(gammas) or 1.0
        x0, y0 = PAD + a * (W + PAD), 40

        def at(g, v):
            return x0 + W * g / g_max, y0 + H * (1 - v)

        def line(key, colour, dash=''):
            xy = ' '.join('%.1f,%.1f' % at(g, float(r[key])) for g, r in zip(gammas, cells))
            return (f'<polyline points="{xy}" fill="none" stroke="{colour}" stroke-width="2"'
                    + (f' stroke-dasharray="{dash}"' if dash else '') + '/>')

        out.append(f'<rect x="{x0}" y="{y0}" width="{W}" height="{H}" fill="none" stroke="#666"/>')
        out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#bbb"/>' % (*at(0, 0.5), *at(g_max, 0.5)))
        out.append(line('bound_lower', '#1f4fd1'))
        out.append(line('bound_upper', '#1f4fd1', '5,3'))
        out.append(line('gpfgs', '#e0559b'))
        side = 'π_min' if cells[0]['side'] == 'minimum' else 'π_max'
        out.append(f'<text x="{x0}" y="{y0 - 6}">point {p} (label {cells[0]["label"]}, '
                   f'π = {float(cells[0]["probability"]):.2f}): {side}</text>')
        for v in (0, 0.5, 1):
            x, y = at(0, v)
            out.append(f'<text x="{x - 24}" y="{y + 4}">{v}</text>')
        for g in (0, g_max / 2, g_max):
            x, y = at(g, 0)
            out.append(f'<text x="{x - 8}" y="{y + 16}">{g:g}</text>')
        out.append(f'<text x="{x0 + W / 2 - 20}" y="{y0 + H + 30}">γ</text>')
    out.append(f'<text x="{PAD}" y="{height - 6}">blue: certified bounds (solid lower, dashed upper); '
               'pink: GPFGS; grey: 0.5</text>')
    out.append('</svg>')
    print('\n'.join(out))


if __name__ == '__main__':
    main()

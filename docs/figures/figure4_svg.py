#!/usr/bin/python3
"""Fig. 4 of docs/robustness.md as box plots, from the CSV of `gpprobe paper-robustness --figure 4`: per
training budget (epochs) a Laplace box and an EP box of delta = pi_max - pi_min over the gamma-box at each
test point, on a log axis. Each point's delta is a certified interval [delta_lower, delta_upper]; the box
is drawn from the intervals' midpoints (median line, quartiles by linear interpolation, whiskers to the
smallest and largest value, every point drawn as a dot). Under each pair, the Laplace / EP ratio of the
medians and of the means, each as the range the intervals' ends allow (a median and a mean are monotone,
so Laplace's lies between the statistic of its lower ends and of its upper ends, and so does EP's).
Also prints those ratios as one JSON line on stderr, with each box's five numbers (smallest, quartiles,
largest of the midpoints). Python's standard library only.

    gpprobe paper-robustness --figure 4 --data FILE [flags] --out fig4.csv
    python3 docs/figures/figure4_svg.py fig4.csv "title" > fig4.svg
"""
import csv
import json
import math
import statistics
import sys

H, PAD, BOX, GAP = 260, 60, 34, 90


def quantile(v, q):
    v = sorted(v)
    x = q * (len(v) - 1)
    lo = math.floor(x)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (x - lo)


def ratio(top_lo, top_hi, bottom_lo, bottom_hi):
    """The range of top / bottom when top lies in [top_lo, top_hi] and bottom in [bottom_lo, bottom_hi]."""
    return [top_lo / bottom_hi if bottom_hi > 0 else None, top_hi / bottom_lo if bottom_lo > 0 else None]


def text_range(r):
    def fmt(x):
        if x is None:
            return '∞'
        return '%.3g' % x
    return fmt(r[0]) if r[0] is not None and r[1] is not None and fmt(r[0]) == fmt(r[1]) else f'{fmt(r[0])}–{fmt(r[1])}'


def main():
    csv_path, title = sys.argv[1:3]
    rows = list(csv.DictReader(open(csv_path)))
    budgets = []
    for r in rows:
        if int(r['epochs']) not in budgets:
            budgets.append(int(r['epochs']))
    runs = {}
    for r in rows:
        runs.setdefault((int(r['epochs']), r['method']), []).append((float(r['delta_lower']), float(r['delta_upper'])))
    mids = [0.5 * (a + b) for v in runs.values() for a, b in v]
    positive = [m for m in mids if m > 0]
    y_lo = 10 ** math.floor(math.log10(min(positive))) if positive else 1e-6
    y_hi = 10 ** math.ceil(math.log10(max(positive))) if positive else 1.0
    width = max(600, PAD + len(budgets) * (2 * BOX + GAP) + PAD)
    height = H + 150
    top = 40

    def y(v):
        v = max(v, y_lo)
        return top + H * (1 - (math.log10(v) - math.log10(y_lo)) / (math.log10(y_hi) - math.log10(y_lo)))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
           f'font-size="11"><title>{title}</title>', f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="4" y="16" font-size="12">{title}</text>']
    e = int(round(math.log10(y_lo)))
    while e <= int(round(math.log10(y_hi))):
        yy = y(10 ** e)
        out.append(f'<line x1="{PAD}" y1="{yy:.1f}" x2="{width - PAD / 2}" y2="{yy:.1f}" stroke="#eee"/>')
        out.append(f'<text x="{PAD - 4}" y="{yy + 4:.1f}" text-anchor="end">1e{e}</text>')
        e += 1
    out.append(f'<text x="12" y="{top + H / 2}" transform="rotate(-90 12 {top + H / 2})" text-anchor="middle">'
               'δ = π_max − π_min (log)</text>')
    summary = {}
    colours = {'laplace': '#c0392b', 'ep': '#2e6fb7'}
    for b, epochs in enumerate(budgets):
        x0 = PAD + 20 + b * (2 * BOX + GAP)
        stats = {}
        for k, method in enumerate(['laplace', 'ep']):
            v = runs.get((epochs, method))
            if not v:
                continue
            m = [0.5 * (a + c) for a, c in v]
            lows, highs = [a for a, _ in v], [c for _, c in v]
            q1, q2, q3 = quantile(m, 0.25), quantile(m, 0.5), quantile(m, 0.75)
            stats[method] = dict(median=(statistics.median(lows), statistics.median(highs)),
                                 mean=(statistics.fmean(lows), statistics.fmean(highs)), n=len(v),
                                 box=[min(m), q1, q2, q3, max(m)])
            cx = x0 + k * (BOX + 10) + BOX / 2
            c = colours[method]
            out.append(f'<line x1="{cx}" y1="{y(min(m)):.1f}" x2="{cx}" y2="{y(max(m)):.1f}" stroke="{c}"/>')
            out.append(f'<rect x="{cx - BOX / 2}" y="{y(q3):.1f}" width="{BOX}" height="{max(1, y(q1) - y(q3)):.1f}" '
                       f'fill="{c}" fill-opacity="0.15" stroke="{c}"/>')
            out.append(f'<line x1="{cx - BOX / 2}" y1="{y(q2):.1f}" x2="{cx + BOX / 2}" y2="{y(q2):.1f}" '
                       f'stroke="{c}" stroke-width="2.5"/>')
            for i, v_i in enumerate(m):
                jitter = ((i * 7919) % 11 - 5) * BOX / 30
                out.append(f'<circle cx="{cx + jitter:.1f}" cy="{y(v_i):.1f}" r="1.8" fill="{c}" fill-opacity="0.6"/>')
            out.append(f'<text x="{cx}" y="{top + H + 14}" text-anchor="middle" fill="{c}">'
                       f'{"Laplace" if method == "laplace" else "EP"}</text>')
        out.append(f'<text x="{x0 + BOX + 5}" y="{top + H + 30}" text-anchor="middle">{epochs} epochs</text>')
        if 'laplace' in stats and 'ep' in stats:
            L, E = stats['laplace'], stats['ep']
            med = ratio(L['median'][0], L['median'][1], E['median'][0], E['median'][1])
            mean = ratio(L['mean'][0], L['mean'][1], E['mean'][0], E['mean'][1])
            summary[str(epochs)] = {'laplace_over_ep_median': med, 'laplace_over_ep_mean': mean,
                                    'laplace_median': L['median'], 'ep_median': E['median'],
                                    'laplace_mean': L['mean'], 'ep_mean': E['mean'], 'points': L['n'],
                                    'laplace_box': L['box'], 'ep_box': E['box']}
            out.append(f'<text x="{x0 + BOX + 5}" y="{top + H + 48}" text-anchor="middle">Laplace / EP</text>')
            out.append(f'<text x="{x0 + BOX + 5}" y="{top + H + 63}" text-anchor="middle">medians {text_range(med)}</text>')
            out.append(f'<text x="{x0 + BOX + 5}" y="{top + H + 78}" text-anchor="middle">means {text_range(mean)}</text>')
    out.append(f'<text x="4" y="{height - 8}" fill="#555">box: quartiles of the intervals\' midpoints, line: '
               'median, whiskers: smallest to largest; dots: the test points</text>')
    out.append('</svg>')
    print('\n'.join(out))
    print(json.dumps(summary), file=sys.stderr)


if __name__ == '__main__':
    main()

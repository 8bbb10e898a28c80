#!/usr/bin/python3
"""Fig. 6 of docs/robustness.md as an SVG, from the CSV of `gpprobe paper-robustness --figure 6`: the global
sensitivity vectors on the unit scale, each divided by its Euclidean length (the direction the paper's arrows
show; the lengths themselves differ by orders of magnitude between gammas). One vector per gamma (the mean
certified Delta over the test points) and two for LIME (its mean slope in input units and its mean raw
coefficient, the same at every gamma). Two features: arrows from the origin inside the unit circle, the
certified interval of each Delta drawn as a box around the arrow's tip (the interval's ends divided by the
same length). More features: one row of bars per feature, one bar per vector, each Delta bar with its
interval as a whisker. Also prints the unit vectors, the lengths and the scaled intervals as one JSON line on
stderr. Python's standard library only.

    gpprobe paper-robustness --figure 6 --data FILE [flags] --out fig6.csv
    python3 docs/figures/figure6_svg.py fig6.csv "title" [name1,name2,...] > fig6.svg
"""
import csv
import json
import math
import sys

COLOURS = ['#2e6fb7', '#7b4fb0', '#c0392b', '#1e8449', '#b9770e', '#5d6d7e']
LIME_SLOPE, LIME_COEFF = '#e67e22', '#7f8c8d'


def unit(v):
    norm = math.sqrt(sum(x * x for x in v))
    return norm, [x / norm if norm > 0 else 0.0 for x in v]


def vectors(rows):
    """[(label, colour, unit vector, length, scaled lower ends or None, scaled upper ends or None)]."""
    gammas = []
    for r in rows:
        if r['gamma'] not in gammas:
            gammas.append(r['gamma'])
    features = sorted({int(r['feature']) for r in rows})
    by = {(r['gamma'], int(r['feature'])): r for r in rows}
    out = []
    for k, g in enumerate(gammas):
        delta = [float(by[(g, j)]['delta']) for j in features]
        norm, u = unit(delta)
        lower = [float(by[(g, j)]['delta_lower']) / norm if norm > 0 else 0.0 for j in features]
        upper = [float(by[(g, j)]['delta_upper']) / norm if norm > 0 else 0.0 for j in features]
        shown = f'{float(g):g}'  # the CLI writes 17 significant digits: 0.10000000000000001
        out.append((f'Δ, γ = {shown}', COLOURS[k % len(COLOURS)], u, norm, lower, upper, shown))
    first = gammas[0]
    for key, label, colour in (('lime_slope', 'LIME slope', LIME_SLOPE), ('lime', 'LIME coefficient', LIME_COEFF)):
        norm, u = unit([float(by[(first, j)][key]) for j in features])
        out.append((label, colour, u, norm, None, None, key))
    return features, out


def arrows(vs, names, out, x0, y0, r):
    cx, cy = x0 + r + 30, y0 + r + 20
    out.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="none" stroke="#ccc"/>')
    out.append(f'<line x1="{cx - r - 10}" y1="{cy}" x2="{cx + r + 10}" y2="{cy}" stroke="#999"/>')
    out.append(f'<line x1="{cx}" y1="{cy + r + 10}" x2="{cx}" y2="{cy - r - 10}" stroke="#999"/>')
    out.append(f'<text x="{cx + r + 14}" y="{cy + 4}">{names[0]}</text>')
    out.append(f'<text x="{cx}" y="{cy - r - 14}" text-anchor="middle">{names[1]}</text>')
    for v in (-1, 1):
        out.append(f'<text x="{cx + v * r}" y="{cy + 14}" text-anchor="middle" fill="#777">{v}</text>')
        out.append(f'<text x="{cx - 6}" y="{cy - v * r + 4}" text-anchor="end" fill="#777">{v}</text>')
    deltas = sum(1 for v in vs if v[4] is not None)
    for k, (label, colour, u, _, lower, upper, _) in enumerate(vs):
        tx, ty = cx + r * u[0], cy - r * u[1]
        # Earlier Deltas drawn wider, so that two gammas with the same direction both show.
        width = 2 + 2 * (deltas - 1 - k) if lower is not None else 2
        if lower is not None:
            out.append(f'<rect x="{cx + r * lower[0]:.1f}" y="{cy - r * upper[1]:.1f}" '
                       f'width="{max(1.0, r * (upper[0] - lower[0])):.1f}" height="{max(1.0, r * (upper[1] - lower[1])):.1f}" '
                       f'fill="{colour}" fill-opacity="0.25" stroke="{colour}" stroke-width="0.5"/>')
        dash = ' stroke-dasharray="4 3"' if lower is None else ''
        out.append(f'<line x1="{cx}" y1="{cy}" x2="{tx:.1f}" y2="{ty:.1f}" stroke="{colour}" stroke-width="{width}"{dash}/>')
        out.append(f'<circle cx="{tx:.1f}" cy="{ty:.1f}" r="3" fill="{colour}"/>')
    ly = y0 + 10
    lx = cx + r + 60
    for label, colour, u, norm, _, _, _ in vs:
        dash = ' stroke-dasharray="4 3"' if label.startswith('LIME') else ''
        out.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + 22}" y2="{ly}" stroke="{colour}" stroke-width="2"{dash}/>')
        out.append(f'<text x="{lx + 28}" y="{ly + 4}">{label}: ({u[0]:.3f}, {u[1]:.3f}), length {norm:.3g}</text>')
        ly += 18
    return cx + r + 60 + 330, cy + r + 30


def bars(vs, names, out, x0, y0):
    row_h = 8 * len(vs) + 10
    half = 170
    cx = x0 + 110 + half
    for j, name in enumerate(names):
        top = y0 + 20 + j * row_h
        out.append(f'<text x="{x0 + 104}" y="{top + row_h / 2 + 2:.1f}" text-anchor="end">{name}</text>')
        for k, (_, colour, u, _, lower, upper, _) in enumerate(vs):
            y = top + 4 + k * 8
            w = half * u[j]
            out.append(f'<rect x="{min(cx, cx + w):.1f}" y="{y}" width="{abs(w):.1f}" height="6" fill="{colour}"/>')
            if lower is not None:
                out.append(f'<line x1="{cx + half * lower[j]:.1f}" y1="{y + 3}" x2="{cx + half * upper[j]:.1f}" '
                           f'y2="{y + 3}" stroke="black" stroke-width="1"/>')
    bottom = y0 + 20 + len(names) * row_h
    out.append(f'<line x1="{cx}" y1="{y0 + 12}" x2="{cx}" y2="{bottom}" stroke="#999"/>')
    for v in (-1, -0.5, 0.5, 1):
        out.append(f'<line x1="{cx + half * v}" y1="{y0 + 12}" x2="{cx + half * v}" y2="{bottom}" stroke="#eee"/>')
        out.append(f'<text x="{cx + half * v}" y="{bottom + 12}" text-anchor="middle" fill="#777">{v:g}</text>')
    ly = y0 + 20
    lx = cx + half + 30
    for label, colour, u, norm, _, _, _ in vs:
        out.append(f'<rect x="{lx}" y="{ly - 6}" width="14" height="8" fill="{colour}"/>')
        out.append(f'<text x="{lx + 20}" y="{ly + 2}">{label} (length {norm:.3g})</text>')
        ly += 18
    return lx + 230, bottom + 24


def main():
    csv_path, title = sys.argv[1:3]
    rows = list(csv.DictReader(open(csv_path)))
    features, vs = vectors(rows)
    names = sys.argv[3].split(',') if len(sys.argv) > 3 else [f'x{j + 1}' for j in features]
    if len(names) != len(features):
        sys.exit(f'figure6_svg.py: {len(names)} names for {len(features)} features')
    body = []
    if len(features) == 2:
        width, height = arrows(vs, names, body, 20, 40, 130)
    else:
        width, height = bars(vs, names, body, 10, 30)
    height += 20
    width = max(width, 800)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
           f'font-size="11"><title>{title}</title>', f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="4" y="16" font-size="12">{title}</text>'] + body
    how = ('boxes: the certified interval of Δ on the same scale; dashed: LIME' if len(features) == 2 else
           'black whiskers: the certified interval of Δ on the same scale')
    out.append(f'<text x="4" y="{height - 6}" fill="#555">each vector divided by its own length (unit scale); '
               f'{how}</text>')
    out.append('</svg>')
    print('\n'.join(out))
    summary = {'features': features, 'names': names, 'delta': {}, 'lime_slope': None, 'lime': None}
    for label, _, u, norm, lower, upper, key in vs:
        entry = {'unit': u, 'length': norm}
        if lower is not None:
            entry.update(unit_lower=lower, unit_upper=upper)
            summary['delta'][key] = entry
        else:
            summary[key] = entry
    print(json.dumps(summary), file=sys.stderr)


if __name__ == '__main__':
    main()

#!/usr/bin/python3
"""Fig. 2 of docs/robustness.md as an SVG, from the JSON of `gpprobe robustness --sweep ... --search both`
(one panel per file): against gamma, the certified interval of pi_min (blue: its lower end solid, its
upper end, the value attained at the witness, dashed) and of pi_max (red, the same), the probability the
one-step GPFGS attack reaches (pink dots), pi(x*) (black) and the decision threshold 1/2 (grey).
Python's standard library only.

    gpprobe robustness --train FILE ... --point x --sweep 0,0.1,... --search both > sweep.json
    python3 docs/figures/figure2_svg.py "title" sweep1.json "panel title 1" [sweep2.json "panel title 2" ...] > fig2.svg
"""
import json
import sys

W, H, PAD = 300, 220, 50


def main():
    title = sys.argv[1]
    panels = [(sys.argv[i], sys.argv[i + 1]) for i in range(2, len(sys.argv), 2)]
    width = len(panels) * (W + PAD) + PAD
    height = H + 2 * PAD + 50
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
           f'font-size="11"><title>{title}</title>', f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="4" y="16" font-size="12">{title}</text>']
    for a, (path, name) in enumerate(panels):
        rows = json.load(open(path))['rows']
        gammas = [r['gamma'] for r in rows]
        g_max = max(gammas) or 1.0
        x0, y0 = PAD + a * (W + PAD), 46

        def at(g, v):
            return x0 + W * g / g_max, y0 + H * (1 - v)

        def line(values, colour, dash=''):
            xy = ' '.join('%.1f,%.1f' % at(g, v) for g, v in zip(gammas, values))
            return (f'<polyline points="{xy}" fill="none" stroke="{colour}" stroke-width="2"'
                    + (f' stroke-dasharray="{dash}"' if dash else '') + '/>')

        out.append(f'<text x="{x0}" y="{y0 - 8}">{name}</text>')
        out.append(f'<rect x="{x0}" y="{y0}" width="{W}" height="{H}" fill="none" stroke="#999"/>')
        for v in (0, 0.25, 0.5, 0.75, 1):
            _, y = at(0, v)
            out.append(f'<text x="{x0 - 4}" y="{y + 4:.1f}" text-anchor="end">{v:g}</text>')
        ticks = gammas[:: max(1, len(gammas) // 5)]
        for g in ticks + ([gammas[-1]] if ticks[-1] != gammas[-1] else []):
            x, _ = at(g, 0)
            out.append(f'<text x="{x:.1f}" y="{y0 + H + 14}" text-anchor="middle">{g:g}</text>')
        out.append(f'<text x="{x0 + W / 2}" y="{y0 + H + 30}" text-anchor="middle">γ</text>')
        xa, ya = at(0, 0.5)
        xb, _ = at(g_max, 0.5)
        out.append(f'<line x1="{xa}" y1="{ya}" x2="{xb}" y2="{ya}" stroke="#bbb" stroke-dasharray="2,3"/>')
        out.append(line([r['probability_at_point'] for r in rows], '#000'))
        out.append(line([r['minimum']['lower'] for r in rows], '#2e6fb7'))
        out.append(line([r['minimum']['upper'] for r in rows], '#2e6fb7', '5,3'))
        out.append(line([r['maximum']['upper'] for r in rows], '#c0392b'))
        out.append(line([r['maximum']['lower'] for r in rows], '#c0392b', '5,3'))
        for g, r in zip(gammas, rows):
            x, y = at(g, r['gpfgs']['probability'])
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="#e377c2"/>')
    out.append(f'<text x="4" y="{height - 22}" fill="#555">blue: π_min (solid: certified lower bound, dashed: '
               'attained); red: π_max (solid: certified upper bound,</text>')
    out.append(f'<text x="4" y="{height - 8}" fill="#555">dashed: attained); pink: the GPFGS attack; black: π(x*); '
               'grey: ½</text>')
    out.append('</svg>')
    print('\n'.join(out))


if __name__ == '__main__':
    main()

// The certificates and gamma sweeps of the Classification tab as CSV, one row per model and gamma, with
// the fields of `gpprobe robustness` (at 17 significant digits, as the CLI writes numbers): x*, gamma,
// p(y = 1) at x*, the root bounds, each extreme's interval, iterations and status, GPFGS, the verdict.
import type { RobustnessCertificate } from '../../../engine/certify/classification_certify.ts';
import type { ClassificationData } from '../state/classification_data.ts';
import type { SideCertificate, SideSweep } from '../state/certify_store.ts';
import { modelLabel } from '../worker/protocol.ts';
import { certificateOf, safetyOf, type MulticlassCertification } from '../state/multiclass_store.ts';
import { csvCell, formatDigits17 } from '../../../common/ui/format.ts';

function header(d: ClassificationData): string[] {
  return [
    'model',
    ...d.inputNames.map((n) => `point_${n}`),
    'gamma',
    'probability_at_point',
    'root_mean_lower',
    'root_mean_upper',
    'root_variance_lower',
    'root_variance_upper',
    'root_probability_lower',
    'root_probability_upper',
    'minimum_lower',
    'minimum_upper',
    'minimum_iterations',
    'minimum_status',
    'maximum_lower',
    'maximum_upper',
    'maximum_iterations',
    'maximum_status',
    ...d.inputNames.map((n) => `adversarial_witness_${n}`),
    'gpfgs_probability',
    'verdict_can_flip',
  ];
}

function row(model: string, point: number[], c: RobustnessCertificate): string[] {
  const n = (v: number) => formatDigits17(v);
  const side = c.probabilityAtPoint > 0.5 ? c.minimum : c.maximum;
  return [
    csvCell(model),
    ...point.map(n),
    n(c.gamma),
    n(c.probabilityAtPoint),
    n(c.root.mean.lower),
    n(c.root.mean.upper),
    n(c.root.variance.lower),
    n(c.root.variance.upper),
    n(c.root.probability.lower),
    n(c.root.probability.upper),
    n(c.minimum.lower),
    n(c.minimum.upper),
    String(c.minimum.iterations),
    c.minimum.status,
    n(c.maximum.lower),
    n(c.maximum.upper),
    String(c.maximum.iterations),
    c.maximum.status,
    ...Array.from(side.witness, n),
    n(c.gpfgs.probability),
    c.verdictCanFlip,
  ];
}

/** Both sides' finished certificates (the witness columns hold the adversarial extreme's witness). */
export function certificatesCsv(d: ClassificationData, entries: readonly (SideCertificate | null)[]): string {
  const lines = [header(d).join(',')];
  for (const e of entries) if (e?.result) lines.push(row(modelLabel(e.model), e.point, e.result.certificate).join(','));
  return `${lines.join('\n')}\n`;
}

/** Both sides' sweeps, one row per model and gamma. */
export function sweepsCsv(d: ClassificationData, entries: readonly (SideSweep | null)[]): string {
  const lines = [header(d).join(',')];
  for (const e of entries)
    for (const c of e?.result?.certificates ?? []) lines.push(row(modelLabel(e!.model), e!.point, c).join(','));
  return `${lines.join('\n')}\n`;
}

/** The softmax model's certificate, one row per class: x*, gamma, p at x*, the root bound, each extreme's
 * interval, iterations and status, then the safety verdict (the same on every row) with its witness. */
export function multiclassCertificateCsv(d: ClassificationData, m: MulticlassCertification): string {
  const n = (v: number) => formatDigits17(v);
  const lines = [
    [
      'class',
      ...d.inputNames.map((x) => `point_${x}`),
      'gamma',
      'probability_at_point',
      'root_lower',
      'root_upper',
      'minimum_lower',
      'minimum_upper',
      'minimum_iterations',
      'minimum_status',
      'maximum_lower',
      'maximum_upper',
      'maximum_iterations',
      'maximum_status',
      'refined',
      'safety_predicted_class',
      'safety_margin_lower',
      'safety_margin_upper',
      'safety_status',
      ...d.inputNames.map((x) => `safety_witness_${x}`),
    ]
      .map(csvCell)
      .join(','),
  ];
  const s = safetyOf(m);
  for (const c of m.classes) {
    const cert = certificateOf(c);
    if (!cert || !s) continue;
    lines.push(
      [
        csvCell(d.classNames[c.classIndex]),
        ...m.point.map(n),
        n(cert.gamma),
        n(cert.probabilityAtPoint[c.classIndex]),
        n(cert.root.lower),
        n(cert.root.upper),
        n(cert.minimum.lower),
        n(cert.minimum.upper),
        String(cert.minimum.iterations),
        cert.minimum.status,
        n(cert.maximum.lower),
        n(cert.maximum.upper),
        String(cert.maximum.iterations),
        cert.maximum.status,
        c.result ? 'yes' : 'root bounds only',
        csvCell(d.classNames[s.predictedClass]),
        n(s.marginLower),
        n(s.marginUpper),
        s.status,
        ...Array.from(s.witness, n),
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

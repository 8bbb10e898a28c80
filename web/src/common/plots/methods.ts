// How the probe and the baselines are named and coloured wherever the evaluation and OOD labs show them
// (Okabe-Ito colours, colour-blind safe; GPP in vermillion so it stands out; the GP classification
// probes in brown and purple, distinct from all of them).

export interface MethodStyle {
  label: string;
  color: string;
  /** The method's OOD score, for the OOD comparison's table. */
  oodScore?: string;
}

export const METHODS: Record<string, MethodStyle> = {
  gpp: { label: 'GPP', color: '#d55e00', oodScore: '−latent variance' },
  lp: { label: 'LP', color: '#0072b2' },
  svm: { label: 'SVM', color: '#009e73' },
  lpe: { label: 'LPE', color: '#cc79a7', oodScore: "−variance of the members' probabilities" },
  msp: { label: 'MSP', color: '#e69f00', oodScore: 'max(p, 1 − p) of the LP' },
  maha: { label: 'Mahalanobis', color: '#56b4e9', oodScore: '−distance to the nearest class mean' },
  knn: { label: 'kNN', color: '#3e4c59', oodScore: '−distance to the k-th nearest observation' },
  'gpc-laplace': { label: 'GPC Laplace', color: '#8c510a' },
  'gpc-ep': { label: 'GPC EP', color: '#5e3c99' },
};

export function methodStyle(method: string): MethodStyle {
  return METHODS[method] ?? { label: method, color: '#7b8794' };
}

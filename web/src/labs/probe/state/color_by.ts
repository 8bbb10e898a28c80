// What the probe lab's map is coloured by: the concept or one of the probe's measures. Links carry it
// (app/view_state.ts).
import { signal } from '@preact/signals';
import type { ProbeScores } from '../../../engine/probe/probe_engine.ts';

export type ColorBy = 'concept' | keyof ProbeScores;
export const COLOR_BY: readonly ColorBy[] = [
  'concept',
  'judgedProbability',
  'episteme',
  'alea',
  'knowledge',
  'oodScore',
  'latentMean',
  'latentVariance',
];

export const colorBy = signal<ColorBy>('judgedProbability');

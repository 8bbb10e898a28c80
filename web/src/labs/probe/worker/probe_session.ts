// The worker's probe: kept up to date with the page's list of observations by adding and removing
// observations in place (the posterior is updated, not refitted) unless hyperparameters changed or
// so much changed that a fresh fit is cheaper.
//
// The scores of the main embeddings and the OOD set are kept with the probe (scored_queries.ts): an
// add or remove updates every query by a rank-one change, so toggling one observation costs O(rows * d)
// instead of a full re-score; a fresh fit re-scores them in full (chunked, cancellable).
//
// Transactional: `observations` is always exactly the probe's observations in the probe's order. Each
// add or remove that succeeds is recorded at once, so when one fails half-way (out of memory, a
// factorisation that fails) the list still names the right rows and later removals by index hit the
// right ones; the update then falls back to a fresh fit of the whole target, which replaces the probe
// only if it succeeds.
import type { Probe, ProbeEngine, ProbeScores, ScoreAsyncOptions } from '../../../engine/probe/probe_engine.ts';
import type { ResidentMatrix } from '../../../engine/resident_matrix.ts';
import { ScoredQueries } from '../../../engine/probe/scored_queries.ts';

export interface Observation {
  row: number;
  label: number;
}

const key = (o: Observation): string => `${o.row}:${o.label}`;

export type ProbeUpdate = { kind: 'fit' } | { kind: 'incremental'; added: number; removed: number };

export class ProbeSession {
  #probe: Probe | null = null;
  #epsilon = NaN;
  #strength = NaN;
  #embeddings: ResidentMatrix | null = null;
  /** The probe's observations in its own order. */
  #current: Observation[] = [];
  /** Kept scores per query set (main embeddings, OOD set); the first follows the probe's changes. */
  #kept: { main?: ScoredQueries; ood?: ScoredQueries } = {};
  #fullPasses = 0;

  /**
   * Full passes over a query set so far: first scorings, after a fresh fit, and the drift guard's (or
   * any other fallback of a rank-one update). A toggle that adds none was followed by rank-one updates alone.
   */
  get fullPasses(): number {
    return this.#fullPasses;
  }

  get probe(): Probe | null {
    return this.#probe;
  }

  get observations(): readonly Observation[] {
    return this.#current;
  }

  /** Forget the probe (new dataset). */
  reset(): void {
    this.#kept.main?.dispose();
    this.#kept.ood?.dispose();
    this.#kept = {};
    this.#probe?.dispose();
    this.#probe = null;
    this.#current = [];
    this.#embeddings = null;
  }

  /**
   * Brings the probe to exactly `target` observations; returns what it did. `fresh`: fit anew in the
   * target's order even when an update would do (the numbers a new page computes, to the last bit).
   */
  update(
    engine: ProbeEngine,
    embeddings: ResidentMatrix,
    epsilon: number,
    strength: number,
    rows: Int32Array,
    labels: Uint8Array,
    fresh = false,
  ): ProbeUpdate {
    const target: Observation[] = Array.from(rows, (row, i) => ({ row, label: labels[i] }));
    const probe = this.#probe;
    if (
      !fresh &&
      probe &&
      this.#embeddings === embeddings &&
      this.#epsilon === epsilon &&
      this.#strength === strength
    ) {
      const plan = this.#plan(target);
      if (plan.removals.length + plan.additions.length <= Math.max(16, 0.25 * target.length)) {
        try {
          this.#apply(probe, embeddings, plan);
          return { kind: 'incremental', added: plan.additions.length, removed: plan.removals.length };
        } catch {
          // #current still matches the probe; a fresh fit below reaches the target or keeps both.
        }
      }
    }
    const fitted = engine.fitProbe({
      observations: embeddings.gatherRows(rows),
      labels,
      epsilon,
      strength,
      expectedQueries: embeddings.rows,
    });
    this.#probe?.dispose();
    this.#probe = fitted;
    this.#epsilon = epsilon;
    this.#strength = strength;
    this.#embeddings = embeddings;
    this.#current = target;
    return { kind: 'fit' };
  }

  /** Which current observations go (their indices, ascending) and which target ones come. */
  #plan(target: Observation[]): { removals: number[]; additions: Observation[] } {
    const wanted = new Map<string, number>();
    for (const o of target) wanted.set(key(o), (wanted.get(key(o)) ?? 0) + 1);
    const removals: number[] = [];
    this.#current.forEach((o, i) => {
      const left = wanted.get(key(o)) ?? 0;
      if (left > 0) wanted.set(key(o), left - 1);
      else removals.push(i);
    });
    const additions = target.filter((o) => {
      const left = wanted.get(key(o)) ?? 0;
      if (left > 0) wanted.set(key(o), left - 1);
      return left > 0;
    });
    return { removals, additions };
  }

  /**
   * The scores of `queries` (the main embeddings or the OOD set) for the current probe: the kept ones,
   * updated with every change since, or a full pass when the probe was fitted anew.
   */
  async scores(role: 'main' | 'ood', queries: ResidentMatrix, options: ScoreAsyncOptions): Promise<ProbeScores> {
    const probe = this.#probe!;
    let kept = this.#kept[role];
    if (!kept || kept.queries !== queries) {
      kept?.dispose();
      kept = new ScoredQueries(probe, queries);
      this.#kept[role] = kept;
    }
    if (!kept.status(probe).current) {
      this.#fullPasses++;
      await kept.score(probe, options);
    }
    return kept.scores();
  }

  #apply(probe: Probe, embeddings: ResidentMatrix, plan: { removals: number[]; additions: Observation[] }): void {
    // Through the main set's kept scores when they are current (the OOD set follows each change), else
    // on the probe alone; either way scores() re-scores what did not follow.
    const live = (k?: ScoredQueries) => (k && !k.queries.disposed && k.status(probe).current ? k : undefined);
    const lead = live(this.#kept.main) && this.#kept.main!.queries === embeddings ? this.#kept.main : undefined;
    const follower = lead ? live(this.#kept.ood) : undefined;
    // The kept sets' own full passes (drift guard, fallbacks) during these changes.
    const rescores = () => (lead?.status(probe).fullRescores ?? 0) + (follower?.status(probe).fullRescores ?? 0);
    const before = rescores();
    try {
      this.#changes(probe, embeddings, plan, lead, follower);
    } finally {
      this.#fullPasses += rescores() - before;
    }
  }

  #changes(
    probe: Probe,
    embeddings: ResidentMatrix,
    plan: { removals: number[]; additions: Observation[] },
    lead: ScoredQueries | undefined,
    follower: ScoredQueries | undefined,
  ): void {
    const change = (update: (k: ScoredQueries) => void, plain: () => void) => {
      if (lead) update(lead);
      else plain();
      follower?.follow(probe, lead!);
    };
    // Highest index first, so earlier indices stay valid; each success is recorded before the next.
    for (let k = plan.removals.length - 1; k >= 0; k--) {
      const index = plan.removals[k];
      change(
        (kept) => kept.removeObservation(probe, index),
        () => probe.removeObservation(index),
      );
      this.#current.splice(index, 1);
    }
    if (plan.additions.length === 0) return;
    const added = embeddings.gatherRows(plan.additions.map((o) => o.row));
    plan.additions.forEach((o, k) => {
      const row = added.data.subarray(k * added.cols, (k + 1) * added.cols);
      change(
        (kept) => kept.addObservation(probe, row, o.label),
        () => probe.addObservation(row, o.label),
      );
      this.#current.push(o);
    });
  }
}

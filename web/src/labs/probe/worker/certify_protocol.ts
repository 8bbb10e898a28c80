// "Certify within γ": the probe's certified bounds around one query (the Probe lab's request kinds; the
// classification lab's certificates are in labs/classification/worker/certify_protocol.ts). One long
// synchronous wasm call (branch and bound), so it runs on the instance that cancel terminates (policy
// 'terminate') and carries all it needs: the probe's observations and the query, which 'embedding-rows'
// fetches from the resident embeddings first (short: policy 'none'). Progress as the classifier's
// certificates: root bounds, then intervals (common/worker/certify_progress.ts).
import type { Matrix } from '../../../engine/matrix.ts';
import type { CertifyOptions, ProbeCertificate } from '../../../engine/certify/probe_certify.ts';
import type { Policies } from '../../../common/worker/policies.ts';

export interface ProbeCertifyRequest {
  /** The probe's observations (rows of the embeddings) and labels, in the order the lab fits them. */
  observations: Matrix;
  labels: Uint8Array;
  epsilon: number;
  strength: number;
  /** a*, d values. */
  query: Float32Array | Float64Array;
  options: Omit<CertifyOptions, 'onProgress' | 'signal' | 'dims'> & { dims?: number[] };
}

export interface ProbeCertifyRequests {
  /** Rows of the main embeddings, in the given order. */
  'embedding-rows': { request: { rows: Int32Array }; result: Matrix };
  'probe-certify': { request: ProbeCertifyRequest; result: { certificate: ProbeCertificate; seconds: number } };
}

export const PROBE_CERTIFY_POLICIES: Policies<ProbeCertifyRequests> = {
  'embedding-rows': 'none',
  'probe-certify': 'terminate',
};

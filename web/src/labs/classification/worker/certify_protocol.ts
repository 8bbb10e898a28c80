// Certified bounds' requests (the lab registry, labs/protocol.ts, joins them with the other labs'): a GP classifier's robustness at a
// point and its gamma sweep (the Classification tab), and the probe's certificate at one query (the
// Probe tab).
//
// Each is one long synchronous wasm call (branch and bound). Its progress callback runs inside that
// call and cannot read a cancel message (that would need a SharedArrayBuffer, i.e. cross-origin
// isolation, which the app does not require), so these kinds run on the instance that cancel
// terminates (policy 'terminate'), and each request carries all it needs: the data and the model, or
// the probe's observations and the query. The worker can still post from inside the call, so the page
// sees progress as it happens: the root bounds first (detail 'root'), then the searched extreme's
// interval after splits (detail 'interval', at most every INTERVAL_MS so a fast search does not flood
// the page; the final interval comes with the result). 'embedding-rows' fetches those rows from the
// resident embeddings first (short: policy 'none').
import type { ClassifierModel } from './protocol.ts';
import type { Matrix } from '../../../engine/matrix.ts';
import type { CertifyOptions, ProbeCertificate } from '../../../engine/certify/probe_certify.ts';
import type { RobustnessCertificate, RobustnessOptions } from '../../../engine/certify/classification_certify.ts';
import type { Policies } from '../../../common/worker/policies.ts';
import type { Inputs } from '../../../common/data/table.ts';

/** Settings of a classifier's certificate, without the callbacks (the worker supplies them). */
export type RobustnessSettings = Omit<RobustnessOptions, 'onProgress' | 'signal' | 'dims' | 'validRange'> & {
  dims?: number[];
  validRange?: [number, number] | null;
};

export interface RobustnessRequest {
  /** n by d training inputs and their labels (0/1 or −1/+1). */
  x: Inputs;
  labels: Float64Array;
  model: ClassifierModel;
  /** x*, d values. */
  point: number[];
  options: RobustnessSettings;
}

export interface RobustnessSweepRequest extends Omit<RobustnessRequest, 'options'> {
  gammas: number[];
  options: Omit<RobustnessSettings, 'gamma'>;
}

export interface CertifyRequests {
  'classification-certify': {
    request: RobustnessRequest;
    result: { certificate: RobustnessCertificate; seconds: number };
  };
  'classification-sweep': {
    request: RobustnessSweepRequest;
    result: { certificates: RobustnessCertificate[]; seconds: number };
  };
}

export const CERTIFY_POLICIES: Policies<CertifyRequests> = {
  'classification-certify': 'terminate',
  'classification-sweep': 'terminate',
};

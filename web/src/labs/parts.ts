// The types of what a lab gives the registry, one file per layer in the lab's folder, each found by its
// name (docs/architecture.md "How to add a lab"):
//   labs/<lab>/worker/lab_protocol.ts  its request kinds and their cancel policies  -> labs/protocol.ts
//   labs/<lab>/worker/lab_handlers.ts  a handler per kind, on the lab's engine      -> labs/worker.ts
//   labs/<lab>/ui/lab_view.ts          its view and what the shell shows with it   -> labs/views.ts
// Types only: each lab's part imports these, and the registry's parts import the labs' parts.
import type { ComponentType } from 'preact';
import type { LabRequests } from '../common/registry.ts';
import type { LinkActions } from '../common/state/link_part.ts';
import type { Handlers } from '../common/worker/handler.ts';
import type { Policies } from '../common/worker/policies.ts';
import type { EngineOf, LabId } from './index.ts';
import type { LinkStateOf } from './links.ts';
import type { LinkedLab } from './link_words.ts';

/** A lab's part of the protocol (its lab_protocol.ts): a cancel policy for each of its kinds. */
export interface LabProtocolPart<L extends LabId> {
  readonly POLICIES: Policies<LabRequests[L]>;
}

/** Lab L's handlers: one for each of its kinds, each given only L's engine. */
export type LabHandlers<L extends LabId> = Handlers<LabRequests[L], EngineOf<L>>;

/** A lab's part of the worker table (its lab_handlers.ts). */
export interface LabHandlersPart<L extends LabId> {
  readonly HANDLERS: LabHandlers<L>;
}

export interface LabView {
  /** The tab's panel. */
  view: ComponentType;
  /** The probe settings sidebar (concept, observations, queries, hyperparameters) shows beside it. */
  probeSettings: boolean;
  /** "Export results (CSV)" (the probe's scores of every query) is offered while it shows. */
  resultsExport: boolean;
}

/** A lab's view, and for a lab that carries state in links (labs/link_words.ts) its link in the page. */
export type LabViewOf<L extends LabId> = LabView & (L extends LinkedLab ? { link: LinkActions<LinkStateOf<L>> } : {});

/** A lab's part of the page table (its lab_view.ts). */
export interface LabViewPart<L extends LabId> {
  readonly VIEW: LabViewOf<L>;
}

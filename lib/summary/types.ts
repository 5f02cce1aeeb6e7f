/** What `summary` reads and what it builds: one row per machine and voice (and per workload kept apart). */
import type { CapacityView } from '../capacity/archive/view.js';

/** A figure with its 95% interval (null where none can be had), and how the runs were combined into it. */
export interface Combined {
  centre: number;
  interval: [number, number] | null;
  /**
   * `one run`: that run's interval between its rounds (this run's, not a rerun's). `runs as draws`:
   * each run's geometric mean one draw, a t interval over the draws. `no rounds`: one archive from
   * before rounds. (`pooled rounds`, the rule before 2026-12-02, is no longer made.)
   */
  method: 'one run' | 'pooled rounds' | 'runs as draws' | 'no rounds';
  perRun: number[];
  /** Two runs' own intervals do not overlap (said in the notes; it changes nothing). */
  disagree: boolean;
  /** 95% prediction interval of one more run's figure, from two runs or more; null from one. */
  rerun: [number, number] | null;
  /** The spread between runs beyond the spread inside them, as a percentage (one sd); null if unknown. */
  betweenPct: number | null;
}

/** One arm of a throughput archive, as summary needs it (any schema version). */
export interface SummaryArm {
  voice: string;
  voiceSha256: string | null;
  synthetic: boolean;
  engine: string;
  k: number;
  threads: number;
  isolation: 'process' | 'thread';
  pinned: boolean;
  held: boolean;
  /** Round figures (index = round - 1), null where the arm did not run; empty before rounds. */
  rounds: Array<number | null>;
  /** The arm's aggregate where there are no rounds. */
  point: number | null;
  /** Highest peak RSS of one of its streams (processes only: a thread's figure is its whole process). */
  streamRssBytes: number | null;
}

interface InputBase {
  file: string;
  fingerprint: string;
  cores: number;
  label: string | null;
  dateUtc: string | null;
  toolVersion: string | null;
  onnxruntimeVersion: string | null;
}

export interface ThroughputInput extends InputBase {
  kind: 'throughput';
  textSha256: string | null;
  arms: SummaryArm[];
}

export interface CapacityInput extends InputBase {
  kind: 'capacity';
  view: CapacityView;
}

export type SummaryInput = ThroughputInput | CapacityInput;

/** A layout against the best one at the same K: best over it, paired by round within each run. */
export interface Against {
  layout: string;
  ratio: Combined | null;
}

/**
 * The best layout at one K (the highest centre), the layouts it could not be told from (their
 * ratio's interval holds 1), and its lead over the first layout it is resolved above.
 */
export interface BestAtK {
  k: number;
  best: string;
  tiedWith: Against[];
  /** null: resolved above no other layout. */
  over: Against | null;
  resolved: boolean;
  /** The best layout's own speech per second (x real time), combined. */
  aggregate: Combined;
}

export interface CapacityFigure {
  k: number;
  range: { min: number; max: number };
  perRun: number[];
  /** From the run with the least answer: listener-sessions heard there and the 95% bound on the gap rate. */
  sessions: number | null;
  gapRateMax: number | null;
  /** The evidence at that answer in words, as its schema counted it (null for the bounded answer). */
  evidence: string | null;
  firstAudioP95Ms: number | null;
}

export interface CapacityLayout {
  layout: string;
  /**
   * Schema 3: the live speed S over the runs (each run's S one draw), the spread between runs beyond
   * the one inside them (random effects), the 95% prediction of a rerun's S; null without S.
   */
  liveSpeed: { perRun: number[]; betweenPct: number | null; rerun: [number, number] | null } | null;
  /** With three runs or more: the listeners a rerun's S keeps at x1 each with 95% (the prediction's low end), never above what a run answered. */
  planningK: number | null;
  noGap: CapacityFigure | null;
  inBound: CapacityFigure;
  /** Runs whose answers for this layout rested on failed controls: left out. */
  runsLeftOut: number;
}

export interface Cost {
  pricePerHour: number;
  perStreamHour: { centre: number; range: [number, number] } | null;
  perSpeechHour: { centre: number; interval: [number, number] | null } | null;
}

export interface SummaryRow {
  machine: string;
  label: string;
  /** Where the label comes from: --label at run time, or the fingerprint. */
  labelFrom: 'archive' | 'fingerprint';
  cores: number;
  voice: string;
  synthetic: boolean;
  throughputRuns: string[];
  capacityRuns: string[];
  dates: [string, string] | null;
  singleStream: Combined | null;
  bestPerK: BestAtK[];
  capacity: CapacityLayout[];
  /** The layout with the most live streams with no gap (ties: most within the bound). */
  bestCapacity: CapacityLayout | null;
  streamRssBytes: number | null;
  cost: Cost | null;
  /** Why this row is apart from the machine and voice's first row, and any caveat. */
  notes: string[];
}

export interface Summary {
  rows: SummaryRow[];
  /** One line per file that could not be read: the rest is summarized. */
  problems: string[];
  files: number;
}

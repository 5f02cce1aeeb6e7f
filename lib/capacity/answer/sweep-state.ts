/** One layout's sweep of one voice, as the answer reads it: its search, its memory cap, why it stopped. */
import type { Layout } from '../trial/layouts.js';
import type { CapacitySearch, Step } from './search.js';

export interface Sweep {
  voice: string;
  layout: Layout;
  name: string;
  search: CapacitySearch;
  /** The most listeners memory allows for this layout (null: unknown, not bounded). */
  memoryCap: number | null;
  /** The sweep's ceiling before memory: --max-streams, or (not given) half again above the calibrated speed. */
  ceiling: { streams: number; asked: boolean };
  /** Why a trial broke (a worker died, a timeout), ending this layout's sweep. */
  error?: string;
  /** Why its edges still lack trials at the end: no room left in --max-minutes, or the rounds ran out. */
  short?: string;
  /** Why it stopped before its quota: its live speed cannot be the voice's best (set between rounds). */
  dropped?: string;
  /** K values given up on: every try had a failed control. */
  givenUp: Array<{ k: number; purpose: Step['purpose']; why: string }>;
}

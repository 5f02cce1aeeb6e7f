/** What calibration found for one voice, as the partial file keeps it for a resumed run. */
export interface Calibration {
  audioSeconds: number[];
  computeSeconds: number[];
  /** Audio seconds per compute second, alone, one thread. */
  speed: number;
  /** The first sentence alone, ms, by thread count. */
  firstSentenceMs: Record<string, number>;
  /** Wall seconds one worker took to load and warm up. */
  loadSeconds: number;
  workerRssBytes: number | null;
  /** How many such workers MemAvailable holds (90% of it); null when either figure is unknown. */
  memoryWorkers: number | null;
}

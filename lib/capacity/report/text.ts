/** The capacity reports' explanatory prose, kept apart from the code that lays them out. */
export const CAVEAT =
  "A listener's first sentence plays when it is ready; each next one when the previous has ended " +
  'or when it is ready, whichever is later; a gap is the wait between (1 ms or more). Every trial ' +
  "of a layout in one round runs on that round's fresh workers, so the round is the independent " +
  'unit: S and its interval rest on one value a round, an answer on 3 rounds. A whole trial runs ' +
  'to its planned end, gaps and all; a first-audio trial stops once every listener has its first audio. A K holds only if every counted ' +
  'trial of it held and no smaller K failed; a trial whose control failed is not counted and is ' +
  'run again. The gap rate and the share over the bound are one-sided 95% upper bounds (Clopper-Pearson) ' +
  'from the counts; a percentile is called p95 only where the sample can bound it.';

/** The verdict: what a run's figures let it say, used by the run's archive and by every report. */
export { buildVerdict, MIN_ROUNDS_TO_DECIDE, type Verdict, type VerdictOptions } from './build.js';
export {
  answered,
  DEFAULT_MARGIN_PCT,
  pairPhrase,
  ratioInterval,
  roundRatios,
  scorePair,
  withinMargin,
  type Pair,
} from './pair.js';
export { armCentre, armVoiceLabel, layoutLabel, signedPercent } from './labels.js';
export { usableCores } from './scaling.js';

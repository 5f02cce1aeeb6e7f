/** piper-parallel's public API. */
export {
  runArms,
  defaultVoices,
  type RunArmsOptions,
  type RunResult,
  type Progress,
} from './throughput/run/run-arms.js';
export {
  expandConditions,
  DEFAULT_CONDITIONS,
  type AffinityChoice,
  type EngineChoice,
  type Scope,
} from './throughput/arm/conditions.js';
export {
  ArchiveSchema,
  ArmSchema,
  SCHEMA_VERSION,
  archiveJsonSchema,
  type Archive,
  type ArmRecord,
  type Condition,
} from './throughput/schema.js';
export { PiperParallelError, type ErrorCode } from './core/errors.js';
export { affinityControl, cpuMaxControl, cpuSumControl, skewControl, type Control } from './measure/controls.js';
export { summarize, median, logMeanInterval, MIN_ROUNDS_TO_DECIDE } from './measure/stats.js';
export { renderTable, armLine } from './throughput/report/table.js';
export { VoiceConfigSchema, parseVoiceConfig, type VoiceConfig } from './voice/format/config.js';
export { resolveVoice, readVoice, installedVoiceNames, type VoiceInfo } from './voice/load.js';
export { Synthesizer, type SynthesisResult, type SynthesizerOptions } from './voice/synthesizer.js';
export { prepareText, type PreparedText } from './voice/text.js';
export { phonemizeLine, phonemesToIds } from './voice/phonemize.js';
export { buildSyntheticVoice, ensureSyntheticVoice, SYNTHETIC_VOICES } from './voice/synthetic/build.js';
export { fetchVoices } from './voice/fetch.js';
export { encodeWav, parseWavHeader } from './voice/format/wav.js';
export {
  compareArchives,
  comparisonMarkdown,
  type Comparison,
  type MetricRow,
  type MetricVerdict,
} from './throughput/compare/compare.js';
export { readComparable, type ComparableRun } from './throughput/compare/read.js';
export { buildVerdict } from './throughput/verdict/index.js';
export { ProcessAdapter, ThreadAdapter } from './throughput/worker/adapters.js';
export { outsideLoadControl } from './measure/controls.js';
export { renderMarkdown } from './throughput/report/markdown.js';
export { renderHtml } from './throughput/report/html.js';
export { archiveCharts, type ChartSpec } from './throughput/report/charts.js';
export { renderSvg } from './report/svg.js';
export { writeReports, type ReportFiles } from './throughput/report/write.js';
export { ProgressReporter, formatDuration } from './throughput/report/progress.js';
export { readArchive } from './throughput/read.js';
export { PIPER_SESSION_OPTIONS } from './voice/synthesizer.js';
export { sherpaReadyVoice, checkSherpaVoice, type SherpaVoice } from './voice/sherpa/prepare.js';
export { probeSherpaVoice } from './voice/sherpa/probe.js';
export {
  runCapacity,
  type CapacityOptions,
  type CapacityProgress,
  type CapacityResult,
} from './capacity/run/run-capacity.js';
export {
  CapacityArchiveSchema,
  CAPACITY_SCHEMA_VERSION,
  type CapacityArchive,
  type CapacityEntry,
  type TrialRecord,
} from './capacity/archive/schema.js';
export { defaultLayouts, layoutName, type Layout } from './capacity/trial/layouts.js';
export { playback, type StreamPlayback } from './capacity/trial/playback.js';
export { compareCapacity, capacityComparisonMarkdown, type CapacityComparison } from './capacity/answer/compare.js';
export { capacityView, type CapacityView, type CapacityAnswerView } from './capacity/archive/view.js';
export { rateUpperBound, quantileUpperBound, binomialCdf } from './capacity/answer/evidence.js';
export { memoryControl } from './measure/controls.js';
export { summarizeMachines, type SummaryOptions } from './summary/summarize.js';
export { summaryMarkdown } from './summary/render/markdown.js';
export { summaryHtml } from './summary/render/html.js';
export type { Summary, SummaryRow } from './summary/types.js';

/** piper-parallel's public API. */
export { runArms, defaultVoices, type RunArmsOptions, type RunResult, type Progress } from './run/run-arms.js';
export { expandConditions, DEFAULT_CONDITIONS, type AffinityChoice } from './run/conditions.js';
export { ArchiveSchema, ArmSchema, SCHEMA_VERSION, archiveJsonSchema, type Archive, type ArmRecord, type Condition } from './archive/schema.js';
export { PiperParallelError, type ErrorCode } from './errors.js';
export { affinityControl, cpuMaxControl, cpuSumControl, skewControl, type Control } from './measure/controls.js';
export { summarize, median } from './measure/stats.js';
export { renderTable, armLine } from './report/table.js';
export { VoiceConfigSchema, parseVoiceConfig, type VoiceConfig } from './voice/config.js';
export { resolveVoice, readVoice, installedVoiceNames, type VoiceInfo } from './voice/load.js';
export { Synthesizer, type SynthesisResult, type SynthesizerOptions } from './voice/synthesizer.js';
export { prepareText, type PreparedText } from './voice/text.js';
export { phonemizeLine, phonemesToIds } from './voice/phonemize.js';
export { buildSyntheticVoice, ensureSyntheticVoice, SYNTHETIC_VOICES } from './voice/synthetic/build.js';
export { fetchVoices } from './voice/fetch.js';
export { encodeWav, parseWavHeader } from './voice/wav.js';

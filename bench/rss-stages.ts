/**
 * Where a stream's resident memory goes, stage by stage, in a process of its own laid out as a
 * stream is (phonemize in a thread that ends, then the session, then the sentences). The peak of
 * each sentence is read after resetting the high-water mark (/proc/self/clear_refs, value 5), so one
 * process gives every sentence's own peak. Prints one JSON line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { DEFAULT_SENTENCES } from '../lib/voice/default-text.js';
import { resolveVoice } from '../lib/voice/load.js';
import { prepareTextApart } from '../lib/voice/prepare-apart.js';
import { Synthesizer } from '../lib/voice/synthesizer.js';

const MiB = 2 ** 20;
function status(): { rssMiB: number; hwmMiB: number } {
  const s = readFileSync('/proc/self/status', 'utf8');
  const kb = (key: string): number => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(s)?.[1] ?? Number.NaN);
  return { rssMiB: (kb('VmRSS') * 1024) / MiB, hwmMiB: (kb('VmHWM') * 1024) / MiB };
}
function resetPeak(): void {
  writeFileSync('/proc/self/clear_refs', '5');
}

const [voiceName = 'synthetic-siwis-medium', voicesDir = 'voices'] = process.argv.slice(2);
const voice = await resolveVoice(voiceName, voicesDir);
const runtime = status();
const prepared = await prepareTextApart(DEFAULT_SENTENCES, voice.config);
const afterPhonemizer = status();
resetPeak();
const synth = await Synthesizer.create(voice, { threads: 1 });
const session = status();
const feeds = synth.feedsFor(prepared);
const sentences: Array<{ audioSeconds: number; peakMiB: number }> = [];
for (let round = 0; round < 2; round += 1) {
  for (const f of feeds) {
    resetPeak();
    const r = await synth.synthesize([f]);
    if (round === 1) sentences.push({ audioSeconds: r.audioSeconds, peakMiB: status().hwmMiB });
  }
}
process.stdout.write(
  `${JSON.stringify({
    voice: voiceName,
    modelMiB: voice.sizeBytes / MiB,
    runtimeMiB: runtime.rssMiB,
    phonemizerPeakMiB: afterPhonemizer.hwmMiB,
    afterPhonemizerMiB: afterPhonemizer.rssMiB,
    sessionPeakMiB: session.hwmMiB,
    sessionMiB: session.rssMiB,
    sentences,
  })}\n`,
);

/**
 * `--dry-run` on the two experiments: every option checked as the run would check it, then the plan
 * printed (voices, what is measured, rounds) with how long it may take. Nothing is measured or
 * written: no folder made, no voice built, no server asked.
 */
import { PiperParallelError } from '../../core/errors.js';
import type { VoiceWhereabouts } from '../../voice/places.js';
import { sessionLine } from '../../voice/session-profile.js';
import { askedRun } from '../../throughput/run/plan.js';
import type { RunArmsOptions } from '../../throughput/run/options.js';
import { conditionLabel } from '../../throughput/arm/conditions.js';
import { askedCapacity } from '../../capacity/setup/plan.js';
import type { CapacityOptions } from '../../capacity/setup/options.js';
import { defaultLayouts, layoutName } from '../../capacity/trial/layouts.js';
import { allowedCores } from '../../measure/clock.js';
import type { Io } from '../io/io.js';

const HEAD = 'dry run: every option checked; nothing measured, nothing written (leave out --dry-run to run it)';

function voiceWords(v: VoiceWhereabouts, standsInFor?: string): string {
  const what = v.synthetic ? `SYNTHETIC stand-in${standsInFor ? ` for ${standsInFor}` : ''}` : 'real Piper voice';
  const where = v.present ? `in ${v.dir}` : `built on first use into ${v.dir}`;
  return `${v.name} (${what}, ${where})`;
}

/** A resume carries on what was planned: there is nothing new to plan. */
function noResume(resume: string | undefined): void {
  if (resume !== undefined)
    throw new PiperParallelError(
      'USAGE',
      '--dry-run plans a new run; a resume carries on the interrupted one as planned: leave out --dry-run or --resume',
    );
}

const sentences = (n: number): string => `${n} sentence${n === 1 ? '' : 's'}`;

/** The throughput run's plan; returns the exit code. */
export async function runDryRun(options: RunArmsOptions, io: Io): Promise<number> {
  noResume(options.resume);
  const a = await askedRun(options);
  const c = a.counts;
  const voices = a.voices.map((v) => voiceWords(v, a.standsInFor.get(v.name)));
  const per = a.conditions.map(conditionLabel);
  const rounds = c.looks
    ? `looks at its questions after rounds ${c.looks.join(', ')} and stops at the first look that answers them`
    : `${c.rounds} rounds, fixed (--rounds): ${c.passes} timed passes per arm`;
  const bound =
    c.maxMinutes === null
      ? 'no time bound: as long as this machine takes for every round (--max-minutes M bounds it)'
      : `by ${c.maxMinutes} minutes from its start, settling included: no round is begun that the budget cannot hold (--max-minutes)`;
  for (const line of [
    HEAD,
    `voices: ${voices.join('; ')}`,
    sessionLine(a.session),
    `text: ${a.text.source}, ${sentences(a.text.lines.length)}`,
    `arms: ${per.length} per voice, ${per.length * a.voices.length} in all: ${per.join('; ')}`,
    `rounds: ${rounds}; each round runs every arm once on fresh workers, ${c.warmup} warm-up pass(es) before its timed one`,
    `duration: waits up to ${c.settleSeconds} s for the machine to settle, then measures; it ends ${bound}`,
    `seed: ${c.seed}${options.seed === undefined ? ' (drawn now; a real run draws its own unless --seed is given)' : ''}`,
    `writes: the archive and its reports in ${a.outDir}`,
  ])
    io.out(line);
  return 0;
}

/** The capacity run's plan; returns the exit code. */
export async function capacityDryRun(options: CapacityOptions, io: Io): Promise<number> {
  noResume(options.resume);
  const a = await askedCapacity(options);
  const layouts = (options.layouts ?? defaultLayouts(allowedCores().length)).map(layoutName);
  const ceiling =
    options.maxStreams === undefined
      ? `from each voice's calibration (at most ${a.maxStreams})`
      : `${a.maxStreams} (--max-streams)`;
  const lines = [
    HEAD,
    ...(a.voices.length > 0
      ? [`voices: ${a.voices.map((v) => voiceWords(v)).join('; ')}`, sessionLine(a.session)]
      : []),
    ...(options.server === undefined
      ? []
      : [`server: ${options.server}, a connection per listener (not contacted in a dry run)`]),
    `reply: ${a.text.source}, ${sentences(a.text.lines.length)}`,
    ...(a.voices.length > 0 ? [`layouts: ${layouts.join('; ')}`] : []),
    `rounds: ${a.rounds}, each layout's edge K and the next on fresh workers (an answer is published on 3 rounds)`,
    `listeners: arrive ${a.arrivals}; first audio within ${a.firstAudioMs} ms; replayed at pre-buffers ${a.prebuffersMs.join(', ')} ms; ceiling ${ceiling}`,
    `duration: waits up to ${a.settleSeconds} s for the machine to settle, calibrates each voice, then sweeps; it ends by ` +
      `about ${a.maxMinutes} minutes from its start, settling and calibration included: a round's turn the budget ` +
      'cannot hold is left out, said (--max-minutes)',
    `writes: the archive and its reports in ${a.outDir}`,
  ];
  for (const line of lines) io.out(line);
  return 0;
}

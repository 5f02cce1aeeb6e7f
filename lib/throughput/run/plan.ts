/** Step 1 of a run: options and any resumed partial file become one protocol, checked before anything runs. */
import { randomInt } from 'node:crypto';
import path from 'node:path';
import { conditionKey } from '../arm/arm-key.js';
import type { Archive, Condition, MachineBlock } from '../schema.js';
import { archiveBaseName, checkWritable } from '../../archive/writer.js';
import { PiperParallelError } from '../../core/errors.js';
import { allowedCores } from '../../measure/clock.js';
import { readMemAvailable } from '../../measure/memory.js';
import { checkRunSize } from '../arm/size-check.js';
import { machineBlock, machineFingerprint } from '../../measure/machine.js';
import type { VoiceInfo } from '../../voice/load.js';
import { locateVoice, voicePlaces, whereIsVoice, type VoicePlaces, type VoiceWhereabouts } from '../../voice/places.js';
import { defaultVoices } from '../../voice/defaults.js';
import { DEFAULT_MARGIN_PCT } from '../verdict/index.js';
import { loadOnnxruntime } from '../../voice/onnxruntime.js';
import { chooseSession, SESSION_SETTINGS, type SessionProfile } from '../../voice/session-profile.js';
import { prepareText, type PreparedText } from '../../voice/text.js';
import { engineOf, expandConditions, scopeOf, SHERPA_THREAD_REFUSAL } from '../arm/conditions.js';
import { planEngines, type EnginePlan } from '../arm/engines.js';
import type { RunArmsOptions } from './options.js';
import { checkLabel } from '../../measure/label.js';
import { readPartial, resumeDifferences, type PartialHeader, type PartialRun } from './resume.js';
import { PartialLog } from '../../archive/partial.js';
import { fingerprint, loadText, type TextSource } from '../../voice/text-source.js';
import { lookRounds, questionLevel, ALPHA_PER_VOICE } from '../sequential/design.js';
import { presetQuestions } from '../sequential/rule.js';
import { conditionShape } from '../sequential/shapes.js';

export interface ArmPlan {
  key: string;
  voice: VoiceInfo;
  condition: Condition;
}

export interface Plan {
  passes: number;
  warmup: number;
  rounds: number;
  seed: number;
  precisionPct: number | null;
  maxMinutes: number | null;
  /** A sequential run's looks (rounds after which it judges its questions); null for a fixed run. */
  looks: number[] | null;
  /** Within ±this % two layouts are called equivalent. */
  marginPct: number;
  settleSeconds: number;
  outDir: string;
  text: TextSource;
  /** The text's phoneme ids per voice name, made once here and sent to every stream. */
  prepared: Map<string, PreparedText>;
  /** sherpa-ready voices and what each engine is, for the archive. */
  engines: EnginePlan;
  voices: Array<VoiceInfo & { standsInFor?: string; from: string }>;
  conditions: Condition[];
  /** Every arm, voice by voice, condition by condition: the order of the archive. */
  arms: ArmPlan[];
  cores: number[];
  machine: MachineBlock;
  protocole: Archive['protocole'];
  header: PartialHeader;
  resumed: PartialRun | undefined;
  /** A resumed run's partial file, locked while it was read (undefined: a new run). */
  partialLog?: PartialLog | undefined;
  date: Date;
}

function checkCount(value: number | undefined, option: string, min: number): void {
  if (value !== undefined && (!Number.isInteger(value) || value < min)) {
    throw new PiperParallelError('USAGE', `${option} must be a whole number >= ${min}, got ${value}`);
  }
}

/** Sequential where nothing fixes the rounds and the arms set a question (a resumed run keeps its kind). */
function isSequential(
  options: RunArmsOptions,
  h: PartialHeader | undefined,
  conditions: readonly Condition[],
): boolean {
  if (h) return h.sequential === true;
  return options.rounds === undefined && presetQuestions(conditions, (c) => conditionShape(c)).length > 0;
}

/** The counts of the protocol: what was asked, else what the resumed run had, else the defaults. */
function counts(options: RunArmsOptions, h: PartialHeader | undefined, sequential: boolean) {
  const passes = options.passes ?? h?.passes ?? 6;
  const warmup = options.warmup ?? h?.warmup ?? DEFAULT_WARMUP_PASSES;
  checkCount(passes, 'passes', 1);
  checkCount(warmup, '--warmup', 0);
  checkCount(options.rounds, '--rounds', 1);
  if (options.precision !== undefined)
    throw new PiperParallelError(
      'USAGE',
      '--precision was retired: a run without --rounds now stops when its questions are answered; ' +
        'bound it with --max-minutes M, or fix its cost with --rounds R',
    );
  const looks = sequential ? lookRounds(passes) : null;
  // One pass per arm per round: the more rounds, the more the interval's degrees of freedom.
  const rounds = looks ? (looks.at(-1) ?? passes) : (options.rounds ?? h?.rounds ?? passes);
  if (!looks && rounds > passes)
    throw new PiperParallelError(
      'USAGE',
      `--rounds ${rounds} is more than the ${passes} passes to split between them; give at most ${passes} rounds, or more passes`,
    );
  // Drawn at random by default, so reruns do not repeat the same orders; archived and printed.
  const seed = options.seed ?? h?.seed ?? randomInt(1, 2 ** 31 - 1);
  checkCount(seed, '--seed', 0);
  const precisionPct = null;
  const maxMinutes = options.maxMinutes ?? h?.maxMinutes ?? (looks ? DEFAULT_BUDGET_MINUTES : null);
  if (maxMinutes !== null && !(Number.isFinite(maxMinutes) && maxMinutes > 0))
    throw new PiperParallelError(
      'USAGE',
      `--max-minutes must be a number of minutes above 0, got ${maxMinutes}; e.g. --max-minutes 20`,
    );
  const marginPct = options.margin ?? h?.marginPct ?? DEFAULT_MARGIN_PCT;
  if (!(Number.isFinite(marginPct) && marginPct > 0 && marginPct < 50))
    throw new PiperParallelError(
      'USAGE',
      `--margin must be a percentage between 0 and 50, got ${marginPct}; e.g. --margin 6`,
    );
  const settleSeconds = options.settleSeconds ?? 30;
  checkCount(settleSeconds, '--settle', 0);
  return { passes, warmup, rounds, seed, precisionPct, maxMinutes, marginPct, settleSeconds, looks };
}

/** A sequential run's budget, settling included, unless --max-minutes says otherwise. */
export const DEFAULT_BUDGET_MINUTES = 10;
/**
 * Untimed passes of every sentence (the longest first) each time an arm's streams start. Under
 * piper-tts's settings a fresh session reached its settled speed on its first timed pass only after
 * every sentence twice (docs/contributing/method-notes.md, 2026-12-07).
 */
export const DEFAULT_WARMUP_PASSES = 2;

/** The archive's account of the sequential rule: the looks, the level each uses, the chance spent by each. */
function sequentialBlock(
  c: ReturnType<typeof counts>,
  conditions: readonly Condition[],
): Archive['protocole']['sequentiel'] {
  if (!c.looks) return undefined;
  const questions = presetQuestions(conditions, (x) => conditionShape(x)).length;
  const level = questionLevel(c.looks, questions);
  return {
    nombre: c.passes,
    regards_manches: c.looks,
    questions_par_voix: questions,
    alpha_par_voix: ALPHA_PER_VOICE,
    confiance_par_regard: level.confidence,
    alpha_depense_cumule: level.spentAlpha.map((a) => a * questions),
    budget_minutes: c.maxMinutes,
    regle:
      'repeated confidence intervals at one level for every look (calibrated by seeded simulation so that a ' +
      "question's intervals at all looks hold together at 5% / its voice's questions); a question closes " +
      'when its interval excludes 1 or lies within the margin, or when even the last look could not settle ' +
      'it at the spread seen; arms no open question needs stop; the run stops when none is open, at the ' +
      'last look, or when the next look would pass the budget',
  };
}

/** The voices, resolved (built if synthetic and missing); a resumed run refuses a voice that changed. */
async function planVoices(asked: AskedRun, h: PartialHeader | undefined): Promise<Plan['voices']> {
  const voices: Plan['voices'] = [];
  for (const { name } of asked.voices) {
    const standsInFor = asked.standsInFor.get(name);
    voices.push({ ...(await locateVoice(name, asked.places)), ...(standsInFor ? { standsInFor } : {}) });
  }
  for (const v of h?.voices ?? []) {
    const now = voices.find((x) => x.name === v.name);
    if (now && now.sha256 !== v.sha256)
      throw new PiperParallelError(
        'USAGE',
        `--resume: voice ${v.name} changed since the interrupted run (sha256 ${v.sha256.slice(0, 12)} then, ${now.sha256.slice(0, 12)} now); start a new run`,
      );
  }
  return voices;
}

/**
 * The text phonemized once per voice, here, for every stream of every round; a line that
 * phonemizes to nothing is refused before any stream starts.
 */
async function phonemizeText(
  lines: readonly string[],
  voices: readonly VoiceInfo[],
): Promise<Map<string, PreparedText>> {
  const out = new Map<string, PreparedText>();
  for (const v of voices) {
    const prepared = await prepareText(lines, v.config);
    const empty = lines.findIndex((line) => !prepared.sentences.some((s) => s.text === line.trim()));
    if (empty >= 0) {
      throw new PiperParallelError(
        'TEXT',
        `line ${empty + 1} of the text ("${lines[empty]?.slice(0, 40)}") phonemizes to nothing for ${v.name}; remove it or write it out in words`,
      );
    }
    out.set(v.name, prepared);
  }
  return out;
}

function protocol(
  c: ReturnType<typeof counts>,
  text: TextSource,
  voices: Plan['voices'],
  conditions: Condition[],
  command: string,
): Archive['protocole'] {
  return {
    source_du_texte: text.source,
    texte: { sha256: text.sha256, caracteres: text.characters, phrases: text.lines.length },
    passes_par_bras: c.passes,
    passes_echauffement: c.warmup,
    conditions,
    dimensions: { voix: voices.map((v) => v.name), conditions: conditions.length },
    synchronisation:
      'process: the parent waits for every stream to report ready, then sends one start instant on ' +
      'the system monotonic clock a few ms ahead; each stream sleeps then spins until it. thread: ' +
      'the streams meet on a SharedArrayBuffer barrier (Atomics)',
    pourquoi_barriere:
      'without a common start, a stream that finishes early measures a free machine, and the figure is wrong in the flattering direction',
    controle: [
      'cpu_max: every stream max CPU% < 110 x T',
      'cpu_sum: for K >= 2, sum of median CPU% > 75 x min(sum over streams of min(T, cores the stream may use), cores)',
      'affinity: pinned, one core each on min(K, cores) distinct cores; free, every stream sees every core (in every round)',
      'start_skew: for K >= 2, largest start skew <= 2% of the median pass compute time',
      'overlap: for K >= 2, in every timed pass all K streams computed together for >= 75% of its ' +
        'span (latest start to earliest end, over first start to last end)',
      "outside_load: other programs used at most 10% of one core during the arm's timed passes, on the cores the run may use",
      "memory: no page swapped during the arm (/proc/vmstat pswpin + pswpout) and at most 64 major page faults in the streams' timed passes",
    ],
    commande: command,
    manches_prevues: c.rounds,
    ...(c.looks ? { sequentiel: sequentialBlock(c, conditions) } : {}),
    graine: c.seed,
    precision_pct: c.precisionPct,
    minutes_max: c.maxMinutes,
    marge_equivalence_pct: c.marginPct,
  };
}

/** Explicit conditions obey the same rules as chosen ones: sherpa-onnx only as processes, only at scope text. */
function checkEngines(conditions: readonly Condition[]): void {
  for (const c of conditions) {
    if (engineOf(c) !== 'sherpa') continue;
    if (scopeOf(c) !== 'text')
      throw new PiperParallelError(
        'USAGE',
        "a condition runs sherpa-onnx at scope model: it phonemizes inside its own call; give it portee: 'text'",
      );
    if (c.isolation === 'thread')
      throw new PiperParallelError(
        'USAGE',
        `a condition runs sherpa-onnx in a thread: ${SHERPA_THREAD_REFUSAL}; give it isolation: 'process'`,
      );
  }
}

/**
 * Everything a run needs, checked: bad input throws here, before anything is measured. A resume is checked, then
 * its partial file locked, then read again under the lock (another resume cannot append between the two).
 */
export async function planRun(options: RunArmsOptions): Promise<Plan> {
  const checked = options.resume ? await readPartial(path.resolve(options.resume)) : undefined;
  const log = checked ? await PartialLog.reopen(checked.file, []) : undefined;
  try {
    const resumed = log ? await readPartial(log.file) : undefined;
    return { ...(await planChecked(options, resumed)), partialLog: log };
  } catch (err) {
    log?.unlock();
    throw err;
  }
}

function sizeCheck(options: RunArmsOptions, conditions: readonly Condition[], modelBytes: readonly number[]): void {
  checkRunSize({
    conditions,
    modelBytes: Math.max(0, ...modelBytes),
    cores: allowedCores().length,
    memAvailableBytes: (options.memAvailableBytes ?? readMemAvailable)(),
    force: options.force === true,
  });
}

/** What a run asks, checked without a side effect: nothing made on disk, no voice built (the dry run stops here). */
export interface AskedRun {
  label: string | null;
  outDir: string;
  places: VoicePlaces;
  conditions: Condition[];
  counts: ReturnType<typeof counts>;
  text: TextSource;
  session: SessionProfile;
  /** Every voice, found (a missing one refused) but not built. */
  voices: VoiceWhereabouts[];
  /** Each voice's real counterpart, for a stand-in chosen by default or kept by a resume. */
  standsInFor: Map<string, string>;
}

export async function askedRun(options: RunArmsOptions, resumed?: PartialRun): Promise<AskedRun> {
  const label = checkLabel(options.label);
  const h = resumed?.header;
  // A resumed run's archives live beside its .partial folder unless told otherwise.
  const outDir = path.resolve(options.outDir ?? (resumed ? path.dirname(path.dirname(resumed.file)) : 'measurements'));
  const places = voicePlaces(options.voicesDir);
  const choice = {
    streams: options.streams,
    threads: options.threads,
    affinity: options.affinity,
    isolation: options.isolation,
    engine: options.engine,
    scope: options.scope,
  };
  const conditionsAsked =
    options.conditions ?? (Object.values(choice).some((v) => v !== undefined) ? expandConditions(choice) : undefined);
  if (options.conditions) checkEngines(options.conditions);
  const conditions = conditionsAsked ?? h?.conditions ?? expandConditions({});
  const c = counts(options, h, isSequential(options, h, conditions));
  const text =
    h && !options.textFile && !options.lines
      ? { source: h.text.source, lines: h.text.lines, ...fingerprint(h.text.lines) }
      : await loadText(options.textFile, options.lines);
  if (h) {
    const differs = resumeDifferences(h, {
      passes: options.passes,
      warmup: options.warmup,
      rounds: options.rounds,
      seed: options.seed,
      conditions: conditionsAsked,
      voices: options.voices,
      textSha256: options.textFile || options.lines ? text.sha256 : undefined,
    });
    if (differs.length > 0)
      throw new PiperParallelError(
        'USAGE',
        `--resume ${resumed?.file}: this command differs from the interrupted run (${differs.join('; ')}); ` +
          `resume with the same options, or with --resume alone`,
      );
  }
  const session = chooseSession({
    asked: options.session,
    resumed: h ? (h.session ?? 'libpiper') : undefined,
    sherpa: conditions.some((x) => engineOf(x) === 'sherpa'),
  });
  const chosen = h
    ? h.voices.map((v) => ({ name: v.name, standsInFor: v.standsInFor }))
    : options.voices
      ? options.voices.map((name) => ({ name, standsInFor: undefined as string | undefined }))
      : await defaultVoices(places);
  const voices: VoiceWhereabouts[] = [];
  for (const v of chosen) voices.push(await whereIsVoice(v.name, places));
  const standsInFor = new Map(chosen.flatMap((v) => (v.standsInFor ? [[v.name, v.standsInFor] as const] : [])));
  // Refused here when it can be (threads, voices already there), before a folder is made or a voice built; checked
  // again once every voice is built.
  sizeCheck(
    options,
    conditions,
    voices.map((v) => v.sizeBytes ?? 0),
  );
  return { label, outDir, places, conditions, counts: c, text, session, voices, standsInFor };
}

async function planChecked(options: RunArmsOptions, resumed: PartialRun | undefined): Promise<Plan> {
  const asked = await askedRun(options, resumed);
  const { label, outDir, conditions, counts: c, text, session } = asked;
  const h = resumed?.header;
  await checkWritable(outDir);
  const voices = await planVoices(asked, h);
  sizeCheck(
    options,
    conditions,
    voices.map((v) => v.sizeBytes),
  );
  const prepared = await phonemizeText(text.lines, voices);
  // Every stream will load it: a missing or broken native binding is one line here, before any starts.
  if (conditions.some((c) => engineOf(c) === 'onnxruntime')) await loadOnnxruntime();
  const engines = await planEngines(conditions, voices, text.lines[0] ?? '', session);
  const machine = await machineBlock();
  if (h && h.machine !== machineFingerprint(machine)) {
    throw new PiperParallelError(
      'USAGE',
      `--resume: the interrupted run was on another machine (${h.machine}; this one is ${machineFingerprint(machine)}); start a new run`,
    );
  }
  const date = h ? new Date(h.date_utc) : (options.now ?? (() => new Date()))();
  const protocole = {
    ...protocol(c, text, voices, conditions, h?.command ?? options.command ?? 'runArms()'),
    session_onnxruntime: SESSION_SETTINGS[session].label,
    profil_session: session,
    moteurs: engines.moteurs,
  };
  const header: PartialHeader = {
    base: h?.base ?? archiveBaseName(date),
    date_utc: date.toISOString(),
    machine: machineFingerprint(machine),
    passes: c.passes,
    warmup: c.warmup,
    rounds: c.rounds,
    seed: c.seed,
    precisionPct: c.precisionPct,
    maxMinutes: c.maxMinutes,
    marginPct: c.marginPct,
    sequential: c.looks !== null,
    conditions,
    text: { source: text.source, lines: text.lines, sha256: text.sha256 },
    voices: voices.map((v) => ({
      name: v.name,
      sha256: v.sha256,
      ...(v.standsInFor ? { standsInFor: v.standsInFor } : {}),
    })),
    command: protocole.commande,
    label: h?.label ?? label,
    session,
    redact: h?.redact === true || options.redact === true,
  };
  const arms = voices.flatMap((voice) =>
    conditions.map((condition) => ({ key: conditionKey(voice.name, condition), voice, condition })),
  );
  return {
    ...c,
    outDir,
    text,
    prepared,
    engines,
    voices,
    conditions,
    arms,
    cores: allowedCores(),
    machine,
    protocole,
    header,
    resumed,
    date,
  };
}

export { defaultVoices };

import type { Condition } from '../schema.js';
import { PiperParallelError } from '../../core/errors.js';
import { ENGINE_NAMES } from '../verdict/labels.js';
import { SHERPA_THREAD_REFUSAL } from '../../workers/messages.js';

export type AffinityChoice = 'on' | 'off' | 'both';
export type IsolationChoice = 'process' | 'thread' | 'both';
export type Engine = NonNullable<Condition['moteur']>;
export type EngineChoice = Engine | 'both';
export type Scope = NonNullable<Condition['portee']>;

export const engineOf = (c: Pick<Condition, 'moteur'>): Engine => c.moteur ?? 'onnxruntime';
export const scopeOf = (c: Pick<Condition, 'portee'>): Scope => c.portee ?? 'model';

/** What people call each engine. */
export { ENGINE_NAMES };

/** The original three conditions plus one process with two threads: both halves of the question. */
export const DEFAULT_CONDITIONS: readonly Omit<Condition, 'isolation'>[] = [
  { flux: 1, fils: 1, affinite: false },
  { flux: 2, fils: 1, affinite: false },
  { flux: 2, fils: 1, affinite: true },
  { flux: 1, fils: 2, affinite: false },
];

export interface ConditionChoice {
  streams?: number[];
  threads?: number[];
  affinity?: AffinityChoice;
  isolation?: IsolationChoice;
  engine?: EngineChoice;
  scope?: Scope;
}

/**
 * Engines and the scope they are timed at. sherpa-onnx phonemizes inside its own call, so it is
 * timed text to audio, and so is anything compared with it.
 */
export function engineScopes(
  engine: EngineChoice | undefined,
  scope: Scope | undefined,
  isolation: IsolationChoice | undefined,
): Array<{ moteur: Engine; portee: Scope }> {
  const engines: Engine[] = engine === 'both' ? ['onnxruntime', 'sherpa'] : [engine ?? 'onnxruntime'];
  const sherpa = engines.includes('sherpa');
  if (sherpa && scope === 'model') {
    throw new PiperParallelError(
      'USAGE',
      `--scope model cannot time sherpa-onnx: it phonemizes inside its own call; use --scope text (the default with --engine ${engine})`,
    );
  }
  if (sherpa && (isolation === 'thread' || isolation === 'both')) {
    throw new PiperParallelError(
      'USAGE',
      `--isolation ${isolation} with --engine ${engine}: ${SHERPA_THREAD_REFUSAL}; use --isolation process, or --engine onnxruntime`,
    );
  }
  return engines.map((moteur) => ({ moteur, portee: scope ?? (sherpa ? 'text' : 'model') }));
}

/** The condition's engine fields, left out where they are the defaults so older keys and archives mean the same. */
function withEngine(c: Omit<Condition, 'moteur' | 'portee'>, e: { moteur: Engine; portee: Scope }): Condition {
  return e.moteur === 'onnxruntime' && e.portee === 'model' ? c : { ...c, ...e };
}

function checkCounts(values: number[] | undefined, option: string): void {
  for (const v of values ?? []) {
    if (!Number.isInteger(v) || v < 1)
      throw new PiperParallelError('USAGE', `${option} takes whole numbers >= 1, got ${v}; e.g. ${option} 1,2`);
  }
}

/** The default set, or every combination of what was chosen. */
export function expandConditions(choice: ConditionChoice): Condition[] {
  checkCounts(choice.streams, '--streams');
  checkCounts(choice.threads, '--threads');
  const engines = engineScopes(choice.engine, choice.scope, choice.isolation);
  const isolations: Condition['isolation'][] =
    choice.isolation === 'both' ? ['process', 'thread'] : [choice.isolation ?? 'process'];
  // Engines innermost: the two engines of one layout sit side by side.
  if (choice.streams === undefined && choice.threads === undefined && choice.affinity === undefined) {
    return isolations.flatMap((isolation) =>
      DEFAULT_CONDITIONS.flatMap((c) => engines.map((e) => withEngine({ ...c, isolation }, e))),
    );
  }
  const affinities = choice.affinity === 'both' ? [false, true] : [choice.affinity === 'on'];
  const out: Condition[] = [];
  for (const isolation of isolations) {
    for (const flux of choice.streams ?? [1, 2]) {
      for (const fils of choice.threads ?? [1]) {
        for (const affinite of affinities)
          for (const e of engines) out.push(withEngine({ flux, fils, affinite, isolation }, e));
      }
    }
  }
  return out;
}

/** "sherpa-onnx, text" where a condition is not the default engine and scope; empty otherwise. */
export function engineLabel(c: Pick<Condition, 'moteur' | 'portee'>): string {
  return c.moteur === undefined && c.portee === undefined ? '' : `${ENGINE_NAMES[engineOf(c)]}, ${scopeOf(c)}`;
}

export function conditionLabel(c: Condition): string {
  const engine = engineLabel(c);
  return `K=${c.flux} T=${c.fils} ${c.affinite ? 'pinned' : 'free'}${c.isolation === 'thread' ? ' threads' : ''}${engine ? ` [${engine}]` : ''}`;
}

export { SHERPA_THREAD_REFUSAL };

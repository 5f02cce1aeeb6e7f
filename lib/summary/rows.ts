/**
 * Inputs into rows: one per machine (fingerprint) and voice. Runs merge only with runs of the same
 * workload (text, voice file, tool and onnxruntime versions, and for capacity every setting compare
 * checks); a machine and voice's other workloads get rows of their own that say what differs.
 */
import { capacityFigures } from './capacity.js';
import { machineShortName } from './machine-name.js';
import { throughputFigures, voiceKey } from './throughput.js';
import type { CapacityInput, SummaryInput, SummaryRow, ThroughputInput } from './types.js';
import { maxOf } from '../core/extremes.js';

type Key = Array<[string, string]>;

function throughputKey(r: ThroughputInput, voice: string): Key {
  const sha = r.arms.find((a) => voiceKey(a) === voice)?.voiceSha256 ?? null;
  return [
    ['voice file', sha?.slice(0, 12) ?? 'unknown'],
    ['tool version', r.toolVersion ?? 'unknown'],
    ['onnxruntime', r.onnxruntimeVersion ?? 'unknown'],
    ['text', r.textSha256?.slice(0, 12) ?? 'unknown'],
  ];
}

function capacityKey(r: CapacityInput, voice: string): Key {
  const sha = r.view.voices.find((v) => v.name === voice)?.sha256 ?? null;
  return [
    ['voice file', sha?.slice(0, 12) ?? 'unknown'],
    ['tool version', r.toolVersion ?? 'unknown'],
    ['onnxruntime', r.onnxruntimeVersion ?? 'unknown'],
    ...r.view.workload.map(([n, v]): [string, string] => [`capacity ${n}`, v]),
  ];
}

const keyText = (k: Key): string => k.map(([n, v]) => `${n}=${v}`).join('|');
/** What `here` differs in from `first`, named; only the fields both have. */
const differences = (first: Key, here: Key): string[] =>
  first
    .filter(([n, v]) => here.some(([m, w]) => m === n && w !== v))
    .map(([n, v]) => `${n} ${here.find(([m]) => m === n)?.[1]} here, ${v} there`);

/** Groups of runs with one workload, largest first. */
function groups<T extends SummaryInput>(runs: T[], key: (r: T) => Key): Array<{ key: Key; runs: T[] }> {
  const out = new Map<string, { key: Key; runs: T[] }>();
  for (const r of runs) {
    const k = key(r);
    const g = out.get(keyText(k)) ?? { key: k, runs: [] };
    g.runs.push(r);
    out.set(keyText(k), g);
  }
  return [...out.values()].sort((a, b) => b.runs.length - a.runs.length);
}

interface Machine {
  fingerprint: string;
  label: string;
  labelFrom: 'archive' | 'fingerprint';
  cores: number;
  notes: string[];
}

function machineOf(fingerprint: string, inputs: SummaryInput[]): Machine {
  const labels = [
    ...new Set(
      inputs
        .filter((i) => i.label !== null)
        .sort((a, b) => (b.dateUtc ?? '').localeCompare(a.dateUtc ?? ''))
        .map((i) => i.label as string),
    ),
  ];
  const notes =
    labels.length > 1
      ? [`runs of this machine carry several labels (${labels.join(', ')}): the latest run's is shown`]
      : [];
  return {
    fingerprint,
    label: labels[0] ?? machineShortName(fingerprint),
    labelFrom: labels[0] ? 'archive' : 'fingerprint',
    cores: maxOf(inputs.map((i) => i.cores)),
    notes,
  };
}

function rowOf(m: Machine, voice: string, t: ThroughputInput[], c: CapacityInput[], apart: string[]): SummaryRow {
  const tf = throughputFigures(t, voice);
  const cf = capacityFigures(c, voice);
  const dates = [...t, ...c]
    .map((i) => i.dateUtc?.slice(0, 10))
    .filter((d): d is string => d !== undefined)
    .sort();
  const synthetic =
    t.some((r) => r.arms.some((a) => voiceKey(a) === voice && a.synthetic)) ||
    c.some((r) => r.view.voices.some((v) => v.name === voice && v.synthetic));
  const capacityRss = c
    .flatMap((r) => r.view.voices.filter((v) => v.name === voice).map((v) => v.workerRssBytes))
    .filter((x): x is number => x !== null);
  const rss = tf.streamRssBytes ?? (capacityRss.length > 0 ? maxOf(capacityRss) : null);
  return {
    machine: m.fingerprint,
    label: m.label,
    labelFrom: m.labelFrom,
    cores: m.cores,
    voice,
    synthetic,
    throughputRuns: t.map((r) => r.file),
    capacityRuns: c.map((r) => r.file),
    dates: dates.length > 0 ? [dates[0] as string, dates.at(-1) as string] : null,
    singleStream: tf.singleStream,
    bestPerK: tf.bestPerK,
    capacity: cf.layouts,
    bestCapacity: cf.best,
    streamRssBytes: rss,
    cost: null,
    notes: [...apart, ...m.notes, ...tf.notes, ...cf.notes],
  };
}

/** A machine and voice's rows: the largest workload of each kind together, every other one apart. */
function voiceRows(m: Machine, voice: string, inputs: SummaryInput[]): SummaryRow[] {
  const t = groups(
    inputs.filter((i): i is ThroughputInput => i.kind === 'throughput' && i.arms.some((a) => voiceKey(a) === voice)),
    (r) => throughputKey(r, voice),
  );
  const c = groups(
    inputs.filter((i): i is CapacityInput => i.kind === 'capacity' && i.view.answers.some((a) => a.voice === voice)),
    (r) => capacityKey(r, voice),
  );
  const [t0, c0] = [t[0], c[0]];
  // Throughput and capacity runs share a row when the voice file and the software are the same.
  const together = t0 && c0 && differences(t0.key.slice(0, 3), c0.key.slice(0, 3)).length === 0;
  const rows: SummaryRow[] = [rowOf(m, voice, t0?.runs ?? [], together || !t0 ? (c0?.runs ?? []) : [], [])];
  if (t0 && c0 && !together)
    rows.push(
      rowOf(m, voice, [], c0.runs, [
        `capacity runs kept apart from the row above (other software or voice file): ${differences(t0.key.slice(0, 3), c0.key.slice(0, 3)).join(', ')}`,
      ]),
    );
  for (const g of t.slice(1))
    rows.push(
      rowOf(
        m,
        voice,
        g.runs,
        [],
        [
          `throughput runs kept apart from this machine and voice's first row (another workload): ${differences(t0?.key ?? [], g.key).join(', ')}`,
        ],
      ),
    );
  for (const g of c.slice(1))
    rows.push(
      rowOf(m, voice, [], g.runs, [
        `capacity runs kept apart from this machine and voice's first row (another workload): ${differences(c0?.key ?? [], g.key).join(', ')}`,
      ]),
    );
  return rows;
}

export function summaryRows(inputs: SummaryInput[]): SummaryRow[] {
  const machines = [...new Set(inputs.map((i) => i.fingerprint))];
  return machines.flatMap((fp) => {
    const mine = inputs.filter((i) => i.fingerprint === fp);
    const m = machineOf(fp, mine);
    const voices = [
      ...new Set(
        mine.flatMap((i) => (i.kind === 'throughput' ? i.arms.map(voiceKey) : i.view.answers.map((a) => a.voice))),
      ),
    ].sort();
    return voices.flatMap((v) => voiceRows(m, v, mine));
  });
}

import { armCentre, armVoiceLabel } from '../verdict/labels.js';
import { profileOfLabel, sessionLine } from '../../voice/session-profile.js';
import { decisionHeading } from '../verdict/decision.js';
import type { Archive, ArmRecord } from '../schema.js';
import { num as fmt } from './format.js';
import { NOT_PUBLISHABLE } from '../../report/words.js';

const interval = (ic: readonly [number, number] | null | undefined): string =>
  ic ? `[${fmt(ic[0], 1)}, ${fmt(ic[1], 1)}]` : '[no interval]';

/** What the arm shows in its last column: OK, or the failed controls and by how much. */
export function armVerdict(arm: ArmRecord): string {
  if (arm.etat !== 'done') return `${arm.etat.toUpperCase()}: ${arm.erreur ?? 'no reason given'}`;
  const failed = arm.controles.filter((c) => !c.held);
  if (failed.length === 0 && arm.controle_tenu) return 'OK';
  if (failed.length === 0) return 'FAILED: controls incomplete';
  return `FAILED ${failed.map((c) => `${c.name}: ${c.message}`).join('; ')}`;
}

/** After the controls: NOISY with the spread, or that too few passes were run to know it. */
export function noiseNote(arm: ArmRecord): string {
  if (!arm.bruyant) return '';
  if (arm.dispersion_relative === null)
    return arm.debit_agrege_par_passe.length > 0
      ? ` (${arm.debit_agrege_par_passe.length} passes: too few to judge spread)`
      : '';
  return ` NOISY (spread ${fmt(arm.dispersion_relative * 100, 0)}% of median)`;
}

/** "sherpa text" or "ort text" for arms not on the default engine and scope; empty otherwise. */
export function armEngine(arm: Pick<ArmRecord, 'moteur' | 'portee' | 'part_phonemisation'>): string {
  const moteur = arm.moteur ?? 'onnxruntime';
  const portee = arm.portee ?? 'model';
  if (moteur === 'onnxruntime' && portee === 'model') return '';
  const share =
    arm.part_phonemisation === undefined || arm.part_phonemisation === null
      ? ''
      : ` (phonemize ${fmt(arm.part_phonemisation * 100, 0)}%)`;
  return `${moteur === 'sherpa' ? 'sherpa-onnx' : 'onnxruntime'} ${portee}${share}`;
}

export function armLine(arm: ArmRecord): string {
  const engine = armEngine(arm);
  const perStream = arm.debit_par_flux_mediane.map((x) => `x${fmt(x)}`).join(' ');
  const cores = arm.affinites_vues.map((s) => `[${s.join(',')}]`).join('');
  return [
    armVoiceLabel(arm).padEnd(24),
    `K=${arm.flux_simultanes}`,
    `T=${arm.fils_par_flux}`,
    (arm.affinite_demandee ? 'pinned' : 'free').padEnd(6),
    arm.isolation.padEnd(7),
    ...(engine ? [engine.padEnd(32)] : []),
    `per stream ${perStream}`.padEnd(28),
    `aggregate x${fmt(armCentre(arm))} ${interval(arm.debit_agrege_ic95)}`.padEnd(30),
    `CPU ${fmt(arm.cpu_somme_medianes, 0)}%`.padEnd(9),
    `cores ${cores}`.padEnd(16),
    `${armVerdict(arm)}${noiseNote(arm)}`,
  ].join('  ');
}

export function headerLines(a: Pick<Archive, 'protocole' | 'coeurs' | 'machine_detail' | 'voix'>): string[] {
  const synthetic = a.voix.filter((v) => v.synthetique).map((v) => v.nom);
  const s = a.protocole.sequentiel;
  const lines = [
    s
      ? `piper-parallel ${s.nombre}: one timed pass per arm per round (+${a.protocole.passes_echauffement} warm-up), ` +
        `${a.protocole.conditions.length} conditions x ${a.voix.length} voices; looks after rounds ${s.regards_manches.join(', ')}, ` +
        `stops when its questions are answered; budget ${s.budget_minutes} minutes, settling included; seed ${a.protocole.graine}`
      : `piper-parallel: ${a.protocole.passes_par_bras} passes per arm (+${a.protocole.passes_echauffement} ` +
        `warm-up), ${a.protocole.conditions.length} conditions x ${a.voix.length} voices, ${a.protocole.manches_prevues} ` +
        `rounds, seed ${a.protocole.graine} (--seed ${a.protocole.graine} repeats the orders)`,
    `text: ${a.protocole.source_du_texte}, ${a.protocole.texte.phrases} lines, ${a.protocole.texte.caracteres} ` +
      `characters, sha256 ${a.protocole.texte.sha256.slice(0, 12)}`,
    `machine: ${a.machine_detail.cpu}, ${a.coeurs} cores usable, load ${a.machine_detail.charge_avant.map((x) => x.toFixed(2)).join(' ')}`,
    sessionLine(a.protocole.profil_session ?? profileOfLabel(a.protocole.session_onnxruntime)),
  ];
  if (s)
    lines.push(
      `questions per voice (${s.questions_par_voix}): each K-process layout against 1 process x K threads, and pinned against free; ` +
        `each look's intervals at ${(100 * s.confiance_par_regard).toFixed(2)}%, so that a voice's claims hold together at 95% over every look`,
    );
  if (synthetic.length > 0)
    lines.push(
      `SYNTHETIC voices (random weights, Piper-medium-shaped; they measure compute, not speech): ${synthetic.join(', ')}`,
    );
  lines.push(
    "aggregate [low, high]: the 95% interval of this run's mean, between its rounds; a rerun here moves more " +
      '(piper-parallel summary over several runs gives that spread)',
  );
  // Named only when the run chose engines: a default run's header stays as it was.
  if (a.protocole.conditions.some((c) => c.moteur !== undefined || c.portee !== undefined)) {
    for (const m of Object.values(a.protocole.moteurs ?? {}))
      if (m) lines.push(`engine: ${m.version} (onnxruntime ${m.onnxruntime}); ${m.reglages}`);
  }
  return lines;
}

/** The whole terminal table for an archive. */
export function renderTable(a: Archive): string {
  const lines = [...headerLines(a), ...a.bras.map(armLine)];
  lines.push(a.controle_tenu ? 'controls: all held' : `controls: FAILED — ${NOT_PUBLISHABLE}`);
  return lines.join('\n');
}

export { armVoiceLabel };

/** What a decision holds under, as its archive says: the session profile, the text, and whether its voices are stand-ins. */
export function decisionConditions(
  a: Pick<Archive, 'voix'> & { protocole?: Pick<Archive['protocole'], 'profil_session' | 'source_du_texte'> },
): string | undefined {
  if (!a.protocole) return undefined;
  // Archives from before profiles ran libpiper's settings (schema.ts).
  const parts = [`${a.protocole.profil_session ?? 'libpiper'} session`, a.protocole.source_du_texte];
  const stand = a.voix.filter((v) => v.synthetique).map((v) => v.nom);
  if (stand.length > 0) parts.push(`SYNTHETIC ${stand.join(', ')}: a stand-in's figure, put your voice in voices/`);
  return parts.join('; ');
}

/** The decision, as its parts: the heading with its conditions and the run's error rate, one line per voice and K, a note. */
export function decisionLines(
  a: Pick<Archive, 'verdict'> &
    Partial<Pick<Archive, 'voix'>> & { protocole?: Pick<Archive['protocole'], 'profil_session' | 'source_du_texte'> },
): { heading: string; lines: string[]; note: string } | undefined {
  // The one-line answer first, its details indented under it; older archives have the one decision line.
  const lines = a.verdict.comparaisons.flatMap((c) =>
    c.ligne ? [c.ligne, ...(c.details ?? []).map((d) => `  ${d}`)] : [c.decision ?? c.phrase],
  );
  lines.push(...(a.verdict.moteurs ?? []).map((m) => m.phrase));
  if (lines.length === 0) return undefined;
  const voices = new Set(a.verdict.comparaisons.map((c) => c.voix)).size;
  return {
    heading: decisionHeading(Math.max(1, voices), decisionConditions({ ...a, voix: a.voix ?? [] })),
    lines,
    note: '1 process serves K streams one after another; every layout with its figure and interval: the reports',
  };
}

/**
 * The run's last word on the terminal: one line per voice and K with each question's answer and
 * interval, then the engines; the paragraphs with every layout's figure stay in the reports.
 * Archives from before the decision lines fall back to the verdict's sentences.
 */
export function decisionBlock(
  a: Pick<Archive, 'verdict' | 'voix'> & {
    protocole?: Pick<Archive['protocole'], 'profil_session' | 'source_du_texte'>;
  },
): string[] {
  const d = decisionLines(a);
  return d ? [d.heading, ...d.lines.map((l) => `  ${l}`), `  (${d.note})`] : [];
}

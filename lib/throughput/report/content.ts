import { armCentre } from '../verdict/labels.js';
import { profileOfLabel, sessionLine } from '../../voice/session-profile.js';
/** What the Markdown and HTML reports both say, as plain text; each renders it in its own markup. */
import type { Archive, ArmRecord } from '../schema.js';
import { num, signedPercent } from './format.js';
import { MIN_ROUNDS_TO_DECIDE } from '../../measure/stats.js';
import { armEngine, armVerdict, armVoiceLabel, noiseNote } from './table.js';
import { REPORT_TEXT as TEXT } from './text.js';

/** Below this many timed passes, a p95 by nearest rank is simply the largest value. */
export const P95_MIN_PASSES = 20;

export const ARM_COLUMNS = [
  'K',
  'T',
  'affinity',
  'isolation',
  'engine',
  'per stream (x real time)',
  'aggregate [95% interval of this run]',
  'CPU sum',
  'cores seen',
  'controls',
] as const;

/** One arm as the reports' table row. */
export function armCells(arm: ArmRecord): { cells: string[]; held: boolean } {
  const interval = arm.debit_agrege_ic95
    ? ` [${num(arm.debit_agrege_ic95[0], 1)}, ${num(arm.debit_agrege_ic95[1], 1)}]`
    : ' [no interval]';
  const verdict = armVerdict(arm);
  return {
    held: verdict === 'OK',
    cells: [
      String(arm.flux_simultanes),
      String(arm.fils_par_flux),
      arm.affinite_demandee ? 'one core each' : 'free',
      arm.isolation,
      armEngine(arm) || 'onnxruntime model',
      arm.debit_par_flux_mediane.map((v) => `x${num(v)}`).join(' '),
      `x${num(armCentre(arm))}${interval}`,
      `${num(arm.cpu_somme_medianes, 0)}%`,
      arm.affinites_vues.map((s) => `[${s.join(',')}]`).join(' '),
      verdict + noiseNote(arm),
    ],
  };
}

export const RATIO_COLUMNS = [
  'voice',
  'K',
  'A over B',
  'ratio',
  'own 95% interval',
  'resolved alone',
  "in the voice's family: its interval",
] as const;

/** A quoted pair's family interval and confidence; a pair no sentence quotes is in no family. */
const familyCell = (p: Archive['verdict']['comparaisons'][number]['paires'][number]): string => {
  const f = p.famille;
  if (!f) return 'not quoted';
  const ic = f.ic ? `[${signedPercent(f.ic[0])}, ${signedPercent(f.ic[1])}]` : 'no interval';
  return `${ic} at ${(f.confiance * 100).toFixed(1)}% (1 of ${f.taille})`;
};

/** Every layout ratio of the verdict, as table rows. */
export function ratioCells(a: Archive): string[][] {
  const label = (voice: string): string => {
    const arm = a.bras.find((b) => b.voix === voice);
    return arm ? armVoiceLabel(arm) : voice;
  };
  return a.verdict.comparaisons.flatMap((c) =>
    c.paires.map((p) => [
      label(c.voix),
      String(c.flux),
      `${p.a} over ${p.b}`,
      p.rapport === null ? '-' : signedPercent(p.rapport),
      p.rapport_ic95 ? `[${signedPercent(p.rapport_ic95[0])}, ${signedPercent(p.rapport_ic95[1])}]` : 'no interval',
      p.tranche ? 'yes' : 'no',
      familyCell(p),
    ]),
  );
}

export const ENGINE_COLUMNS = [
  'voice',
  'layout',
  'scope',
  'sherpa-onnx over onnxruntime-node',
  '95% interval',
  'resolved',
] as const;

/** Engines side by side, one row per voice and layout both ran. */
export function engineCells(a: Archive): string[][] {
  const label = (voice: string): string => {
    const arm = a.bras.find((b) => b.voix === voice);
    return arm ? armVoiceLabel(arm) : voice;
  };
  return (a.verdict.moteurs ?? []).map((m) => {
    const p = m.paire;
    return [
      label(m.voix),
      m.disposition,
      m.portee,
      p?.rapport == null ? 'not compared' : signedPercent(p.rapport),
      p?.rapport_ic95 ? `[${signedPercent(p.rapport_ic95[0])}, ${signedPercent(p.rapport_ic95[1])}]` : 'no interval',
      p?.tranche ? 'yes' : 'no',
    ];
  });
}

export function syntheticVoices(a: Archive): string[] {
  return a.voix.filter((v) => v.synthetique).map((v) => v.nom);
}

/** The header facts: `code` parts are names to show verbatim (a checksum, a command). */
export function runFacts(a: Archive): Array<{ label: string; text: string; code?: string }> {
  const d = a.machine_detail;
  const facts: Array<{ label: string; text: string; code?: string }> = [
    { label: 'question', text: a.question },
    {
      label: 'machine',
      text:
        `${d.cpu}, ${a.coeurs} cores usable (${d.coeurs_logiques} logical), ${num(d.memoire_octets / 2 ** 30, 1)} ` +
        `GiB, ${d.systeme ?? d.plateforme} ${d.noyau}, load before ${d.charge_avant.map((x) => x.toFixed(2)).join(' ')}`,
    },
    {
      label: 'software',
      text:
        `piper-parallel ${a.version_outil}, onnxruntime ${a.version_onnxruntime}, Node ${a.version_node}` +
        (a.protocole.moteurs?.sherpa
          ? `, ${a.protocole.moteurs.sherpa.version} (its own onnxruntime ${a.protocole.moteurs.sherpa.onnxruntime})`
          : ''),
    },
    {
      label: 'text',
      text: `${a.protocole.source_du_texte}, ${a.protocole.texte.phrases} lines, ${a.protocole.texte.caracteres} characters, sha256 `,
      code: a.protocole.texte.sha256.slice(0, 16),
    },
    {
      label: 'passes',
      text: `${a.protocole.passes_par_bras} timed per arm after ${a.protocole.passes_echauffement} warm-up`,
    },
    {
      label: 'voices',
      text: a.voix
        .map((v) => `${v.nom} (${v.synthetique ? 'SYNTHETIC' : 'real Piper voice'}, ${v.frequence_hz} Hz)`)
        .join(', '),
    },
    {
      label: 'session',
      text: sessionLine(a.protocole.profil_session ?? profileOfLabel(a.protocole.session_onnxruntime)).replace(
        /^session: /,
        '',
      ),
    },
    { label: 'command', text: '', code: a.protocole.commande },
  ];
  if (a.interrompu) facts.push({ label: 'resumed', text: 'this run was interrupted and resumed' });
  if (d.attente && d.attente.attendu_s > 0)
    facts.push({
      label: 'settle',
      text: `waited ${d.attente.attendu_s} s for the machine to settle (${d.attente.calme ? 'it did' : 'it stayed busy'})`,
    });
  return facts;
}

/** Every failed control with its figures (`control` is its name), and every arm that did not finish. */
export function failures(a: Archive): Array<{ arm: string; control?: string; text: string }> {
  const out: Array<{ arm: string; control?: string; text: string }> = [];
  for (const arm of a.bras) {
    const engine = armEngine(arm);
    const name =
      `${armVoiceLabel(arm)} K=${arm.flux_simultanes} T=${arm.fils_par_flux} ${arm.affinite_demandee ? 'pinned' : 'free'} ` +
      `${arm.isolation}${engine ? ` ${engine}` : ''}`;
    if (arm.etat !== 'done') out.push({ arm: name, text: `${arm.etat}: ${arm.erreur ?? 'no reason given'}` });
    for (const c of arm.controles.filter((k) => !k.held)) {
      out.push({
        arm: name,
        control: c.name,
        text: `measured ${num(c.measured)} ${c.unit} against ${num(c.threshold)} ${c.unit}: ${c.message}`,
      });
    }
  }
  return out;
}

export function caveats(a: Archive): string[] {
  const out: string[] = [];
  if (syntheticVoices(a).length > 0) out.push(TEXT.synthetic);
  if (a.protocole.passes_par_bras < P95_MIN_PASSES)
    out.push(TEXT.fewPasses(a.protocole.passes_par_bras, P95_MIN_PASSES));
  if (a.bras.some((b) => b.bruyant && b.dispersion_relative !== null)) out.push(TEXT.noisy);
  if (a.arret.manches < MIN_ROUNDS_TO_DECIDE) out.push(TEXT.fewRounds(a.arret.manches, MIN_ROUNDS_TO_DECIDE));
  if (a.protocole.moteurs?.sherpa)
    out.push(
      TEXT.engines(a.protocole.moteurs.onnxruntime?.reglages ?? 'not used', a.protocole.moteurs.sherpa.reglages),
    );
  out.push(TEXT.method);
  return out;
}

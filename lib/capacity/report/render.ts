/** A capacity run as Markdown or as one self-contained HTML page (charts inlined as SVG). */
import { chartFigure, esc, htmlPage, htmlTable as table } from '../../report/page.js';
import { profileOfLabel, sessionLine } from '../../voice/session-profile.js';
import { mdRow, mdText, stripControl } from '../../report/markdown.js';
import { CAVEAT } from './text.js';
import { percentUp } from '../answer/evidence.js';
import type { CapacityArchive, CapacityEntry, TrialRecord } from '../archive/schema.js';
import { answerCharts, evidenceCharts } from './charts.js';
import { CONTROL_FAILED } from '../../report/words.js';

/** One voice of a capacity run, in words: kind, speed alone, sentence lengths, worker peak. */
function voiceLine(v: CapacityArchive['voix'][number]): string {
  const sentences = v.phrases_audio_s.map((s) => s.toFixed(1)).join(', ');
  const peak = v.rss_travailleur_octets === null ? '?' : Math.round(v.rss_travailleur_octets / 2 ** 20);
  if (v.nom === 'server')
    return (
      `server (measured from outside: one connection alone x${v.debit_seul.toFixed(1)} real time, sentences ${sentences} s; ` +
      "every wait includes the server's own queue)"
    );
  return `${v.nom} (${v.synthetique ? 'SYNTHETIC' : 'real'}: alone x${v.debit_seul.toFixed(1)} real time, sentences ${sentences} s, worker peak ${peak} MiB)`;
}

const ms = (x: number | null): string => (x === null ? '-' : `${Math.round(x)}`);
const TRIAL_COLUMNS = [
  'voice',
  'layout',
  'K',
  'workers',
  'round',
  'kind',
  'state',
  'no gap',
  'first audio in bound',
  'first audio p95 / max ms',
  'gaps (streams)',
  'arrival late ms',
  'x real time (live S; whole span, per listener)',
  'controls',
];

const yesNo = (x: boolean | null): string => (x === null ? 'not known' : x ? 'yes' : 'no');

function trialCells(t: TrialRecord): string[] {
  const failed = t.controles.filter((c) => !c.held).map((c) => `${c.name}: ${c.message}`);
  const kind = `${t.but === 'sans_trou' ? 'whole' : t.but === 'reference' ? 'reference' : 'first audio'}${t.reprise > 0 ? ` (again #${t.reprise})` : ''}`;
  return [
    t.voix,
    t.disposition,
    String(t.flux),
    String(t.travailleurs),
    String(t.manche),
    kind,
    t.etat,
    t.sans_trou === true && t.au_rythme === false ? 'yes, behind pace' : yesNo(t.sans_trou),
    yesNo(t.dans_la_borne),
    `${ms(t.premier_son_p95_ms)} / ${ms(t.premier_son_max_ms)}`,
    `${t.trous} (${t.flux_avec_trous})${t.trous_courts > 0 ? `, ${t.trous_courts} under 20 ms` : ''}`,
    t.retard_arrivee_max_ms.toFixed(1) +
      ((t.arret_machine_ms ?? 0) > 0 ? ` (+${t.arret_machine_ms?.toFixed(1)} machine stopped)` : ''),
    `${t.debit_vivant?.toFixed(1) ?? '-'}; ${t.debit_agrege?.toFixed(1) ?? '-'}, ${t.debit_par_flux?.toFixed(2) ?? '-'}`,
    failed.length === 0 ? 'OK' : `FAILED, not counted: ${failed.join('; ')}`,
  ];
}

const ANSWER_COLUMNS = [
  'voice',
  'layout',
  'live listeners, no gap',
  'a rerun may answer (95%)',
  'live speed S, x real time [95%]',
  'headroom at the answer [95%]',
  'by pre-buffer (ms: listeners)',
  "whole trials held at the answer / a trial's gap chance below (95%)",
  'within the first-audio bound',
  'stopped by',
];

const x1 = (v: number): string => v.toFixed(1);
const pc = (v: number): string => `${Math.round(v * 100)}%`;

/** The lines read first: the number to plan on per voice, the drift, the steal (absent in older archives). */
function headLines(a: CapacityArchive): string[] {
  return [
    ...(a.plans ?? []).map((p) => p.phrase),
    ...(a.derive ? [a.derive.phrase] : []),
    ...(a.derive?.phrase_vol ? [a.derive.phrase_vol] : []),
  ];
}

function answerCells(c: CapacityEntry): string[] {
  const rate = c.taux_trou_max === null ? '-' : `${percentUp(c.taux_trou_max)}%`;
  const ic = c.debit_vivant_ic95;
  const room = c.marge_ic95;
  const short = c.essais_manquants ?? 0;
  return [
    c.voix,
    c.disposition,
    short > 0
      ? `not measured enough (${short} more round(s) holding ${c.flux_tenu_essais})`
      : `${c.flux_max_sans_trou}${c.flux_tenu_essais > c.flux_max_sans_trou ? ` (${c.flux_tenu_essais} held, pace caps it)` : ''}`,
    c.prevision ? `${c.prevision[0]} to ${c.prevision[1]}` : '-',
    c.debit_vivant === null ? '-' : `${x1(c.debit_vivant)}${ic ? ` [${x1(ic[0])}, ${x1(ic[1])}]` : ''}`,
    c.marge === null ? '-' : `${pc(c.marge)}${room ? ` [${pc(room[0])}, ${pc(room[1])}]` : ''}`,
    c.par_tampon.map((b) => `${b.tampon_ms}: ${b.au_moins ? '>=' : ''}${b.flux_max_sans_trou}`).join(', '),
    c.flux_max_sans_trou === 0 ? '-' : `${c.essais_tenus} of ${c.essais} / ${rate}`,
    String(c.flux_max_dans_la_borne),
    c.borne,
  ];
}

const EVIDENCE_COLUMNS = [
  'voice',
  'layout',
  'K',
  'trials counted (held, in bound)',
  'not counted (controls)',
  'whole trials (with a gap)',
  "a trial's gap chance below (95%)",
  'live speed S per whole trial',
  'first audio: trials (with a listener over the bound)',
  'that chance below (95%)',
  "trial's worst first audio bound ms (percentile, 95%)",
  'described: sessions (with a gap), first audio p95 ms',
];

function evidenceRows(c: CapacityEntry): string[][] {
  return c.preuves.map((p) => [
    c.voix,
    c.disposition,
    String(p.flux),
    `${p.essais} (${p.essais_tenus}, ${p.essais_dans_la_borne})`,
    String(p.essais_controles_echoues),
    `${p.essais_entiers} (${p.essais_avec_trou})`,
    p.taux_trou_max === null ? '-' : `${percentUp(p.taux_trou_max)}%`,
    p.debit_vivant.map((v) => (v === null ? '-' : x1(v))).join(', ') || '-',
    `${p.premier_son_essais} (${p.premier_son_essais_au_dela})`,
    p.part_au_dela_max === null ? '-' : `${percentUp(p.part_au_dela_max)}%`,
    p.premier_son_borne_ms === null
      ? '-'
      : `${ms(p.premier_son_borne_ms)} (p${Math.floor((p.premier_son_borne_centile ?? 0) * 100)})`,
    `${p.sessions} (${p.sessions_avec_trou}), ${ms(p.premier_son_p95_ms)}`,
  ]);
}

function facts(a: CapacityArchive): string[] {
  const p = a.protocole;
  const synthetic = a.voix.filter((v) => v.synthetique).map((v) => v.nom);
  return [
    `question: ${a.question}`,
    `machine: ${a.machine_detail.cpu}, ${a.coeurs} cores usable, ${(a.machine_detail.memoire_octets / 2 ** 30).toFixed(1)} ` +
      `GiB (MemAvailable at the start ${a.memoire_disponible_octets === null ? 'unknown' : `${(a.memoire_disponible_octets / 2 ** 30).toFixed(1)} GiB`})`,
    `text: ${p.source_du_texte}, ${p.texte.phrases} lines; arrivals ${p.arrivees}; queue ${p.ordre_file}; ` +
      `(a) fails on a gap of ${p.tolerance_trou_ms} ms or more (shorter ones reported apart) or a pace under x1 at ` +
      `the live speed's lower bound, (b) also on any first audio over ${p.premier_son_max_ms} ms; up to ${p.flux_max} ` +
      `listeners; each edge and the K above it in at least ${p.manches} rounds, a whole trial run to its end in each; ` +
      `pre-buffers ${p.tampons_ms.join(', ')} ms replayed; seed ${p.graine}`,
    `voices: ${a.voix.map(voiceLine).join('; ')}`,
    ...(a.voix.some((v) => v.nom !== 'server')
      ? [sessionLine(p.profil_session ?? profileOfLabel(p.session_onnxruntime))]
      : []),
    ...(synthetic.length > 0
      ? [
          `SYNTHETIC voices (${synthetic.join(', ')}): random weights in a Piper-medium-shaped graph; their figures measure compute, not speech`,
        ]
      : []),
    `command: ${p.commande}`,
    ...(a.duree_s !== null
      ? [
          `wall time: ${Math.round(a.duree_s)} s${a.duree_prevue_s !== null ? ` (said before the first trial: about ${Math.round(a.duree_prevue_s)} s)` : ''}`,
        ]
      : []),
  ];
}

export function capacityMarkdown(a: CapacityArchive): string {
  const row = mdRow;
  const out = [`# piper-parallel capacity run of ${mdText(a.date_utc)}`, ''];
  if (!a.controle_tenu) out.push(`> **${CONTROL_FAILED}**`, '');
  out.push('## Answer', '', ...[...headLines(a), ...a.phrases].flatMap((p) => [mdText(p), '']));
  out.push(row(ANSWER_COLUMNS), row(ANSWER_COLUMNS.map(() => '-')), ...a.capacite.map((c) => row(answerCells(c))));
  out.push('', '## How it was measured', '', ...facts(a).map((f) => `- ${mdText(f)}`));
  out.push(
    '',
    '## Evidence at each K tried',
    '',
    row(EVIDENCE_COLUMNS),
    row(EVIDENCE_COLUMNS.map(() => '-')),
    ...a.capacite.flatMap(evidenceRows).map(row),
  );
  out.push(
    '',
    '## Trials',
    '',
    row(TRIAL_COLUMNS),
    row(TRIAL_COLUMNS.map(() => '-')),
    ...a.essais.map((t) => row(trialCells(t))),
    '',
    '## Caveats',
    '',
    `- ${CAVEAT}`,
    '',
  );
  return stripControl(out.join('\n'));
}

export async function capacityHtml(a: CapacityArchive): Promise<string> {
  const body = [`<h1>piper-parallel capacity run of ${esc(a.date_utc)}</h1>`];
  if (!a.controle_tenu) body.push(`<p class="banner failed">${CONTROL_FAILED}</p>`);
  // The answer and its pictures first; how it was measured and every K's evidence after them.
  body.push('<h2>Answer</h2>', ...headLines(a).map((p) => `<p><strong>${esc(p)}</strong></p>`));
  body.push(table(ANSWER_COLUMNS, a.capacite.map(answerCells)));
  for (const chart of answerCharts(a)) body.push(await chartFigure(chart));
  body.push('<h2>In words</h2>', ...a.phrases.map((p) => `<p>${esc(p)}</p>`));
  body.push('<h2>How it was measured</h2>', '<ul>', ...facts(a).map((f) => `<li>${esc(f)}</li>`), '</ul>');
  body.push('<h2>Evidence at each K tried</h2>', table(EVIDENCE_COLUMNS, a.capacite.flatMap(evidenceRows)));
  for (const chart of evidenceCharts(a)) body.push(await chartFigure(chart));
  body.push('<h2>Trials</h2>', table(TRIAL_COLUMNS, a.essais.map(trialCells)), `<h2>Caveats</h2><p>${esc(CAVEAT)}</p>`);
  const synthetic = a.voix.some((v) => v.synthetique);
  return htmlPage(`piper-parallel capacity ${a.date_utc}${synthetic ? ' (synthetic voices)' : ''}`, body);
}

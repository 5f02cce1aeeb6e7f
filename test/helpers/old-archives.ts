/** Archives of the formats before the current ones, as the tests write them by hand. */
import type { CapacityArchive } from '../../lib/capacity/archive/schema.js';

/** A hand-written archive of the original Python script (REFERENCE section 1 keys only), 6 passes. */
export function pythonArchive(ratio: number, voice = 'fr_FR-siwis-medium'): unknown {
  const pass = (passe: number, r: number) => ({
    passe,
    temps_calcul_s: 2,
    audio_s: 2 * r,
    ratio: r,
    rtf: 1 / r,
    cpu_pourcent: 99,
  });
  const child = (rang: number) => ({
    rang,
    affinite_effective: [0, 1],
    passes: [1, 1.01, 0.99, 1, 1.005, 0.995].map((f, j) => pass(j + 1, ratio * f)),
    resume: {
      ratio: { min: ratio * 0.99, max: ratio * 1.01, mediane: ratio },
      rtf: { min: 0, max: 0, mediane: 0 },
      cpu_pourcent: { min: 99, max: 99, mediane: 99 },
    },
  });
  return {
    outil: 'mesure_piper_parallele.py',
    question: 'K processus ou K threads ?',
    origine: 'script',
    version_piper: '1.2.0',
    version_onnxruntime: '1.17.0',
    machine: 'aarch64',
    coeurs: 2,
    date_utc: '2025-01-01T00:00:00Z',
    protocole: {
      source_du_texte: 'phrases françaises',
      passes_par_bras: 6,
      conditions: [],
      dimensions: {},
      synchronisation: 'barriere',
      pourquoi_barriere: '...',
      controle: [],
      commande: 'python3 mesure_piper_parallele.py 3',
    },
    bras: [
      {
        voix: voice,
        flux_simultanes: 2,
        fils_par_flux: 1,
        affinite_demandee: false,
        affinites_vues: [
          [0, 1],
          [0, 1],
        ],
        controle_affinite_tenu: true,
        mural_total_s: 10,
        enfants: [child(0), child(1)],
        debit_par_flux_mediane: [ratio, ratio],
        debit_agrege_mediane: 2 * ratio,
        cpu_somme_medianes: 198,
        controle_tenu: true,
      },
    ],
    controle_tenu: true,
  };
}

/** What a schema 2 archive of the same run looked like: listener-counted, a range instead of a prediction, no live speed. */
export function capacitySchemaTwo(a: CapacityArchive): unknown {
  const { tampons_ms: _s, tolerance_trou_ms: _t, ...protocole } = a.protocole;
  return {
    ...a,
    schema_version: 2,
    protocole: { ...protocole, sessions: 18 },
    capacite: a.capacite.map(({ prevision: _p, debit_vivant: _d, par_tampon: _b, ...e }) => ({
      ...e,
      plage_sans_trou: { min: e.flux_max_sans_trou, max: e.flux_max_sans_trou + 1 },
    })),
  };
}

/** What a schema 1 archive of the same run looked like: one answer per layout, no evidence, no first-answer fields. */
export function capacitySchemaOne(a: CapacityArchive, k: number): unknown {
  const { tampons_ms: _s, tolerance_trou_ms: _t, priorite_parent: _p, ...protocole } = a.protocole;
  return {
    ...a,
    schema_version: 1,
    protocole,
    etiquette: undefined,
    duree_prevue_s: undefined,
    duree_s: undefined,
    voix: a.voix.map(({ premier_son_seul_ms: _f, ...v }) => v),
    essais: a.essais.map(
      ({
        but: _b,
        reprise: _r,
        fin_ms: _e,
        sans_trou: _t,
        dans_la_borne: _d,
        premier_son_max_ms: _m,
        au_rythme: _a,
        flux_detail,
        ...t
      }) => ({ ...t, flux_detail: flux_detail.map(({ complet: _c, ...s }) => s) }),
    ),
    capacite: a.capacite.map((e) => ({
      voix: e.voix,
      disposition: e.disposition,
      flux_max_sans_trou: k,
      premier_son_p95_ms: 300,
      trous_au_dela: 2,
      borne: 'cpu',
      prediction: 3,
      phrase: 'old',
    })),
  };
}

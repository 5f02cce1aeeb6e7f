/**
 * An archive to publish without the host's name or the folders of the command line: the keys stay
 * (old readers need them), their values become placeholders. Nothing measured changes.
 */
export const REDACTED_HOST = 'redacted';

/** Every word with a slash keeps only its last part: `--out-dir /home/ana/runs` -> `--out-dir …/runs`. */
export function redactPaths(text: string): string {
  return text.replace(/\S*\/\S*/g, (word) => {
    const [flag, value] = word.includes('=') && word.startsWith('-') ? word.split(/=(.*)/s) : [undefined, word];
    const last = (value ?? '').split('/').filter(Boolean).at(-1) ?? '';
    const shown = `…/${last}`;
    return flag === undefined ? shown : `${flag}=${shown}`;
  });
}

interface Redactable {
  machine_detail: { hote: string };
  protocole: { commande: string; source_du_texte: string };
}

export function redacted<T extends Redactable>(a: T): T {
  return {
    ...a,
    machine_detail: { ...a.machine_detail, hote: REDACTED_HOST },
    protocole: {
      ...a.protocole,
      commande: redactPaths(a.protocole.commande),
      source_du_texte: redactPaths(a.protocole.source_du_texte),
    },
  };
}

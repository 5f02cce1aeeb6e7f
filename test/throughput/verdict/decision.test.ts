// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pair } from '../../../lib/throughput/verdict/index.js';
import {
  bestAnswer,
  decisionHeading,
  decisionLine,
  decisionParts,
  headline,
  pairAnswer,
} from '../../../lib/throughput/verdict/decision.js';
import { decisionBlock } from '../../../lib/throughput/report/table.js';

/** A quoted pair whose family interval is `ic` (its own 95% one narrower, as always). */
function pair(rapport: number, ic: [number, number], a = 'A', b = 'B'): Pair {
  const tranche = ic[0] > 1 || ic[1] < 1;
  const equivalent = ic[0] >= 0.94 && ic[1] <= 1 / 0.94;
  const own: [number, number] = [rapport - (rapport - ic[0]) / 2, rapport + (ic[1] - rapport) / 2];
  return {
    a,
    b,
    rapport,
    rapport_ic95: own,
    tranche: own[0] > 1 || own[1] < 1,
    equivalent: own[0] >= 0.94 && own[1] <= 1 / 0.94,
    famille: { taille: 2, confiance: 0.975, ic, tranche, equivalent },
  };
}

describe('decision lines', () => {
  it('name the winner first, with the family interval turned round when B is ahead', () => {
    const line = pairAnswer(
      pair(1 / 1.2, [1 / 1.3, 1 / 1.1], '1 process x 2 threads', '2 processes x 1 thread, free'),
      6,
    );
    assert.equal(line, 'run 2 processes x 1 thread, free: +20% [+10%, +30%] over 1 process x 2 threads');
  });

  it('quote the family interval, not the pair own narrower one', () => {
    // Own interval [1.015, 1.2] excludes 1; the family's [0.93, 1.3] does not: not resolved.
    const p = pair(1.1, [0.93, 1.3]);
    assert.ok(p.tranche, 'the own interval alone would have resolved it');
    assert.equal(pairAnswer(p, 6), 'A against B: +10% [-7.0%, +30%], not resolved');
  });

  it('say an equivalence only when the family interval lies within the margin', () => {
    assert.equal(
      pairAnswer(pair(1.004, [0.987, 1.021]), 6),
      'A or B: no difference larger than 6% (+0.4% [-1.3%, +2.1%])',
    );
    assert.match(pairAnswer(pair(1.004, [0.93, 1.08]), 6), /not resolved$/);
  });

  it('say non-inferiority where one bound lies beyond the margin on the side it protects, and no more', () => {
    assert.equal(
      pairAnswer(pair(1.06, [0.96, 1.16]), 6),
      'A not slower than B by more than 6% (A +6.0% [-4.0%, +16%] over B)',
    );
    assert.equal(
      pairAnswer(pair(1.004, [0.93, 1.05]), 6),
      'B not slower than A by more than 6% (A +0.4% [-7.0%, +5.0%] over B)',
    );
    // Just outside on both sides: nothing protected.
    assert.match(pairAnswer(pair(1.0, [0.9399, 1.0641]), 6), /not resolved$/);
  });

  it("a sequential run's line gives every question set before the run, with what an open one still needs", () => {
    const dep = pair(1.27, [1.1, 1.45], '2 processes x 1 thread, free', '1 process x 2 threads');
    const pin = pair(1.01, [0.9, 1.12], '2 processes x 1 thread, pinned', '2 processes x 1 thread, free');
    const line = decisionLine(
      'v, 2 streams: ',
      {
        question: undefined,
        top: dep,
        rivals: [],
        questions: [{ pair: dep }, { pair: pin, more: ': about 9 more round(s) would settle it' }],
      },
      6,
    );
    assert.equal(
      line,
      'v, 2 streams: run 2 processes x 1 thread, free: +27% [+10%, +45%] over 1 process x 2 threads; ' +
        '2 processes x 1 thread, pinned against 2 processes x 1 thread, free: +1.0% [-10.0%, +12%], not resolved: ' +
        'about 9 more round(s) would settle it; best 2 processes x 1 thread, free, resolved above every other layout',
    );
  });

  it('name a best layout only where its comparison with the next resolved it', () => {
    assert.equal(bestAnswer(pair(1.1, [1.05, 1.15]), 6), 'best A: +10% [+5.0%, +15%] over the next, B');
    assert.match(
      bestAnswer(pair(1.02, [0.97, 1.05]), 6),
      /^best not told apart: A and B \(no difference larger than 6%/,
    );
    assert.match(bestAnswer(pair(1.05, [0.9, 1.2]), 6), /^best not told apart: A and B \(\+5\.0% .*not resolved\)$/);
  });

  it('give the deployment question, then the best where that is another pair, and drop "serving the K in turn"', () => {
    const q = pair(
      1.2,
      [1.1, 1.3],
      '2 processes x 1 thread, pinned',
      '1 process x 2 threads, serving the 2 one after another',
    );
    const top = pair(1.004, [0.987, 1.021], '2 processes x 1 thread, pinned', '2 processes x 1 thread, free');
    const line = decisionLine('v, 2 streams: ', { question: q, top }, 6);
    assert.equal(
      line,
      'v, 2 streams: run 2 processes x 1 thread, pinned: +20% [+10%, +30%] over 1 process x 2 threads; ' +
        'best not told apart: 2 processes x 1 thread, pinned and 2 processes x 1 thread, free (no difference larger than 6%: +0.4% [-1.3%, +2.1%])',
    );
    assert.equal(
      decisionLine('v: ', { question: q, top: q }, 6),
      'v: run 2 processes x 1 thread, pinned: +20% [+10%, +30%] over 1 process x 2 threads',
    );
    assert.equal(decisionLine('v: ', { question: undefined, top: undefined }, 6), undefined);
  });

  it('say the error rate for each voice and over the run', () => {
    assert.match(decisionHeading(1), /hold together at 95%\):$/);
    assert.match(
      decisionHeading(2),
      /over the 2 voices of this run, the chance that any claim is false is at most 10%/,
    );
  });

  it('name the conditions they hold under: the session profile, the text, a synthetic stand-in as such', () => {
    const verdict = {
      phrases: [],
      passage_a_l_echelle: [],
      comparaisons: [
        { voix: 'v', flux: 2, resolu: true, classement: [], paires: [], exclus: [], phrase: 'p', ligne: 'line' },
      ],
    };
    const voice = (nom: string, synthetique: boolean) => ({
      nom,
      synthetique,
      sha256: '',
      taille_octets: 0,
      frequence_hz: 22050,
    });
    const [heading] = decisionBlock({
      verdict,
      voix: [voice('synthetic-siwis-medium', true)],
      protocole: { profil_session: 'piper-tts', source_du_texte: 'built-in French sentences' },
    });
    assert.match(
      heading ?? '',
      /^decision, piper-tts session; built-in French sentences; SYNTHETIC synthetic-siwis-medium: a stand-in's figure, put your voice in voices\/ \(/,
    );
    // A real voice is not called a stand-in; an archive from before profiles ran libpiper's settings.
    const [real] = decisionBlock({
      verdict,
      voix: [voice('fr_FR-siwis-medium', false)],
      protocole: { source_du_texte: 'file replies.txt' },
    });
    assert.match(real ?? '', /^decision, libpiper session; file replies\.txt \(each/);
    assert.doesNotMatch(real ?? '', /SYNTHETIC/);
  });

  it('fall back to the sentence for archives from before decision lines', () => {
    const block = decisionBlock({
      voix: [],
      verdict: {
        phrases: [],
        passage_a_l_echelle: [],
        comparaisons: [
          { voix: 'v', flux: 2, resolu: false, classement: [], paires: [], exclus: [], phrase: 'old sentence' },
          {
            voix: 'w',
            flux: 2,
            resolu: false,
            classement: [],
            paires: [],
            exclus: [],
            phrase: 'x',
            decision: 'new line',
          },
        ],
      },
    });
    assert.deepEqual(block.slice(1, 3), ['  old sentence', '  new line']);
    assert.match(block[0] ?? '', /2 voices/);
  });

  it('one line a person acts on: the layout to run and its figure, or "no layout shown better"; the details quote no figure twice', () => {
    const head = 'synthetic-siwis-medium, 2 streams: ';
    const deploy = pair(1.24, [1.16, 1.34], '2 processes x 1 thread, pinned', '1 process x 2 threads');
    const pin = pair(1.035, [0.79, 1.35], '2 processes x 1 thread, pinned', '2 processes x 1 thread, free');
    const free = pair(1.23, [1.11, 1.36], '2 processes x 1 thread, free', '1 process x 2 threads');
    const pinWins = pair(1.2, [1.05, 1.37], '2 processes x 1 thread, pinned', '2 processes x 1 thread, free');
    // Pinned over free within [-6%, +6.4%]: free is not slower by more than the margin.
    const pinSame = pair(1.01, [0.97, 1.05], '2 processes x 1 thread, pinned', '2 processes x 1 thread, free');
    // The README's sample of 2026-12-04: +3.5% [-18%, +31%], nothing shown either way.
    const pinReadme = pair(1.035, [0.82, 1.31], '2 processes x 1 thread, free', '2 processes x 1 thread, pinned');
    const cases = [
      // The deployment question resolved, pinned and free both, pinning not resolved: free may be 26% slower.
      { top: pin, rivals: [pin], questions: [{ pair: deploy }, { pair: free }, { pair: pin }] },
      // ... and free shown not slower than pinned by more than the margin: pinning is optional, the free one quoted.
      { top: pinSame, rivals: [pinSame], questions: [{ pair: deploy }, { pair: free }, { pair: pinSame }] },
      // The README's interval, turned round (free over pinned): not optional; pinned over free reaches +22%.
      { top: pinReadme, rivals: [pinReadme], questions: [{ pair: deploy }, { pair: free }, { pair: pinReadme }] },
      // Only the pinned one resolved over threads: run it pinned.
      { top: pin, rivals: [pin], questions: [{ pair: deploy }, { pair: pin }] },
      // Both resolved over threads, and pinned resolved over free: pinning is not optional.
      { top: pinWins, rivals: [pinWins], questions: [{ pair: deploy }, { pair: free }, { pair: pinWins }] },
      // The best resolved above every other.
      { top: deploy, rivals: [], questions: [{ pair: deploy }] },
      // Nothing resolved.
      { top: pin, rivals: [pin], questions: [{ pair: pair(1.05, [0.8, 1.3], 'X', 'Y') }] },
      // An equivalence.
      { top: undefined, rivals: undefined, questions: [{ pair: pair(1.004, [0.987, 1.021], 'X', 'Y') }] },
    ];
    const lines = cases.map((d) => headline(head, { question: undefined, ...d }, 6));
    assert.deepEqual(
      lines.map((l) => l.line),
      [
        `${head}run 2 processes x 1 thread, pinned or free (free may be up to 26% slower): +11% to +36% speech over 1 process x 2 threads`,
        `${head}run 2 processes x 1 thread, pinning optional: +11% to +36% speech over 1 process x 2 threads`,
        `${head}run 2 processes x 1 thread, pinned or free (free may be up to 18% slower): +11% to +36% speech over 1 process x 2 threads`,
        `${head}run 2 processes x 1 thread, pinned: +16% to +34% speech over 1 process x 2 threads`,
        `${head}run 2 processes x 1 thread, pinned: +16% to +34% speech over 1 process x 2 threads`,
        `${head}run 2 processes x 1 thread, pinned: +16% to +34% speech over 1 process x 2 threads`,
        `${head}no layout shown better (closest: 2 processes x 1 thread, pinned, -21% to +35% over 2 processes x 1 thread, free)`,
        `${head}no layout shown better: X or Y, within 6% (-1.3% to +2.1%)`,
      ],
    );
    for (const [i, d] of cases.entries()) {
      const one = lines[i]!;
      assert.ok(one.line.length < 160, one.line);
      const block = [one.line, ...decisionParts({ question: undefined, ...d }, 6, one.used)].join('\n');
      // Every figure (an interval, a bound pair, a change) appears once in the voice's block.
      const figures = block.match(/\[[^\]]+\]|[+-]\d+(?:\.\d)?% to [+-]\d+(?:\.\d)?%/g) ?? [];
      const asIntervals = figures.map((f) => f.replace(/^\[|\]$/g, '').replace(', ', ' to '));
      assert.equal(new Set(asIntervals).size, asIntervals.length, block);
    }
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TrialRecord } from '../../lib/capacity/schema.js';
import { CapacitySearch } from '../../lib/capacity/search.js';
import { layoutName, type Layout } from '../../lib/capacity/layouts.js';
import { capacityEntry, voiceVerdict } from '../../lib/capacity/verdict.js';

const layout: Layout = { workers: 3, threads: 1, pinned: false, isolation: 'process' };

function trial(k: number, round: number, p95: number, gaps: number, streamsWithGaps: number, etat: TrialRecord['etat'] = 'done'): TrialRecord {
  return { voix: 'synthetic-siwis-medium', disposition: layoutName(layout), flux: k, travailleurs: 3, manche: round, etat, erreur: null, debut_ms: 0, tenu: gaps === 0 && p95 <= 500, premier_son_p95_ms: p95, trous: gaps, flux_avec_trous: streamsWithGaps, retard_arrivee_max_ms: 0, debit_agrege: null, debit_par_flux: null, rss_pic_octets: [], flux_detail: [], controles: [], controle_tenu: true };
}

describe('the capacity verdict', () => {
  it('says the K that held, its first audio p95 (the worst round), and the gaps one step beyond, in words', () => {
    const trials = [trial(3, 1, 210, 0, 0), trial(4, 1, 260, 2, 1, 'stopped'), trial(3, 2, 240, 0, 0), trial(4, 2, 280, 11, 4)];
    const search = new CapacitySearch(3, 32);
    for (const t of trials) search.record(t.flux, t.tenu);
    const e = capacityEntry({ voice: 'synthetic-siwis-medium', layout, search, memoryCap: 40 }, trials, 'synthetic-siwis-medium', 32, 500);
    assert.deepEqual([e.flux_max_sans_trou, e.premier_son_p95_ms, e.trous_au_dela, e.borne, e.prediction], [3, 240, 11, 'cpu', 3]);
    assert.equal(e.phrase, 'synthetic-siwis-medium, 3 processes x 1 thread, free: 3 live streams with no gap (first audio p95 240 ms); at 4, 11 gaps in 4 of 4 streams.');
    const line = voiceVerdict('synthetic-siwis-medium', [e, { ...e, disposition: 'one process per stream x 1 thread, free', flux_max_sans_trou: 2, phrase: 'x: 2 live streams.' }], 'Memory: fine.');
    assert.equal(line, 'synthetic-siwis-medium on this machine: 3 live streams with no gap (first audio p95 240 ms), with 3 processes x 1 thread, free; at 4, 11 gaps in 4 of 4 streams. Each layout: 3 processes x 1 thread, free 3; one process per stream x 1 thread, free 2. Memory: fine.');
  });

  it('a first audio over the bound at the next K is said so; the cap and the memory bound are named', () => {
    const over = [trial(2, 1, 300, 0, 0), trial(3, 1, 640, 0, 0)];
    const s1 = new CapacitySearch(2, 32);
    for (const t of over) s1.record(t.flux, t.tenu);
    assert.match(capacityEntry({ voice: 'synthetic-siwis-medium', layout, search: s1, memoryCap: null }, over, 'v', 32, 500).phrase, /: 2 live streams with no gap \(first audio p95 300 ms\); at 3, first audio p95 640 ms, over the 500 ms bound\.$/);
    const capped = new CapacitySearch(2, 2);
    capped.record(2, true);
    const e = capacityEntry({ voice: 'synthetic-siwis-medium', layout, search: capped, memoryCap: 2 }, [trial(2, 1, 300, 0, 0)], 'v', 32, 500);
    assert.deepEqual([e.borne, e.trous_au_dela], ['memoire', null]);
    assert.match(e.phrase, /memory holds no more workers \(2\)\.$/);
    const none = new CapacitySearch(1, 32);
    none.record(1, false);
    assert.match(capacityEntry({ voice: 'synthetic-siwis-medium', layout, search: none, memoryCap: 9 }, [trial(1, 1, 700, 0, 0)], 'v', 32, 500).phrase, /: not even 1 live stream; at 1, first audio p95 700 ms, over the 500 ms bound\.$/);
  });
});

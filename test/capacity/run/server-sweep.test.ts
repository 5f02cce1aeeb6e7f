// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CapacityEntry } from '../../../lib/capacity/archive/schema.js';
import type { Layout } from '../../../lib/capacity/trial/layouts.js';
import { sweepOn } from '../sweep-harness.js';

const own: Layout = { workers: 'K', threads: 1, pinned: false, isolation: 'process' };
const oneSecond = [1, 1, 1];
const serverEntry = (a: { capacite: CapacityEntry[] }): CapacityEntry =>
  a.capacite.find((e) => e.voix === 'server') as CapacityEntry;

describe('a running server swept as a layout (fake server, virtual time)', () => {
  it('one global lock at x4.5, three 1 s sentences, listeners together: 4 live listeners, worked by hand', async () => {
    // c = 1/4.5 s per sentence, one at a time, in the order asked. Listener i's sentence 0 is ready at (i+1)c and
    // its sentence 1 at (K+i+1)c: the gap is Kc - 1 s. K = 4: 0.889 s, no gap; K = 5: 1.111 s, a 111 ms gap (over
    // the 20 ms tolerance). Pace: the server makes x4.5, x1.125 each at 4. S = 4.5 in every trial (all K asked
    // at every instant; counted by delivery, one sentence every 1/4.5 s): floor(4.5) = 4 keeps the answer.
    const { archive, server } = await sweepOn({
      machine: { cores: 2, speed: 1, audioSeconds: oneSecond },
      layouts: [own],
      firstAudioMs: 5000,
      server: { speed: 4.5, slots: 1, audioSeconds: 1, alone: true },
    });
    const e = serverEntry(archive);
    assert.deepEqual(
      archive.capacite.map((x) => x.voix),
      ['server'],
    );
    assert.deepEqual([e.flux_tenu_essais, e.flux_max_sans_trou, e.borne], [4, 4, 'cpu']);
    assert.ok(Math.abs((e.debit_vivant ?? 0) - 4.5) < 1e-6, String(e.debit_vivant));
    assert.deepEqual(
      e.preuves.filter((p) => p.flux === 4 || p.flux === 5).map((p) => [p.flux, p.essais, p.essais_tenus]),
      [
        [4, 3, 3],
        [5, 3, 0],
      ],
    );
    assert.match(e.phrase, /^the server at fake:\/\/server, a connection per listener: 4 live listeners: /);
    // The server's CPU is the work measured: its trials are checked by the measuring side's CPU instead.
    assert.ok(archive.essais.every((t) => t.controles.map((x) => x.name).join() === 'arrivals,memory,client_cpu'));
    assert.ok(server && server.asked.length > 0);
    assert.equal(archive.controle_tenu, true);
    assert.deepEqual(archive.protocole.dispositions.at(-1)?.isolation, 'server');
  });

  it('a one-sentence reply, listeners arriving over one sentence: pace is judged while loaded, not over the stagger', async () => {
    // Every connection served at once at x10: a 1.2 s sentence takes 120 ms. Listeners arrive over 1.2 s, so the trial's
    // whole span is about the stagger, and audio over it falls under x1 a listener past 10 (x0.94 at 32) though no
    // listener waits. Judged over that span (the rule before 2026-12-04) it answered 13; while loaded, it serves the
    // sweep's cap, with S published.
    const reply = { machine: { cores: 2, speed: 1, audioSeconds: [1.2] }, layouts: [own], firstAudioMs: 5000 };
    const free = await sweepOn({
      ...reply,
      arrivals: 'staggered',
      server: { speed: 10, slots: 1000, audioSeconds: 1.2, alone: true },
    });
    const e = serverEntry(free.archive);
    assert.ok(e.flux_max_sans_trou >= 20, e.phrase);
    assert.ok(e.debit_vivant !== null && e.debit_vivant_ic95 !== null && e.prevision !== null, e.phrase);
    assert.ok(free.archive.essais.some((t) => t.au_rythme === true && (t.debit_par_flux ?? 1) < 1));
    // The same server behind one lock makes x10 in all: never more than 10 listeners.
    const locked = await sweepOn({
      ...reply,
      arrivals: 'staggered',
      server: { speed: 10, slots: 1, audioSeconds: 1.2, alone: true },
    });
    const l = serverEntry(locked.archive);
    assert.ok(l.flux_max_sans_trou <= 10 && l.flux_max_sans_trou >= 8, l.phrase);
    assert.ok(Math.abs((l.debit_vivant ?? 0) - 10) < 1e-6, l.phrase);
  });

  it('no lock, two sentences at once at x3.2 each: 6 live listeners, worked by hand', async () => {
    // c = 1/3.2 s, two at a time. K = 6: each listener waits 3c = 0.94 s between its sentences, no gap. K = 7:
    // listener 0's sentence 2 is ready at 8c = 2.5 s, its sentence 1 ended at 7.4c = 2.31 s: a 190 ms gap.
    const { archive } = await sweepOn({
      machine: { cores: 2, speed: 1, audioSeconds: oneSecond },
      layouts: [own],
      firstAudioMs: 5000,
      server: { speed: 3.2, slots: 2, audioSeconds: 1, alone: true },
    });
    const e = serverEntry(archive);
    assert.deepEqual([e.flux_tenu_essais, e.flux_max_sans_trou], [6, 6]);
    assert.ok(e.preuves.some((p) => p.flux === 7 && p.essais_tenus === 0));
  });

  it('side by side with a local voice, in the same rounds: the sentence names both answers', async () => {
    // The machine as in the sweep tests (x1.25 per listener on 2 cores: 2 live listeners with a process each).
    const { archive } = await sweepOn({
      machine: { cores: 2, speed: 1.25, audioSeconds: oneSecond },
      layouts: [own],
      firstAudioMs: 5000,
      server: { speed: 4.5, slots: 1, audioSeconds: 1 },
    });
    assert.deepEqual(
      archive.capacite.map((x) => [x.voix, x.flux_max_sans_trou]),
      [
        ['fake-voice', 2],
        ['server', 4],
      ],
    );
    // Interleaved: the server's trials and the local ones alternate within each round.
    const rounds = new Set(archive.essais.filter((t) => t.voix === 'server').map((t) => t.manche));
    assert.ok(rounds.size >= 2, String([...rounds]));
    assert.ok(
      archive.phrases.some((p) =>
        /^Side by side, same text and arrivals, in the same rounds: the server at fake:\/\/server: 4 live listener\(s\).*; fake-voice here, one process per stream x 1 thread, free: 2/.test(
          p,
        ),
      ),
      archive.phrases.join('\n'),
    );
  });

  it('a server that dies mid-run ends its sweep, says which server and why, and the run does not hold', async () => {
    const { archive } = await sweepOn({
      machine: { cores: 2, speed: 1, audioSeconds: oneSecond },
      layouts: [own],
      firstAudioMs: 5000,
      server: { speed: 4.5, slots: 1, audioSeconds: 1, alone: true, diesAt: 30 },
    });
    const e = serverEntry(archive);
    assert.equal(e.borne, 'erreur');
    assert.match(
      e.phrase,
      /the sweep broke: K=\d+: worker \d+ failed: server fake:\/\/server, connection \d+: the server closed/,
    );
    assert.equal(archive.controle_tenu, false);
    // What was measured before is kept.
    assert.ok(archive.essais.filter((t) => t.etat === 'done').length >= 2);
  });

  it('an audio format that changes fails the trial, naming both formats', async () => {
    const { archive } = await sweepOn({
      machine: { cores: 2, speed: 1, audioSeconds: oneSecond },
      layouts: [own],
      firstAudioMs: 5000,
      server: { speed: 4.5, slots: 1, audioSeconds: 1, alone: true, formatChangesAt: 5 },
    });
    assert.match(
      serverEntry(archive).phrase,
      /audio format control: the server first sent 16000 Hz, 16-bit, 1 channel\(s\), now 22050 Hz, 16-bit, 1 channel\(s\)/,
    );
    assert.equal(archive.controle_tenu, false);
  });
});

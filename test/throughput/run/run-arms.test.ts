import assert from 'node:assert/strict';
import { SESSION_SETTINGS } from '../../../lib/voice/session-profile.js';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ArchiveSchema } from '../../../lib/throughput/schema.js';
import { PiperParallelError } from '../../../lib/core/errors.js';
import { fileURLToPath } from 'node:url';
import { ProcessAdapter } from '../../../lib/workers/process-adapter.js';
import { ThreadAdapter } from '../../../lib/workers/thread-adapter.js';
import { planRun } from '../../../lib/throughput/run/plan.js';
import { machineBlock, machineFingerprint } from '../../../lib/measure/machine.js';
import { runArms } from '../../../lib/throughput/run/run-arms.js';
import { resolveVoice } from '../../../lib/voice/load.js';
import { sharedVoicesDir, tempDir } from '../../helpers/paths.js';

const FAULTY = fileURLToPath(new URL('../../fixtures/faulty-stream.js', import.meta.url));
const SPIN = fileURLToPath(new URL('../../../lib/throughput/worker/spin-stream.js', import.meta.url));
const HANGING_THREAD = fileURLToPath(new URL('../../fixtures/hanging-thread.js', import.meta.url));

describe('runArms end to end (synthetic voice, one short sentence, 2 passes)', () => {
  it('runs the four default conditions and writes an archive that matches the schema', async () => {
    const outDir = tempDir('out');
    const events: string[] = [];
    const r = await runArms({
      settleSeconds: 0,
      passes: 2,
      rounds: 2,
      warmup: 1,
      voices: ['synthetic-siwis-medium'],
      lines: ['Oui.', 'Non merci.'],
      outDir,
      voicesDir: sharedVoicesDir(),
      label: 'test vm',
      onProgress: (e) => events.push(e.kind),
    });
    const onDisk = ArchiveSchema.parse(JSON.parse(readFileSync(r.path, 'utf8')));
    // --label reaches the archive, for summary.
    assert.equal(onDisk.etiquette, 'test vm');
    // The default profile, named in the archive.
    assert.equal(onDisk.protocole.profil_session, 'piper-tts');
    assert.equal(onDisk.protocole.session_onnxruntime, SESSION_SETTINGS['piper-tts'].label);
    assert.match(path.basename(r.path), /^piper-parallel-\d{8}-\d{6}\.json$/);
    assert.equal(onDisk.bras.length, 4);
    assert.deepEqual(
      onDisk.bras.map((b) => [b.flux_simultanes, b.fils_par_flux, b.affinite_demandee]),
      [
        [1, 1, false],
        [2, 1, false],
        [2, 1, true],
        [1, 2, false],
      ],
    );
    for (const b of onDisk.bras) {
      assert.equal(b.etat, 'done');
      assert.equal(b.voix_synthetique, true);
      assert.equal(b.enfants.length, b.flux_simultanes);
      for (const e of b.enfants) {
        assert.equal(e.passes.length, 2);
        // 2 passes: 2 rounds of 1, each starting the streams afresh with its own warm-up.
        assert.deepEqual(
          e.passes.map((p) => p.manche),
          [1, 2],
        );
        assert.equal(e.echauffement.length, 2);
        // A warm-up pass is every sentence (the longest first): the same audio as a timed pass.
        for (const w of e.echauffement) {
          const timed = e.passes[0]?.audio_s ?? 0;
          assert.ok(Math.abs(w.audio_s - timed) < 1e-9, `warm-up ${w.audio_s} s, timed ${timed} s`);
        }
        // A process that loaded the voice's model peaks above the model's size (VmHWM, after each pass).
        assert.ok((e.rss_pic_octets ?? 0) > onDisk.voix[0]!.taille_octets, `peak RSS ${e.rss_pic_octets}`);
        assert.ok(e.phonemisation_s !== null && e.phonemisation_s > 0);
      }
      assert.equal(b.synchro.length, 4);
      assert.deepEqual(
        b.manches.map((m) => m.manche),
        [1, 2],
      );
      // The arm holds exactly when every control it took held.
      assert.equal(
        b.controle_tenu,
        b.controles.every((c) => c.held),
      );
      assert.ok(b.controles.some((c) => c.name === 'affinity'));
      assert.equal(
        b.controles.some((c) => c.name === 'cpu_sum'),
        b.flux_simultanes >= 2,
      );
    }
    const pinned = onDisk.bras[2]!;
    assert.deepEqual(
      pinned.affinites_vues.map((s) => s.length),
      [1, 1],
    );
    assert.equal(
      onDisk.controle_tenu,
      onDisk.bras.every((b) => b.controle_tenu),
    );
    assert.equal(onDisk.voix[0]?.synthetique, true);
    assert.equal(onDisk.protocole.texte.phrases, 2);
    // The partial file goes away once the archive lands.
    assert.deepEqual(readdirSync(path.join(outDir, '.partial')), []);
    assert.ok(events.includes('arm-end') && events.includes('pass') && events.includes('round-arm-end'));
    // Each round ran every arm once, in its own shuffled order, and the archive says so.
    assert.equal(onDisk.manches.length, 2);
    for (const m of onDisk.manches)
      assert.deepEqual(
        [...m.ordre].sort(),
        onDisk.bras
          .map(
            (b) => `${b.voix} K=${b.flux_simultanes} T=${b.fils_par_flux} ${b.affinite_demandee ? 'pinned' : 'free'}`,
          )
          .sort(),
      );
    assert.deepEqual(onDisk.arret, { raison: 'planned', manches: 2, detail: 'the 2 planned round(s) ran' });
    // 2 passes, 2 rounds of 1; the seed drawn at random and archived.
    assert.equal(onDisk.protocole.manches_prevues, 2);
    assert.ok(
      Number.isInteger(onDisk.protocole.graine) && onDisk.protocole.graine >= 1,
      `seed ${onDisk.protocole.graine}`,
    );
  });

  it('an interrupted run keeps its partial file and lets its lock go, so another process may resume it', async () => {
    const outDir = tempDir('out');
    const controller = new AbortController();
    const exitListeners = process.listenerCount('exit');
    const err = await runArms({
      settleSeconds: 0,
      passes: 1,
      voices: ['synthetic-siwis-medium'],
      streams: [1],
      lines: ['Oui.'],
      outDir,
      voicesDir: sharedVoicesDir(),
      signal: controller.signal,
      onProgress: (e) => {
        if (e.kind === 'start') controller.abort();
      },
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof PiperParallelError, String(err));
    const left = readdirSync(path.join(outDir, '.partial'));
    assert.equal(left.filter((f) => f.endsWith('.jsonl')).length, 1, left.join(' '));
    assert.deepEqual(
      left.filter((f) => f.endsWith('.lock')),
      [],
    );
    assert.equal(process.listenerCount('exit'), exitListeners);
  });

  it("an arm whose onnxruntime session.run throws fails with onnxruntime's own message, the run goes on, nothing may be published", async () => {
    const outDir = tempDir('out');
    const adapter = new ProcessAdapter({ entry: FAULTY, args: (rang) => ['throw-in-pass', String(rang)] });
    const r = await runArms({
      settleSeconds: 0,
      passes: 1,
      warmup: 0,
      voices: ['synthetic-siwis-medium'],
      streams: [1],
      lines: ['Oui.'],
      outDir,
      voicesDir: sharedVoicesDir(),
      adapters: { process: adapter },
    });
    assert.equal(r.archive.controle_tenu, false);
    assert.equal(r.archive.bras[0]?.etat, 'failed');
    // Raised inside session.run by the model's own Gather on ids beyond the voice's table.
    assert.match(
      r.archive.bras[0]?.erreur ?? '',
      /stream 0 failed during pass 0: onnxruntime failed while synthesizing with synthetic-siwis-medium \(.*(out of|bounds|range|idx).*\)/i,
    );
    assert.ok(existsSync(r.path));
  });

  it('a pass that measures zero audio fails its arm with a message, not run again in later rounds; the other arm runs and the archive lands', async () => {
    let spawned = 0;
    // The first stream started, whichever arm the round put first, reports no audio.
    const inner = new ProcessAdapter({ entry: SPIN, args: () => [spawned <= 1 ? 'zero-audio' : 'normal', '50'] });
    const sessions: unknown[] = [];
    const adapter = {
      isolation: 'process' as const,
      spawn: (o: { rang: number; core: number | undefined }) => {
        spawned += 1;
        const w = inner.spawn(o);
        const send = w.send.bind(w);
        // What each worker is told to run: the profile asked, not the default.
        w.send = (m) => {
          if (m.type === 'init') sessions.push(m.engine && m.engine.kind === 'onnxruntime' ? m.engine.session : null);
          send(m);
        };
        return w;
      },
    };
    const r = await runArms({
      settleSeconds: 0,
      passes: 2,
      rounds: 2,
      warmup: 0,
      voices: ['synthetic-siwis-medium'],
      lines: ['Oui.'],
      outDir: tempDir('out'),
      voicesDir: sharedVoicesDir(),
      adapters: { process: adapter },
      session: 'libpiper',
      conditions: [
        { flux: 1, fils: 1, affinite: false, isolation: 'process' },
        { flux: 1, fils: 2, affinite: false, isolation: 'process' },
      ],
    });
    assert.deepEqual(sessions, ['libpiper', 'libpiper', 'libpiper']);
    assert.equal(r.archive.protocole.profil_session, 'libpiper');
    const zero = r.archive.bras.find((b) => b.etat === 'failed');
    const next = r.archive.bras.find((b) => b !== zero);
    assert.match(zero?.erreur ?? '', /^stream 0 pass 0 measured 0 s of audio, so it has no throughput/);
    assert.equal(next?.etat, 'done');
    // Failed in round 1, so not started again in round 2; the other arm ran in both.
    assert.deepEqual([zero?.manches.length, next?.manches.length], [1, 2]);
    assert.ok(existsSync(r.path));
    assert.equal(r.archive.controle_tenu, false);
  });

  it('settles inside a real run: a busy machine is waited for, up to --settle, and what was seen is archived', async () => {
    // A reader that shows other programs using one whole core, always.
    let ticks = 0;
    const busy = {
      snapshot: () => {
        ticks += 100;
        return { systemBusyTicks: ticks, ownTicks: 0, atMs: ticks * 10 };
      },
    };
    const r = await runArms({
      settleSeconds: 1,
      cpuSampler: busy,
      passes: 1,
      warmup: 0,
      voices: ['synthetic-siwis-medium'],
      streams: [1],
      lines: ['Oui.'],
      outDir: tempDir('out'),
      voicesDir: sharedVoicesDir(),
    });
    const waited = r.archive.machine_detail.attente;
    assert.deepEqual([waited?.attendu_s, waited?.limite_s, waited?.calme, waited?.vu.length], [1, 1, false, 2]);
    assert.ok(waited?.vu.every((v) => v.autre_cpu_coeurs === 1));
    // The same reader, around the timed pass, fails the arm's outside-load control.
    const outside = r.archive.bras[0]?.controles.find((c) => c.name === 'outside_load');
    assert.deepEqual([outside?.held, outside?.measured], [false, 100]);
  });

  it('--resume refuses a partial file whose voice changed, or that was written on another machine', async () => {
    const voice = await resolveVoice('synthetic-siwis-medium', sharedVoicesDir());
    const header = (voiceSha: string, machine: string) => ({
      base: 'piper-parallel-20260101-000000',
      date_utc: '2026-01-01T00:00:00.000Z',
      machine,
      passes: 1,
      warmup: 0,
      rounds: 1,
      seed: 1,
      precisionPct: null,
      maxMinutes: null,
      conditions: [{ flux: 1, fils: 1, affinite: false, isolation: 'process' }],
      text: { source: 'lines', lines: ['Oui.'], sha256: 'x' },
      voices: [{ name: 'synthetic-siwis-medium', sha256: voiceSha }],
      command: 'test',
    });
    const partial = (h: unknown): string => {
      const file = path.join(tempDir('partial'), 'run.jsonl');
      writeFileSync(file, `${JSON.stringify({ kind: 'header', header: h })}\n`);
      return file;
    };
    await assert.rejects(
      runArms({ resume: partial(header('0'.repeat(64), 'x')), settleSeconds: 0, voicesDir: sharedVoicesDir() }),
      /--resume: voice synthetic-siwis-medium changed since the interrupted run \(sha256 000000000000 then, [0-9a-f]{12} now\); start a new run/,
    );
    await assert.rejects(
      runArms({
        resume: partial(header(voice.sha256, 'arm64|Other CPU|64 cores|64 usable|512 GiB')),
        settleSeconds: 0,
        voicesDir: sharedVoicesDir(),
      }),
      /--resume: the interrupted run was on another machine \(arm64\|Other CPU\|64 cores\|64 usable\|512 GiB; this one is .*\); start a new run/,
    );
    // The interrupted run asked for --redact: a resume with --resume alone keeps it (run-arms publishes by the header).
    const here = machineFingerprint(await machineBlock());
    for (const redact of [true, undefined]) {
      const plan = await planRun({
        resume: partial({ ...header(voice.sha256, here), ...(redact ? { redact } : {}) }),
        settleSeconds: 0,
        voicesDir: sharedVoicesDir(),
      });
      plan.partialLog?.unlock();
      assert.equal(plan.header.redact, redact === true);
    }
  });

  it('a sequential run stops at the look that answers its question, and within its budget, saying why', async () => {
    // Spinning streams, 600 ms passes: 2 processes give twice what 1 process declared T=2 gives,
    // round after round; a quiet CPU reader. Passes of 200 ms made the 2-stream arm's start_skew
    // limit 4 ms, which a process start passed once in CI here (6.7 ms): 600 ms gives 12 ms.
    const spin = new ProcessAdapter({ entry: SPIN, args: () => ['normal', '600'] });
    const quiet = { snapshot: () => ({ systemBusyTicks: 0, ownTicks: 0, atMs: performance.now() }) };
    const conditions = [
      { flux: 2, fils: 1, affinite: false, isolation: 'process' as const },
      { flux: 1, fils: 2, affinite: false, isolation: 'process' as const },
    ];
    const base = {
      settleSeconds: 0,
      passes: 3,
      warmup: 0,
      voices: ['synthetic-siwis-medium'],
      lines: ['Oui.'],
      voicesDir: sharedVoicesDir(),
      adapters: { process: spin },
      cpuSampler: quiet,
      conditions,
    };
    const looks: string[] = [];
    const answered = await runArms({
      ...base,
      outDir: tempDir('out'),
      onProgress: (e) => void (e.kind === 'look' && looks.push(`${e.look}:${e.open.length}:${e.stop ?? ''}`)),
    });
    const a = answered.archive;
    assert.equal(a.controle_tenu, true, JSON.stringify(a.bras.map((b) => b.controles.filter((c) => !c.held))));
    assert.deepEqual(a.protocole.sequentiel?.regards_manches, [3, 4, 5, 6, 7]);
    // The ratio is 2 with little spread: answered at the first look, after 3 rounds, and the run stops there.
    assert.deepEqual([a.arret.raison, a.arret.manches, a.manches.length], ['answered', 3, 3]);
    assert.deepEqual(looks, ['1:0:every question answered after 3 round(s)']);
    const [q] = a.verdict.questions ?? [];
    assert.deepEqual([q?.genre, q?.reponse, q?.regard, q?.manches], ['deployment', 'winner', 1, 3]);
    assert.ok((q?.rapport ?? 0) > 1.5 && (q?.ic?.[0] ?? 0) > 1, JSON.stringify(q));
    assert.match(
      a.verdict.comparaisons[0]?.decision ?? '',
      /run 2 processes x 1 thread, free: \+\d+% \[\+\d+%, \+\d+%\] over 1 process x 2 threads/,
    );
    // A 0.01-minute budget: no second round fits; it stops after one, says why, and answers nothing.
    const cut = await runArms({ ...base, outDir: tempDir('out'), maxMinutes: 0.01 });
    assert.deepEqual([cut.archive.arret.raison, cut.archive.manches.length], ['time', 1]);
    assert.match(
      cut.archive.arret.detail,
      /^another round \(about \d+ s\) would pass the 0\.01-minute budget after 1 round\(s\)$/,
    );
    assert.equal(cut.archive.verdict.questions?.[0]?.reponse, 'not-resolved');
    // --rounds fixes the run: exactly the rounds asked, no look.
    const fixed = await runArms({ ...base, rounds: 2, passes: 2, outDir: tempDir('out') });
    assert.deepEqual([fixed.archive.arret.raison, fixed.archive.manches.length], ['planned', 2]);
    assert.equal(fixed.archive.protocole.sequentiel, undefined);
    assert.equal(fixed.archive.verdict.questions, undefined);
  });

  it('refuses bad input before measuring anything', async () => {
    const outDir = tempDir('out');
    await assert.rejects(
      runArms({ passes: 0, outDir }),
      (e: unknown) =>
        e instanceof PiperParallelError && e.code === 'USAGE' && /passes must be a whole number >= 1/.test(e.message),
    );
    await assert.rejects(runArms({ streams: [0], outDir }), /--streams takes whole numbers >= 1/);
    await assert.rejects(
      runArms({ voices: ['fr_FR-nobody-medium'], outDir, voicesDir: tempDir('novoices') }),
      /voice "fr_FR-nobody-medium" is not in .* \(installed: none\); run `piper-parallel voices fetch fr_FR-nobody-medium`/,
    );
    await assert.rejects(runArms({ lines: ['  ', ''], outDir }), /the text has no sentence/);
    await assert.rejects(
      runArms({ passes: 2, rounds: 3, outDir }),
      /--rounds 3 is more than the 2 passes to split between them/,
    );
    await assert.rejects(runArms({ rounds: 0, outDir }), /--rounds must be a whole number >= 1, got 0/);
    await assert.rejects(
      runArms({ precision: 5, outDir }),
      /--precision was retired: a run without --rounds now stops when its questions are answered; bound it with --max-minutes M, or fix its cost with --rounds R/,
    );
    await assert.rejects(runArms({ maxMinutes: -1, outDir }), /--max-minutes must be a number of minutes above 0/);
    await assert.rejects(
      runArms({ margin: 0, outDir }),
      /--margin must be a percentage between 0 and 50, got 0; e.g. --margin 6/,
    );
    assert.deepEqual(
      readdirSync(outDir).filter((f) => f.endsWith('.json')),
      [],
    );
  });

  it('draws the seed at random unless given, and defaults to one pass per round and a 6% margin', async () => {
    const options = {
      voices: ['synthetic-siwis-medium'],
      voicesDir: sharedVoicesDir(),
      outDir: tempDir('out'),
      settleSeconds: 0,
    };
    const seeds: number[] = [];
    for (let i = 0; i < 3; i += 1) seeds.push((await planRun(options)).seed);
    assert.equal(new Set(seeds).size, 3, `seeds ${seeds.join(', ')}`);
    const given = await planRun({ ...options, seed: 42, passes: 4, rounds: 4, margin: 3 });
    assert.deepEqual(
      [given.seed, given.protocole.graine, given.rounds, given.marginPct, given.protocole.marge_equivalence_pct],
      [42, 42, 4, 3, 3],
    );
    assert.equal(given.looks, null);
    // Without --rounds the default conditions make a sequential run: looks after 2N/3, then every N/3 rounds.
    const sequential = await planRun({ ...options, passes: 6 });
    assert.deepEqual([sequential.looks, sequential.rounds, sequential.maxMinutes], [[4, 6, 8, 10, 12], 12, 10]);
    assert.deepEqual(sequential.protocole.sequentiel?.regards_manches, [4, 6, 8, 10, 12]);
    assert.equal(sequential.protocole.sequentiel?.questions_par_voix, 3);
    assert.equal((await planRun(options)).marginPct, 6);
  });
});

describe('runArms with thread isolation (piscina workers, SharedArrayBuffer barrier)', () => {
  it('runs K=2 pinned and K=1 T=2 as threads, with per-thread CPU and the same archive shape', async () => {
    const outDir = tempDir('out');
    const r = await runArms({
      settleSeconds: 0,
      passes: 2,
      rounds: 2,
      warmup: 1,
      voices: ['synthetic-siwis-medium'],
      lines: ['Bonjour tout le monde.'],
      outDir,
      voicesDir: sharedVoicesDir(),
      conditions: [
        { flux: 2, fils: 1, affinite: true, isolation: 'thread' },
        { flux: 1, fils: 2, affinite: false, isolation: 'thread' },
      ],
    });
    const [pinned, twoThreads] = r.archive.bras;
    assert.equal(pinned?.isolation, 'thread');
    assert.equal(pinned?.etat, 'done', pinned?.erreur ?? '');
    assert.deepEqual(
      pinned?.affinites_vues.map((s) => s.length),
      [1, 1],
    );
    assert.equal(new Set(pinned?.affinites_vues.map((s) => s[0])).size, 2);
    // Per-thread accounting: a single-threaded stream cannot show the whole process's 2 threads' worth.
    for (const e of pinned?.enfants ?? [])
      assert.ok((e.resume.cpu_pourcent.max ?? 0) < 150, `${e.resume.cpu_pourcent.max}`);
    assert.equal(twoThreads?.etat, 'done');
    // Its CPU counts the onnxruntime pool thread its session made: about 200%, where its own thread alone is about 100%.
    assert.ok(
      (twoThreads?.enfants[0]?.resume.cpu_pourcent.mediane ?? 0) > 140,
      `K=1 T=2 thread CPU ${twoThreads?.enfants[0]?.resume.cpu_pourcent.mediane}%`,
    );
    assert.equal(twoThreads?.enfants[0]?.passes.length, 2);
    assert.equal(
      r.archive.bras.every((b) => b.controle_tenu === b.controles.every((c) => c.held)),
      true,
    );
  });

  it("isolation 'both' runs every condition as processes and as threads, in one archive", async () => {
    const r = await runArms({
      settleSeconds: 0,
      passes: 1,
      warmup: 0,
      voices: ['synthetic-siwis-medium'],
      streams: [2],
      isolation: 'both',
      lines: ['Oui.'],
      outDir: tempDir('out'),
      voicesDir: sharedVoicesDir(),
    });
    assert.deepEqual(
      r.archive.bras.map((b) => [b.isolation, b.flux_simultanes, b.etat]),
      [
        ['process', 2, 'done'],
        ['thread', 2, 'done'],
      ],
    );
    // Processes have their own pids; threads report the parent's.
    assert.notEqual(r.archive.bras[0]?.enfants[0]?.pid, process.pid);
    assert.deepEqual(
      r.archive.bras[1]?.enfants.map((e) => e.pid),
      [process.pid, process.pid],
    );
  });

  it('a thread stream that never reaches the barrier fails the arm in bounded time, and the next arm still runs', async () => {
    const t0 = Date.now();
    const r = await runArms({
      settleSeconds: 0,
      passes: 1,
      warmup: 0,
      voices: ['synthetic-siwis-medium'],
      lines: ['Oui.'],
      outDir: tempDir('out'),
      voicesDir: sharedVoicesDir(),
      conditions: [{ flux: 2, fils: 1, affinite: false, isolation: 'thread' }],
      adapters: { thread: new ThreadAdapter({ entry: HANGING_THREAD }) },
      timeouts: { barrierMs: 1500 },
    });
    assert.equal(r.archive.bras[0]?.etat, 'timed-out');
    assert.match(r.archive.bras[0]?.erreur ?? '', /at the barrier of pass 0: no answer within 2 s from stream 0/);
    assert.ok(Date.now() - t0 < 60_000);
  });
});

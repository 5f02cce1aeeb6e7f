import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { CapacityArchiveSchema } from '../../lib/capacity/archive/schema.js';
import { BIN, tempDir } from '../helpers/paths.js';
import { startHttpServer, startWyomingServer, type RunningServer } from '../helpers/speech-servers.js';
import { startWyomingPiper, type WyomingPiperServer } from '../helpers/wyoming-piper-server.js';

/** The CLI as a child; asynchronous, so the test servers in this process keep answering. */
function cli(args: string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 300_000 }, (err, stdout, stderr) =>
      resolve({ status: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
    );
  });
}

const running: RunningServer[] = [];
const stops: WyomingPiperServer[] = [];
after(async () => {
  for (const s of [...running, ...stops]) await s.close();
});

function workload(): { dir: string; args: string[] } {
  const dir = tempDir('server-cli');
  writeFileSync(path.join(dir, 't.txt'), 'Bonjour.\nComment allez-vous ?\nTrès bien, merci.\n');
  const args = ['--text-file', 't.txt', '--arrivals', 'together', '--first-audio-ms', '5000', '--prebuffer-ms', '0'];
  return { dir, args: [...args, '--settle', '0', '--seed', '3', '--out-dir', path.join(dir, 'm'), '--json'] };
}

describe('piper-parallel capacity --server, against test servers on loopback (real sockets, real time)', () => {
  it('wyoming, one global lock at x4.5, 0.45 s sentences: 4 live listeners, as worked by hand', async () => {
    // 100 ms a sentence, one at a time: listener i waits K x 100 ms between its sentences, each 450 ms long. K = 4:
    // 400 ms, no gap (50 ms to spare); K = 5: 500 ms, a 50 ms gap, and x0.9 a listener. Real sockets and timers
    // jitter by a few ms: the slack is 1 listener for the staircase (stated), and the answer may be capped one
    // lower by S's lower bound.
    const server = await startWyomingServer({ speed: 4.5, slots: 1, audioSeconds: 0.45 });
    running.push(server);
    const { dir, args } = workload();
    // Three rounds: an answer is published only on 3 whole trials at its K.
    const r = await cli(
      [
        'capacity',
        '--server',
        server.url,
        '--max-streams',
        '6',
        '--rounds',
        '3',
        '--server-timeout-s',
        '2147483',
        ...args,
      ],
      dir,
    );
    assert.equal(r.status, 0, r.stderr);
    const a = CapacityArchiveSchema.parse(JSON.parse(r.stdout));
    const e = a.capacite[0];
    assert.ok(e && a.capacite.length === 1);
    assert.ok(Math.abs(e.flux_tenu_essais - 4) <= 1, e.phrase);
    assert.ok(e.flux_max_sans_trou <= e.flux_tenu_essais && e.flux_max_sans_trou >= 3, e.phrase);
    // S is the server's own pace under load: x4.5, less what the sockets cost.
    assert.ok((e.debit_vivant ?? 0) > 4 && (e.debit_vivant ?? 0) <= 4.6, String(e.debit_vivant));
    assert.equal(a.serveur?.protocole, 'wyoming');
    assert.deepEqual(a.serveur?.format_audio, { rate: 16000, width: 2, channels: 1 });
    assert.equal(a.serveur?.repond_apres, true);
    assert.match(a.serveur?.dit ?? '', /test-piper; voices test-voice/);
    assert.ok(a.essais.every((t) => t.controles.some((c) => c.name === 'client_cpu' && c.held)));
    assert.match(r.stderr, /^server: one connection alone x[\d.]+ real time, sentences [\d.]+, [\d.]+, [\d.]+ s/m);
    assert.match(
      r.stderr,
      new RegExp(
        `^ {2}the server at tcp://127\\.0\\.0\\.1:${server.port} on this machine \\(3-sentence replies\\): at most \\d live listeners`,
        'm',
      ),
    );
    assert.match(
      r.stderr,
      new RegExp(
        `^the server at tcp://127\\.0\\.0\\.1:${server.port}: (plan on \\d live listeners? with a connection per listener|no number to plan on: with a connection per listener, a rerun may not serve even one) \\(3-sentence replies\\)$`,
        'm',
      ),
    );
    // Every sentence kept its chunk timeline: any pre-buffer can be replayed later.
    assert.ok(a.essais.every((t) => t.flux_detail.every((s) => s.phrases.length === 3)));
    assert.equal(server.connections(), 0);
    const html = readFileSync(
      path.join(dir, 'm', readdirSync(path.join(dir, 'm')).find((f) => f.endsWith('.html')) ?? ''),
      'utf8',
    );
    assert.match(html, /the server at tcp:\/\/127\.0\.0\.1/);
  });

  it('http, piper1-gpl 1.4-style (POST / with JSON only), no lock, two at once at x3.2: measured, 6 live listeners, within 1', async () => {
    // 141 ms a sentence, two at a time: a listener waits about K/2 x 141 ms between its 450 ms sentences. K = 6: 422 ms,
    // no gap (28 ms to spare); K = 7: about 490 ms, gaps. Slack: 1 listener (stated), on real sockets and timers.
    const server = await startHttpServer({ speed: 3.2, slots: 2, audioSeconds: 0.45, release: 'root-json' });
    running.push(server);
    const { dir, args } = workload();
    // The longest --server-timeout-s: every wait on it still holds (a timer past 2^31-1 ms fired at once: exit 3).
    const longest = ['--server-timeout-s', '2147483'];
    const r = await cli(
      ['capacity', '--server', server.url, '--max-streams', '8', '--rounds', '1', ...longest, ...args],
      dir,
    );
    assert.equal(r.status, 0, r.stderr);
    const a = CapacityArchiveSchema.parse(JSON.parse(r.stdout));
    assert.deepEqual(
      [a.serveur?.protocole, a.serveur?.point, a.serveur?.requete, a.serveur?.envoi],
      ['http', '/', 'root-json', 'phrase'],
    );
    assert.ok(Math.abs((a.capacite[0]?.flux_tenu_essais ?? 0) - 6) <= 1, a.capacite[0]?.phrase);
  });

  it('a server that dies mid-run: exit 3, what was measured archived, no connection left; one not there: exit 1, one line', async () => {
    // Calibration takes 3 sentences, K = 3 (the first K tried) 9: the server dies 5 sentences into the trial at 4.
    const server = await startWyomingServer({ speed: 4.5, slots: 1, audioSeconds: 0.3, dieAfter: 17 });
    running.push(server);
    const { dir, args } = workload();
    const r = await cli(['capacity', '--server', server.url, '--max-streams', '6', '--rounds', '1', ...args], dir);
    assert.equal(r.status, 3, r.stderr);
    const a = CapacityArchiveSchema.parse(JSON.parse(r.stdout));
    assert.equal(a.controle_tenu, false);
    assert.equal(a.serveur?.repond_apres, false);
    assert.match(
      a.capacite[0]?.phrase ?? '',
      /the sweep broke: .*server tcp:\/\/127\.0\.0\.1:\d+, connection \d+: the server closed the connection/,
    );
    assert.ok(a.essais.some((t) => t.etat === 'done'));
    const gone = await cli(['capacity', '--server', server.url, ...args], dir);
    assert.equal(gone.status, 1);
    assert.match(
      gone.stderr.trim(),
      new RegExp(
        `^piper-parallel: --server tcp://127\\.0\\.0\\.1:${server.port}: the connection failed: connect ECONNREFUSED[^\\n]*$`,
      ),
    );
  });
});

describe('piper-parallel capacity --server --text-rate, a streaming Wyoming server fed as a language model writes', () => {
  it("text faster than speech: the lock's 4 listeners, within 1; text slower than speech: a gap, nothing served", async () => {
    // One lock at x4.5, 0.45 s sentences (100 ms each). At 1000 characters a second a reply is written in 51 ms: the
    // capacity is the lock's, 4 (as without streaming; slack 1). At 20 a second, one listener: "Bonjour. " is whole at
    // 0.45 s, ready at 0.55 s and heard until 1.0 s; "Comment allez-vous ? " is whole only at 1.5 s: a 0.6 s gap.
    const server = await startWyomingServer({ speed: 4.5, slots: 1, audioSeconds: 0.45, streaming: true });
    running.push(server);
    const held: number[] = [];
    for (const [rate, most] of [
      ['1000', '6'],
      ['20', '1'],
    ] as const) {
      const { dir, args } = workload();
      const r = await cli(
        ['capacity', '--server', server.url, '--text-rate', rate, '--max-streams', most, '--rounds', '1', ...args],
        dir,
      );
      assert.equal(r.status, 0, r.stderr);
      const a = CapacityArchiveSchema.parse(JSON.parse(r.stdout));
      assert.deepEqual([a.serveur?.envoi, a.serveur?.debit_texte_cps], ['flux', Number(rate)]);
      held.push(a.capacite[0]?.flux_tenu_essais ?? -1);
      if (rate === '20')
        assert.match(a.capacite[0]?.phrase ?? '', /not even 1 live listener with no gap; at 1, gaps in 1 of 1 trial/);
    }
    assert.ok(Math.abs((held[0] ?? 0) - 4) <= 1 && held[1] === 0, String(held));
  });

  it('refuses --text-rate for a server that does not stream, and without --server, one line each', async () => {
    const server = await startWyomingServer({ speed: 20, slots: 1, audioSeconds: 0.3 });
    running.push(server);
    const { dir, args } = workload();
    const r = await cli(['capacity', '--server', server.url, '--text-rate', '40', ...args], dir);
    assert.equal(r.status, 2);
    assert.match(
      r.stderr.trim(),
      /^piper-parallel: --text-rate needs a server that takes streaming text in .*: leave --text-rate out$/,
    );
    const none = await cli(['capacity', '--text-rate', '40', ...args], dir);
    assert.equal(none.status, 2);
    assert.match(
      none.stderr.trim(),
      /^piper-parallel: --text-rate feeds a server streaming text: give --server tcp:\/\/HOST:PORT too$/,
    );
  });
});

describe('piper-parallel capacity --server against a server that behaves as wyoming-piper 2.4 does', () => {
  it("lines its splitter joins or holds are measured, the audio credited by the server's pairs; its silence apart", async () => {
    // sentence-stream's rules on "Non. Merci. ... à bientôt. 3 pommes, s'il vous plaît. Attendez... Je reviens. ":
    // "Non." is held as an abbreviation, nothing ends before "... à" or "3 pommes" (no capital after): three
    // sentences for four lines. A client that read a pair per line, or refused such lines, fails here.
    const server = await startWyomingPiper({
      speed: 6,
      secondsPerChar: 0.02,
      sentenceSilenceSeconds: 0.2,
      catalogVoices: 163,
    });
    stops.push(server);
    const dir = tempDir('wyoming-piper');
    writeFileSync(
      path.join(dir, 't.txt'),
      "Non. Merci.\n... à bientôt.\n3 pommes, s'il vous plaît.\nAttendez... Je reviens.\n",
    );
    const r = await cli(
      [
        'capacity',
        '--server',
        server.url,
        '--text-file',
        't.txt',
        '--text-rate',
        '2000',
        '--arrivals',
        'together',
        '--first-audio-ms',
        '5000',
        '--prebuffer-ms',
        '0',
        '--max-streams',
        '3',
        '--rounds',
        '1',
        '--settle',
        '0',
        '--seed',
        '3',
        '--out-dir',
        path.join(dir, 'm'),
        '--json',
      ],
      dir,
    );
    assert.ok(r.status === 0 || r.status === 3, r.stderr);
    const a = CapacityArchiveSchema.parse(JSON.parse(r.stdout));
    assert.equal(a.serveur?.envoi, 'flux');
    const expected = ["Non. Merci. ... à bientôt. 3 pommes, s'il vous plaît.", 'Attendez...', 'Je reviens.'];
    // The trials' sentences, then the after-run check's one line on a connection of its own.
    assert.deepEqual(server.made.at(-1)?.text, 'Non. Merci.');
    const trials = server.made.slice(0, -1);
    assert.deepEqual([...new Set(trials.map((m) => m.text))], expected);
    const whole = a.essais.filter((t) => t.but === 'sans_trou' && t.etat === 'done');
    assert.ok(whole.length > 0, a.essais.map((t) => `${t.etat} ${t.erreur}`).join('; '));
    for (const t of whole) {
      // One reply per listener, of three pairs; each listener's timeline is those three.
      assert.deepEqual(t.paires_par_reponse, { 3: t.flux });
      assert.ok(t.flux_detail.every((s) => s.phrases.length === 3 && s.complet));
      // 0.2 s after each sentence but the last: 0.4 s a listener, told apart from speech.
      assert.ok(Math.abs((t.silence_serveur_s ?? 0) - 0.4 * t.flux) < 0.01, String(t.silence_serveur_s));
    }
    // Whole streams in turn: the server made each connection's three sentences together.
    const order = trials.map((m) => m.connection);
    assert.ok(
      order.every((c, i) => i % 3 === 0 || c === order[i - 1]),
      order.join(','),
    );
    assert.equal(a.serveur?.repond_apres, true);
    // Its info lists the whole catalogue: counted, not archived.
    assert.deepEqual(a.serveur?.voix, []);
    assert.match(a.serveur?.dit ?? '', /163 voices listed, a catalogue/);
  });
});

// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Layout } from '../../../lib/capacity/trial/layouts.js';
import type { CapacityArchive, CapacityEntry } from '../../../lib/capacity/archive/schema.js';
import type { CapacityPlan } from '../../../lib/capacity/setup/plan.js';
import { historyKey, measuredDrift, readHistory, type History } from '../../../lib/capacity/setup/history.js';
import { tempDir } from '../../helpers/paths.js';
import { sweepOn } from '../sweep-harness.js';

const own: Layout = { workers: 'K', threads: 1, pinned: false, isolation: 'process' };
const machine = { cores: 2, speed: 5, audioSeconds: [1, 1, 1] };
const layout = 'one process per stream x 1 thread, free';

/** The plan readHistory compares against, as the archive's own run had it. */
const planOf = (a: CapacityArchive, outDir: string): CapacityPlan =>
  ({
    outDir,
    voices: a.voix.map((v) => ({ name: v.nom, sha256: v.sha256 })),
    machine: a.machine_detail,
    text: { sha256: a.protocole.texte.sha256 },
    arrivals: a.protocole.arrivees,
    schedule: a.protocole.ordre_file,
    firstAudioMs: a.protocole.premier_son_max_ms,
    session: a.protocole.profil_session ?? 'libpiper',
    server: null,
  }) as unknown as CapacityPlan;

describe('earlier runs of the same workload (the out-dir as history)', () => {
  it('reads only capacity archives of this machine and workload; garbage and other machines are passed over', async () => {
    const { archive } = await sweepOn({ machine, layouts: [own] });
    const dir = path.join(tempDir('history'), 'm');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'capacity-20261201-000000.json'), JSON.stringify(archive));
    const other = { ...archive, machine_detail: { ...archive.machine_detail, cpu: 'another cpu' } };
    writeFileSync(path.join(dir, 'capacity-20261201-000001.json'), JSON.stringify(other));
    // Another session profile measures the profile, not the machine's drift; a server's run is another workload.
    const profile = archive.protocole.profil_session === 'libpiper' ? 'piper-tts' : 'libpiper';
    const otherProfile = { ...archive, protocole: { ...archive.protocole, profil_session: profile } };
    writeFileSync(path.join(dir, 'capacity-20261201-000004.json'), JSON.stringify(otherProfile));
    const served = {
      ...archive,
      serveur: {
        adresse: 'tcp://127.0.0.1:10200',
        protocole: 'wyoming',
        point: null,
        flux_texte: false,
        dit: 'x',
        voix: [],
        format_audio: null,
        repond_apres: true,
      },
    };
    writeFileSync(path.join(dir, 'capacity-20261201-000005.json'), JSON.stringify(served));
    writeFileSync(path.join(dir, 'capacity-20261201-000002.json'), '{ not json');
    writeFileSync(path.join(dir, 'piper-parallel-20261201-000003.json'), JSON.stringify(archive));
    const h = await readHistory(planOf(archive, dir));
    assert.deepEqual(
      h.files.map((f) => path.basename(f)),
      ['capacity-20261201-000000.json'],
    );
    assert.equal(h.speeds.get(historyKey('fake-voice', layout))?.length, 1);
    assert.deepEqual((await readHistory(planOf(archive, path.join(dir, 'none')))).files, []);
  });

  it('two earlier runs 30% apart widen the rerun range; runs that agree leave the assumed drift', async () => {
    const speedsAt = (factors: number[]): History => ({
      files: factors.map((_, i) => `/x/${i}.json`),
      speeds: new Map([
        [historyKey('fake-voice', layout), factors.map((f) => ({ centre: 10.22 * f, within: 0.0004 }))],
      ]),
    });
    const alone = (await sweepOn({ machine, layouts: [own] })).archive.capacite[0] as CapacityEntry;
    const apart = (await sweepOn({ machine, layouts: [own], history: speedsAt([1.3, 0.7]) })).archive;
    const agree = (await sweepOn({ machine, layouts: [own], history: speedsAt([1.0, 1.01]) })).archive;
    const wide = apart.capacite[0] as CapacityEntry;
    const same = agree.capacite[0] as CapacityEntry;
    assert.ok(alone.prevision && wide.prevision && same.prevision);
    assert.ok((wide.derive_entre_runs_mesuree ?? 0) > 0.2, String(wide.derive_entre_runs_mesuree));
    assert.equal(wide.derive_entre_runs, wide.derive_entre_runs_mesuree);
    assert.ok(wide.prevision[0] < alone.prevision[0], `${wide.prevision} against ${alone.prevision}`);
    assert.match(
      wide.phrase,
      /a rerun may answer \d+ to \d+ \(95%, with the spread between 2 earlier runs here and this one\)/,
    );
    assert.deepEqual([same.derive_entre_runs, same.prevision], [0.05, alone.prevision]);
    assert.match(apart.phrases.join('\n'), /^History: 2 earlier runs of this workload on this machine/m);
    // Said in the Reruns line's terms (a share either way), not as the drift's standard deviation.
    assert.match(apart.phrases.join('\n'), /^History: .* where it passes the 15% either way assumed\.$/m);
  });

  it('measures nothing below two earlier runs', () => {
    assert.equal(measuredDrift([{ centre: 10, within: 0.01 }], { centre: 12, within: 0.01 }), null);
    assert.ok(
      (measuredDrift(
        [
          { centre: 10, within: 0 },
          { centre: 14, within: 0 },
        ],
        { centre: 7, within: 0 },
      ) ?? 0) > 0.2,
    );
  });
});

// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventParser, encodeEvent } from '../../lib/server/wyoming/event.js';

describe('Wyoming events on a byte stream', () => {
  it('reads back what it writes, whatever the bytes are cut into, data merged over the header', () => {
    const bytes = Buffer.concat([
      encodeEvent('audio-start', { rate: 16000, width: 2, channels: 1 }),
      encodeEvent('audio-chunk', { rate: 16000, width: 2, channels: 1 }, Buffer.alloc(10, 7)),
      Buffer.from('{"type":"audio-stop","data":{"timestamp":3}}\n'),
    ]);
    for (const cut of [1, 7, 50, bytes.length]) {
      const p = new EventParser();
      const events = [];
      for (let i = 0; i < bytes.length; i += cut) events.push(...p.push(bytes.subarray(i, i + cut)));
      assert.deepEqual(
        events.map((e) => [e.type, e.data.rate ?? e.data.timestamp, e.payload?.length ?? 0]),
        [
          ['audio-start', 16000, 0],
          ['audio-chunk', 16000, 10],
          ['audio-stop', 3, 0],
        ],
        `cut every ${cut} bytes`,
      );
      assert.equal(p.pendingBytes, 0);
    }
  });

  it('an event begun but not finished is pending (a peer closing now truncated it)', () => {
    const p = new EventParser();
    const e = encodeEvent('audio-chunk', { rate: 1, width: 1, channels: 1 }, Buffer.alloc(100));
    assert.deepEqual(p.push(e.subarray(0, e.length - 1)), []);
    assert.ok(p.pendingBytes > 0);
  });

  it('refuses what is not Wyoming, saying what it was', () => {
    const cases: Array<[Buffer, RegExp]> = [
      [Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'), /an event header that is not JSON: "HTTP\/1\.1 400/],
      [Buffer.from('{"data":{}}\n'), /without a type/],
      [Buffer.from('{"type":"x","data_length":-1}\n'), /bad lengths/],
      [
        Buffer.from('{"type":"audio-start","data_length":5}\n{"rate":16000}'),
        /audio-start event whose data_length does not cover its JSON data/,
      ],
      [Buffer.from('{"type":"x","data_length":2}\n[]'), /x event whose data is not a JSON object/],
      [Buffer.from('{"type":"x","payload_length":999999999}\n'), /over 4 MiB/],
      [Buffer.alloc(70_000, 0x41), /no event header line within/],
    ];
    for (const [bytes, why] of cases) assert.throws(() => new EventParser().push(bytes), why);
  });
});

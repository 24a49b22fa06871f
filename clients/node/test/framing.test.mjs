// Both framings, and frames cut anywhere — inside a header, inside a UTF-8 character — decode
// right: first the reader alone, fed byte by byte, then the real server read one byte at a time.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Transform } from 'node:stream';
import { test } from 'node:test';
import { FrameReader, connect } from '../inbox-rpc.mjs';
import { SERVER_BIN } from './support.mjs';

const TEXT = 'Grüße € 😀 日本語';
const JSON_TEXT = JSON.stringify({ jsonrpc: '2.0', method: 'log', params: { message: TEXT } });
const BODY = Buffer.from(JSON_TEXT);

/** [framing, bytes in, frames out]: one case a line. */
const CASES = [
  ['ndjson', `${JSON_TEXT}\n`, [JSON_TEXT]],
  ['ndjson', `${JSON_TEXT}\r\n\n  \n${JSON_TEXT}\n`, [JSON_TEXT, JSON_TEXT]],
  ['ndjson', `${JSON_TEXT}`, []],
  ['lsp', `Content-Length: ${BODY.length}\r\n\r\n${JSON_TEXT}`, [JSON_TEXT]],
  ['lsp', `content-length:${BODY.length}\nContent-Type: application/json\n\n${JSON_TEXT}`, [JSON_TEXT]],
  ['lsp', `Content-Type: x\r\nCONTENT-LENGTH: 2\r\n\r\n{}Content-Length: 2\r\n\r\n[]`, ['{}', '[]']],
  ['lsp', `Content-Length: ${BODY.length}\r\n\r\n${JSON_TEXT.slice(0, -1)}`, []],
];

test('the frame reader, fed whole and byte by byte', () => {
  for (const [framing, input, expected] of CASES) {
    const bytes = Buffer.from(input);
    assert.deepEqual(new FrameReader(framing).push(bytes), expected, `${framing} whole: ${input}`);
    const reader = new FrameReader(framing);
    const frames = [...bytes].flatMap((byte) => reader.push(Buffer.from([byte])));
    assert.deepEqual(frames, expected, `${framing} byte by byte: ${input}`);
  }
});

test('a frame cut inside a UTF-8 character decodes whole', () => {
  const line = Buffer.from(`${JSON_TEXT}\n`);
  const inside = line.indexOf(Buffer.from('😀')) + 2; // two of the emoji's four bytes
  const reader = new FrameReader('ndjson');
  assert.deepEqual(reader.push(line.subarray(0, inside)), []);
  assert.deepEqual(reader.push(line.subarray(inside)), [JSON_TEXT]);
});

/** Hands on what it reads one byte a chunk, cutting every character and every header. */
const byteByByte = () =>
  new Transform({
    transform(chunk, _encoding, done) {
      for (const byte of chunk) this.push(Buffer.from([byte]));
      done();
    },
  });

for (const framing of ['ndjson', 'lsp']) {
  test(`the real server read one byte at a time (${framing})`, { timeout: 30_000 }, async () => {
    const child = spawn(SERVER_BIN, ['--store', ':memory:', '--sample-feed', '--log-level', 'error'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const client = await connect({ streams: { input: child.stdin, output: child.stdout.pipe(byteByByte()) }, framing });
    const payload = { pw_inbox: 'unicode', aps: { alert: { title: TEXT, body: `${TEXT} ${'é'.repeat(5000)}` } } };
    const changes = [];
    client.on('feed.changed', (params) => changes.push(params));
    await client.message.ingest({ payload });
    const card = await client.message.get({ id: 'unicode' });
    assert.equal(card.title, TEXT);
    assert.equal(card.body, payload.aps.alert.body);
    assert.deepEqual(changes, [
      { reason: 'ingested', added: ['unicode'], counts: { total: 11, unread: 11, unactioned: 11, pinned: 1, unseen: 11 } },
    ]);
    assert.equal((await client.feed.list({ limit: 20 })).items.length, 11);
    await client.close();
  });
}

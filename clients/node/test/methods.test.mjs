// Every method of the contract once, through the namespaced calls the client made from it: the
// scenario the contract's examples were recorded from, replayed with the examples' params, each
// result compared with the recorded one — in both framings.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { connect } from '../inbox-rpc.mjs';
import { SERVER_BIN, startServer } from './support.mjs';

/** The recorded examples' set-up: their backend, the server's flags, the scenario's steps. */
async function exampleSetUp(store) {
  const script = fileURLToPath(new URL('example_backend.py', import.meta.url));
  const backend = spawn('python3', [script, store], { stdio: ['pipe', 'pipe', 'inherit'] });
  const ended = once(backend, 'exit').then(([code]) => {
    throw new Error(`example_backend.py exited with status ${code} before it was ready`);
  });
  const [line] = await Promise.race([once(createInterface({ input: backend.stdout }), 'line'), ended]);
  const setUp = JSON.parse(line);
  // The server picks the framing from the first byte it reads: the client's framing decides.
  const framingAt = setUp.args.indexOf('--framing');
  if (framingAt >= 0) setUp.args.splice(framingAt, 2);
  return { ...setUp, stop: () => backend.stdin.end() };
}

/** What differs run to run, as the recorded examples write it: cursors, the backend's port and the
 * directory passes are kept in. */
function normalise(value) {
  if (Array.isArray(value)) return value.map(normalise);
  if (typeof value === 'string') {
    return value
      .replace(/http:\/\/127\.0\.0\.1:\d+\//g, 'http://127.0.0.1:<port>/')
      .replace(/^\/\S*\/inbox-example-[^/]+\/passes\//, '<passes>/');
  }
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, (k === 'nextCursor' || k === 'cursor') && typeof v === 'string' ? '<cursor>' : normalise(v)]),
  );
}

/** rpc.discover's recorded result is the document's head only. */
function abridge(method, result) {
  if (method !== 'rpc.discover') return result;
  return { openrpc: result.openrpc, info: result.info, methods: [{ name: result.methods[0].name, params: [] }] };
}

/** The function the client made for a method name (`feed.list` → client.feed.list). */
function namespaced(client, method) {
  const call = method.split('.').reduce((target, segment) => target?.[segment], client);
  assert.equal(typeof call, 'function', `the client made no function for ${method}`);
  return call;
}

for (const framing of ['ndjson', 'lsp']) {
  test(`every method in the contract gives its recorded result (${framing})`, { timeout: 60_000 }, async (t) => {
    const directory = mkdtempSync(join(tmpdir(), 'inbox-rpc-node-'));
    t.after(() => rmSync(directory, { recursive: true, force: true }));
    const setUp = await exampleSetUp(join(directory, 'inbox.sqlite'));
    t.after(setUp.stop);
    const client = await connect({
      command: SERVER_BIN,
      args: setUp.args,
      env: { ...process.env, ...setUp.env },
      framing,
      stderr: 'ignore',
    });
    const called = new Set();
    let cursor; // the first changes cursor a step answered: what a '<cursor>' param sends back
    for (const [method, name] of setUp.steps) {
      const example = client.contract.methods.find((m) => m.name === method)?.examples?.find((e) => e.name === name);
      assert.ok(example, `the contract has no example "${name}" for ${method}`);
      const params = Object.fromEntries(example.params.map((p) => [p.name, p.value === '<cursor>' ? cursor : p.value]));
      const result = await namespaced(client, method)(params);
      cursor ??= typeof result?.cursor === 'string' ? result.cursor : undefined;
      assert.deepEqual(normalise(abridge(method, result)), example.result.value, `${method} (${name})`);
      called.add(method);
    }
    const requests = client.contract.methods.filter((m) => !m['x-notification']).map((m) => m.name);
    assert.deepEqual(requests.filter((m) => !called.has(m)), [], 'methods the scenario did not call');
    client.notify('exit'); // after shutdown: a clean exit
    assert.deepEqual(await client.exited, { exitCode: 0, signal: null });
  });
}

test('exit without shutdown ends the server with status 1', async () => {
  const client = await startServer({ stderr: 'ignore' });
  client.notify('exit');
  assert.deepEqual(await client.exited, { exitCode: 1, signal: null });
});

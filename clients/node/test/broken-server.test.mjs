// The client against a broken or hostile server (a fake one, a few lines of Node in place of the
// binary): no call waits for ever, however the server behaves; no frame grows without bound; every
// failure says why; and a contract's method names cannot turn the client into something else.
// Nothing is timed: each test waits for the outcome, under the test runner's hang-only deadline.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import {
  CallTimeoutError,
  ConnectionClosedError,
  DEFAULT_TIMEOUT_MS,
  InboxRpcClient,
  InboxRpcError,
  connect,
} from '../inbox-rpc.mjs';

const HANG = { timeout: 120_000 };

/** A contract whose methods are `names`. */
function contract(names) {
  return { openrpc: '1.3.2', info: { title: 'fake', version: '1' }, methods: names.map((name) => ({ name, params: [] })) };
}

/** A fake server: Node running `body`. A call's deadline is `timeout`: 500 ms where the deadline is
 * what a test waits for, the hang-only one where a reply is (a loaded machine starts Node slowly). */
function fake(body, timeout = 500) {
  return connect({
    command: process.execPath,
    args: ['-e', body],
    stderr: 'ignore',
    contract: contract(['feed.counts']),
    timeout,
  });
}

describe('a server that misbehaves', () => {
  test('one that writes non-reply lines for ever: the call ends at its deadline, which the lines do not move', HANG, async (t) => {
    const client = await fake(`
      const line = JSON.stringify({ jsonrpc: '2.0', method: 'log', params: { level: 'info', message: 'noise' } }) + '\\n';
      const again = () => process.stdout.write(line.repeat(100), again);
      again();`);
    t.after(() => client.close());
    await assert.rejects(client.call('feed.counts'), (error) => {
      assert.ok(error instanceof CallTimeoutError, error);
      assert.match(error.message, /feed\.counts: no reply within 500 ms; cancelled/);
      return true;
    });
  });

  test('one that writes one endless line: the frame bound ends the connection, saying why', HANG, async () => {
    const client = await connect({
      command: process.execPath,
      args: ['-e', `const chunk = 'x'.repeat(65536); const again = () => process.stdout.write(chunk, again); again();`],
      stderr: 'ignore',
      contract: contract(['feed.counts']),
      maxFrameBytes: 1024 * 1024,
    });
    await assert.rejects(client.call('feed.counts'), (error) => {
      assert.ok(error instanceof ConnectionClosedError, error);
      assert.match(error.message, /a frame larger than 1048576 bytes/);
      return true;
    });
    // The server this client started is stopped: nothing is left running.
    assert.equal((await client.exited).signal, 'SIGKILL');
  });

  test('connect() against an endless line rejects instead of never settling', HANG, async () => {
    await assert.rejects(
      connect({
        command: process.execPath,
        args: ['-e', `const chunk = 'x'.repeat(65536); const again = () => process.stdout.write(chunk, again); again();`],
        stderr: 'ignore',
        maxFrameBytes: 1024 * 1024,
      }),
      /a frame larger than 1048576 bytes/,
    );
  });

  test('a silent server: connect() rejects at its deadline', HANG, async () => {
    await assert.rejects(
      connect({ command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], stderr: 'ignore', timeout: 300 }),
      (error) => error instanceof CallTimeoutError && error.method === 'rpc.discover',
    );
  });

  test('an error reply that is not an object still rejects with a reason', HANG, async (t) => {
    const client = await fake(`
      let n = 0;
      require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
        const { id } = JSON.parse(line);
        const error = [null, 'boom', 42, { code: 'x' }][n++ % 4];
        process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, error }) + '\\n');
      });`, HANG.timeout);
    t.after(() => client.close());
    for (const shown of ['null', '"boom"', '42', '{"code":"x"}']) {
      await assert.rejects(client.call('feed.counts'), (error) => {
        assert.ok(error instanceof InboxRpcError, error);
        assert.equal(error.message, `a malformed error reply: ${shown}`);
        return true;
      });
    }
  });
});

describe('the default deadline', () => {
  test('is finite, and a call without a timeout of its own ends there', HANG, async (t) => {
    assert.ok(Number.isFinite(DEFAULT_TIMEOUT_MS) && DEFAULT_TIMEOUT_MS > 0);
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const client = new InboxRpcClient({ input: new PassThrough(), output: new PassThrough() });
    const call = client.call('feed.counts');
    t.mock.timers.tick(DEFAULT_TIMEOUT_MS);
    await assert.rejects(call, CallTimeoutError);
  });

  test('a timeout that is not a positive number is refused with a reason', () => {
    assert.throws(() => new InboxRpcClient({ input: new PassThrough(), output: new PassThrough(), timeout: 0 }), /timeout must be/);
  });
});

describe("method names the language has a meaning for", () => {
  const names = ['then', 'constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty', 'feed.then', 'then.x', '__proto__.polluted', 'feed.counts'];

  test('a contract naming then, constructor or __proto__ leaves the client as it is; call() still reaches them', HANG, async (t) => {
    // The fake answers every request with its method's name.
    const client = await connect({
      command: process.execPath,
      args: ['-e', `
        require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
          const { id, method } = JSON.parse(line);
          if (id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result: method }) + '\\n');
        });`],
      stderr: 'ignore',
      contract: contract(names),
    });
    t.after(() => client.close());
    // connect() settled: the client is no thenable.
    assert.equal(client.then, undefined);
    assert.equal(typeof client.constructor, 'function');
    assert.equal(Object.getPrototypeOf(client), InboxRpcClient.prototype);
    assert.equal({}.polluted, undefined);
    assert.equal(client.feed.then, undefined);
    assert.equal(await client.feed.counts(), 'feed.counts');
    for (const name of ['then', 'constructor', '__proto__', 'toString', 'feed.then']) {
      assert.equal(await client.call(name), name);
    }
  });
});

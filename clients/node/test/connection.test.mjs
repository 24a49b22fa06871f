// The connection against the real server: notifications as events, AbortSignal as
// $/cancelRequest (integer and string ids), errors by their contract names, and a server that goes.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { ConnectionClosedError, InboxRpcClient, InboxRpcError, connect } from '../inbox-rpc.mjs';
import { startServer } from './support.mjs';

const PUSH = { pw_inbox: 'push-node', aps: { alert: { title: 'Flash sale', body: 'Two hours only' } } };

/** A client for the test, closed after it. */
async function inbox(t, options) {
  const client = await startServer(options);
  t.after(() => client.close());
  return client;
}

describe('notifications', () => {
  test('feed.changed arrives as an event named for it, before the reply that caused it', async (t) => {
    const client = await inbox(t);
    const named = [];
    const all = [];
    client.on('feed.changed', (params) => named.push(params));
    client.on('notification', (method, params) => all.push([method, params]));
    const { message, outcome } = await client.message.ingest({ payload: PUSH });
    assert.deepEqual([message.id, outcome], ['push-node', 'added']);
    const counts = { total: 11, unread: 11, unactioned: 11, pinned: 1, unseen: 11 };
    assert.deepEqual(named, [{ reason: 'ingested', added: ['push-node'], counts }]);
    assert.deepEqual(all, [['feed.changed', { reason: 'ingested', added: ['push-node'], counts }]]);
  });

  test('log notifications carry the feed degradations', async (t) => {
    const client = await inbox(t);
    const logs = [];
    client.on('log', (params) => logs.push(params));
    await client.feed.list({ limit: 20 });
    assert.ok(logs.length > 0, 'the sample feed has degraded cards, each logged once');
    for (const log of logs) assert.equal(typeof log.message, 'string');
  });
});

describe('cancellation', () => {
  for (const [ids, idPrefix] of [['integer', null], ['string', 'node-']]) {
    test(`an abort sends $/cancelRequest with the call's ${ids} id and the call rejects -32800`, { timeout: 300_000 }, async (t) => {
      const client = await inbox(t, { idPrefix });
      const controller = new AbortController();
      // The call settles with the server's answer, and the sleep outlasts the test's deadline: only
      // the cancel can have ended it.
      const sleeping = client.call('test.sleep', { ms: 600_000 }, { signal: controller.signal });
      setTimeout(() => controller.abort(), 100);
      await assert.rejects(sleeping, (error) => {
        assert.ok(error instanceof client.errors.RequestCancelled);
        assert.ok(error instanceof InboxRpcError);
        assert.equal(error.name, 'RequestCancelled');
        assert.equal(error.code, client.contract.components.errors.RequestCancelled.code);
        assert.equal(error.method, 'test.sleep');
        return true;
      });
      assert.equal(await client.rpc.ping(), 'pong', 'the connection goes on');
    });
  }

  test('an abort in the same tick as the call is answered -32800 too', { timeout: 15_000 }, async (t) => {
    const client = await inbox(t);
    const controller = new AbortController();
    const sleeping = client.call('test.sleep', { ms: 60_000 }, { signal: controller.signal });
    controller.abort();
    await assert.rejects(sleeping, { name: 'RequestCancelled' });
  });

  test('AbortSignal.timeout cancels a call on the server', { timeout: 15_000 }, async (t) => {
    const client = await inbox(t);
    await assert.rejects(client.call('test.sleep', { ms: 60_000 }, { signal: AbortSignal.timeout(200) }), {
      name: 'RequestCancelled',
    });
  });

  test('a signal aborted before the call sends nothing and rejects with its reason', async (t) => {
    const client = await inbox(t);
    const reason = new Error('not wanted');
    await assert.rejects(client.feed.counts({}, { signal: AbortSignal.abort(reason) }), (error) => error === reason);
  });

  test('an abort after the reply changes nothing', async (t) => {
    const client = await inbox(t);
    const controller = new AbortController();
    assert.deepEqual(await client.call('test.sleep', { ms: 0 }, { signal: controller.signal }), { slept: 0 });
    controller.abort();
    assert.equal(await client.rpc.ping(), 'pong');
  });
});

describe('errors', () => {
  test('an error reply rejects as the class named for its code in the contract', async (t) => {
    const client = await inbox(t);
    await assert.rejects(client.message.get({ id: 'no-such-message' }), (error) => {
      assert.ok(error instanceof client.errors.MessageNotFound);
      assert.equal(error.name, 'MessageNotFound');
      assert.equal(error.code, client.contract.components.errors.MessageNotFound.code);
      assert.deepEqual(error.data, { id: 'no-such-message' });
      assert.equal(error.method, 'message.get');
      return true;
    });
    await assert.rejects(client.feed.list({ limit: 0 }), (error) => {
      assert.ok(error instanceof client.errors.InvalidParams);
      assert.ok(!(error instanceof client.errors.MessageNotFound));
      assert.equal(error.data.param, 'limit');
      return true;
    });
  });

  test('a code the contract does not name stays an InboxRpcError', async (t) => {
    const client = await inbox(t);
    await assert.rejects(client.call('no.such.method'), (error) => {
      assert.equal(error.constructor, InboxRpcError);
      assert.equal(error.name, 'InboxRpcError');
      assert.equal(error.data.method, 'no.such.method');
      return true;
    });
  });

  test('every named error of the contract has its class', async (t) => {
    const client = await inbox(t);
    const names = Object.keys(client.contract.components.errors);
    assert.deepEqual(Object.keys(client.errors), names);
    for (const name of names) assert.equal(client.errors[name].prototype.name, name);
  });
});

describe('closing', () => {
  test('a server that dies fails the calls in flight at once, and every later one', { timeout: 15_000 }, async (t) => {
    const client = await inbox(t);
    const sleeping = client.call('test.sleep', { ms: 60_000 });
    await client.rpc.ping(); // the sleep has been read
    client.child.kill('SIGKILL');
    await assert.rejects(sleeping, (error) => {
      assert.ok(error instanceof ConnectionClosedError);
      assert.equal(error.signal, 'SIGKILL');
      assert.match(error.message, /killed by SIGKILL during test\.sleep/);
      return true;
    });
    await assert.rejects(client.rpc.ping(), ConnectionClosedError);
  });

  test('close() ends the input and resolves with the exit status', async () => {
    const client = await startServer();
    assert.deepEqual(await client.close(), { exitCode: 0, signal: null });
  });

  test('a binary that cannot start rejects connect()', async () => {
    await assert.rejects(connect({ command: '/nonexistent/inbox-rpc' }), (error) => {
      assert.ok(error instanceof ConnectionClosedError);
      assert.match(error.message, /cannot start \/nonexistent\/inbox-rpc/);
      return true;
    });
  });
});

describe('over given streams', () => {
  /** A client whose server is the test: it reads what the client wrote and writes its replies. */
  function overStreams(contract) {
    const [input, output] = [new PassThrough(), new PassThrough()];
    const sent = [];
    input.on('data', (chunk) => sent.push(...chunk.toString().split('\n').filter(Boolean).map((line) => JSON.parse(line))));
    return { client: new InboxRpcClient({ input, output }).adopt(contract), output, sent };
  }

  test('contract names the client uses for itself are left to call(); deeper names nest', () => {
    const { client } = overStreams({ methods: [{ name: 'close' }, { name: 'on.x' }, { name: 'a.b.c' }, { name: 'n', 'x-notification': true }] });
    assert.equal(client.close, InboxRpcClient.prototype.close);
    assert.equal(typeof client.on, 'function');
    assert.equal(client.on.x, undefined);
    assert.equal(typeof client.a.b.c, 'function');
    assert.equal(client.n, undefined, 'notifications are sent with notify(), not made into calls');
  });

  test('a frame that is not JSON ends the connection and fails the calls in flight', async () => {
    const { client, output, sent } = overStreams({ methods: [{ name: 'feed.counts' }] });
    const counting = client.feed.counts();
    await new Promise(setImmediate);
    assert.deepEqual(sent, [{ jsonrpc: '2.0', id: 1, method: 'feed.counts' }]);
    output.write('this is not JSON\n');
    await assert.rejects(counting, (error) => {
      assert.ok(error instanceof ConnectionClosedError);
      assert.match(error.message, /^inbox-rpc wrote a frame that is not JSON: "this is not JSON" during feed\.counts/);
      return true;
    });
  });
});

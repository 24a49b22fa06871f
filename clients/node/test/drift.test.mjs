// The client follows the contract it is given, with no change to its code: a copy of the
// contract gains a method and a named error, and the client calls the one by its namespaced
// name and raises the other by name — served by clients/contract_double.py.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { InboxRpcError, connect } from '../inbox-rpc.mjs';
import { CONTRACT_PATH, REPO_ROOT } from './support.mjs';

const DOUBLE = join(REPO_ROOT, 'clients', 'contract_double.py');
const GENERATOR = join(REPO_ROOT, 'script', 'gen-client-stubs');

/** The contract with `inbox.frobnicate {x}` and `FrobnicationRefused` (-32099) added, in a temp dir. */
function changedContract(t) {
  const directory = mkdtempSync(join(tmpdir(), 'inbox-rpc-drift-'));
  t.after(() => rmSync(directory, { recursive: true, force: true }));
  const contract = JSON.parse(readFileSync(CONTRACT_PATH, 'utf8'));
  contract.methods.push({
    name: 'inbox.frobnicate',
    summary: 'Frobnicates the inbox.',
    paramStructure: 'by-name',
    params: [{ name: 'x', required: true, schema: { type: 'integer' } }],
    result: { name: 'frobnicated', schema: { type: 'object' } },
    errors: [{ $ref: '#/components/errors/FrobnicationRefused' }],
  });
  contract.components.errors.FrobnicationRefused = { code: -32099, message: 'Frobnication refused', data: 'data {x}.' };
  const answers = {
    'inbox.frobnicate': { error: { code: -32099, message: 'Frobnication refused', data: { x: 1 } } },
    'rpc.ping': { result: 'pong' },
  };
  const paths = { contract: join(directory, 'openrpc.json'), answers: join(directory, 'answers.json'), directory };
  writeFileSync(paths.contract, JSON.stringify(contract));
  writeFileSync(paths.answers, JSON.stringify(answers));
  return paths;
}

function expectFrobnicationRefused(client) {
  return assert.rejects(client.inbox.frobnicate({ x: 1 }), (error) => {
    assert.ok(error instanceof client.errors.FrobnicationRefused);
    assert.ok(error instanceof InboxRpcError);
    assert.equal(error.name, 'FrobnicationRefused');
    assert.equal(error.code, -32099);
    assert.deepEqual(error.data, { x: 1 });
    return true;
  });
}

test('a method and an error added to the served contract are called and raised by name', async (t) => {
  const paths = changedContract(t);
  const client = await connect({ command: 'python3', args: [DOUBLE, paths.contract, paths.answers] });
  t.after(() => client.close());
  assert.equal(typeof client.inbox.frobnicate, 'function');
  await expectFrobnicationRefused(client);
  assert.equal(await client.rpc.ping(), 'pong');
});

test('a contract file given to connect() is used instead of rpc.discover', async (t) => {
  const paths = changedContract(t);
  // The double serves the unchanged contract; the client knows the changed one from the file.
  const client = await connect({
    command: 'python3',
    args: [DOUBLE, CONTRACT_PATH, paths.answers],
    contract: paths.contract,
  });
  t.after(() => client.close());
  await expectFrobnicationRefused(client);
  const served = await client.rpc.discover();
  assert.ok(!served.methods.some((m) => m.name === 'inbox.frobnicate'), 'the served contract lacks it');
});

test('the generated declarations differ for the changed contract', (t) => {
  const paths = changedContract(t);
  const check = spawnSync('python3', [GENERATOR, '--check', '--contract', paths.contract], { encoding: 'utf8' });
  assert.equal(check.status, 1, check.stdout + check.stderr);
  assert.match(check.stderr, /frobnicate/);
});

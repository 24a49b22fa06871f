// Which server connect() starts with no `command`: $INBOX_RPC_BIN, else `inbox-rpc` on PATH, else,
// when INBOX_RPC_BUILD asks for it, the build of the checkout holding the module; never a build
// because it lies in the current directory, which may be anyone's repository. Each binary is a script
// that leaves its path in a mark file when run (and starts the real server when it stands for one).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { REPO_ROOT, SERVER_BIN } from './support.mjs';

const BARE_PATH = '/usr/bin:/bin'; // no inbox-rpc there

function plant(path, mark, then = 'exit 1') {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `#!/bin/sh\necho "$0" >> '${mark}'\n${then}\n`);
  chmodSync(path, 0o755);
  return path;
}

const real = `exec '${SERVER_BIN}' "$@"`;

/** Runs connect() from `module` in `cwd` with `env`: the feed's total, or the error's message. */
function connectFrom(module, cwd, env) {
  const program = `import(${JSON.stringify(module)}).then(async ({ connect }) => {
    try {
      const inbox = await connect({ args: ['--store', ':memory:', '--sample-feed'], stderr: 'ignore', timeout: 20000 });
      console.log((await inbox.feed.counts()).total);
      await inbox.close();
    } catch (error) { console.log(error.message); }
  });`;
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('INBOX')));
  return execFileSync(process.execPath, ['--input-type=module', '-e', program], {
    cwd, env: { ...clean, PATH: BARE_PATH, ...env }, encoding: 'utf8', timeout: 60_000,
  }).trim();
}

/** A checkout of its own: the client module copied under clients/node, and a directory of someone else's. */
const roots = [];
after(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function setUp() {
  const root = mkdtempSync(join(tmpdir(), 'inbox-finding-'));
  roots.push(root);
  const mark = join(root, 'ran');
  const module = join(root, 'checkout', 'clients', 'node', 'inbox-rpc.mjs');
  mkdirSync(dirname(module), { recursive: true });
  copyFileSync(join(REPO_ROOT, 'clients', 'node', 'inbox-rpc.mjs'), module);
  const theirs = join(root, 'theirs');
  for (const build of ['release', 'debug']) plant(join(theirs, '.build', build, 'inbox-rpc'), mark);
  return { root, mark, module, theirs, ran: () => (existsSync(mark) ? readFileSync(mark, 'utf8').split('\n').filter(Boolean) : []) };
}

test('a build in the current directory is never run, asked for the checkout build or not', () => {
  const { module, theirs, ran } = setUp();
  for (const asked of [{}, { INBOX_RPC_BUILD: '1' }]) {
    assert.match(connectFrom(module, theirs, asked), /cannot start inbox-rpc/);
  }
  assert.deepEqual(ran(), []);
});

test('the told binary, then PATH\'s, before the checkout build', () => {
  const { root, mark, module, theirs, ran } = setUp();
  plant(join(root, 'checkout', '.build', 'debug', 'inbox-rpc'), mark);
  const told = plant(join(root, 'told', 'inbox-rpc'), mark, real);
  const onPath = plant(join(root, 'bin', 'inbox-rpc'), mark, real);
  const path = `${dirname(onPath)}:${BARE_PATH}`;
  assert.equal(connectFrom(module, theirs, { INBOX_RPC_BIN: told, INBOX_RPC_BUILD: '1', PATH: path }), '10');
  assert.equal(connectFrom(module, theirs, { INBOX_RPC_BUILD: '1', PATH: path }), '10');
  assert.deepEqual(ran(), [told, onPath]);
});

test('the checkout build is run when asked: release first, else debug', () => {
  const { root, mark, module, theirs, ran } = setUp();
  const debug = plant(join(root, 'checkout', '.build', 'debug', 'inbox-rpc'), mark, real);
  assert.match(connectFrom(module, theirs, {}), /cannot start inbox-rpc/, 'not asked: not run');
  assert.equal(connectFrom(module, theirs, { INBOX_RPC_BUILD: '1' }), '10');
  const release = plant(join(root, 'checkout', '.build', 'release', 'inbox-rpc'), mark, real);
  assert.equal(connectFrom(module, theirs, { INBOX_RPC_BUILD: '1' }), '10');
  assert.deepEqual(ran(), [debug, release]);
});

// The hand-written declarations (index.d.ts) type-check against the generated contract.d.ts:
// types-usage.ts uses the client as a host would, and marks what must be refused with
// @ts-expect-error, so a declaration that lets everything through fails too. Needs tsc
// (Debian's node-typescript, installed by script/bootstrap).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const CONTRACT_TYPES = fileURLToPath(new URL('../contract.d.ts', import.meta.url));
const USAGE = fileURLToPath(new URL('types-usage.ts', import.meta.url));

test(
  'index.d.ts types the namespaced calls, the events and the named errors from contract.d.ts',
  { skip: !existsSync(CONTRACT_TYPES) && 'contract.d.ts has not been generated (script/gen-client-stubs)' },
  () => {
    for (const [module, resolution] of [['es2022', 'node'], ['nodenext', 'nodenext']]) {
      const flags = ['--strict', '--target', 'es2022', '--module', module, '--moduleResolution', resolution];
      const tsc = spawnSync('tsc', ['--noEmit', ...flags, '--lib', 'es2022,dom', USAGE], { encoding: 'utf8' });
      assert.ifError(tsc.error);
      assert.equal(tsc.status, 0, `tsc (${resolution}):\n${tsc.stdout}${tsc.stderr}`);
    }
  },
);

// The example the README shows runs against the real server and prints what it says it does, and
// the README says the module's true size.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { SERVER_BIN } from './support.mjs';

test('examples/feed.mjs lists cards, taps a button and names an error', () => {
  const example = fileURLToPath(new URL('../examples/feed.mjs', import.meta.url));
  const lines = execFileSync(process.execPath, [example, SERVER_BIN], { encoding: 'utf8', timeout: 30_000 }).split('\n');
  assert.match(lines[0], /^welcome +classic +Welcome to your inbox$/);
  assert.equal(lines.slice(0, 5).filter((line) => /^[a-z-]+ +[a-z]+ +\S/.test(line)).length, 5, lines.join('\n'));
  assert.ok(lines.includes('feed changed: opened summer-sale'), lines.join('\n'));
  assert.ok(lines.includes('the host opens https://example.com/promo/SUMMER2026'));
  assert.ok(lines.includes("MessageNotFound (-32001): { id: 'gone' }"));
});

test("the README's line count of the module is its line count", () => {
  const read = (name) => readFileSync(fileURLToPath(new URL(`../${name}`, import.meta.url)), 'utf8');
  const lines = read('inbox-rpc.mjs').split('\n').length - 1;
  assert.match(read('README.md'), new RegExp(`\`inbox-rpc\\.mjs\` \\(${lines} lines\\)`));
});

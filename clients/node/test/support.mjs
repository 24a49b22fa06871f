// What the Node client's tests share: the real inbox-rpc binary (a missing one fails every test
// file at once, never a green run), the repo's paths, and a server started on a throwaway store.
import { accessSync, constants } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '../inbox-rpc.mjs';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const CONTRACT_PATH = join(REPO_ROOT, 'Schemas', 'openrpc.json');
export const SERVER_BIN = resolve(process.env.INBOX_RPC_BIN || join(REPO_ROOT, '.build', 'debug', 'inbox-rpc'));

try {
  accessSync(SERVER_BIN, constants.X_OK);
} catch {
  throw new Error(
    `inbox-rpc not found at ${SERVER_BIN}: build it (swift build --product inbox-rpc) or set INBOX_RPC_BIN`,
  );
}

/** The server on an in-memory store seeded with the sample feed, with the test helpers. */
export function startServer(options = {}, extraArgs = []) {
  return connect({
    command: SERVER_BIN,
    args: ['--store', ':memory:', '--sample-feed', '--test-methods', '--log-level', 'error', ...extraArgs],
    ...options,
  });
}

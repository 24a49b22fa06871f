// Lists the first cards of the feed, taps a button, and shows a named error:
//   node clients/node/examples/feed.mjs [path/to/inbox-rpc]
import { connect } from '../inbox-rpc.mjs';

// Payload text for the terminal: controls, line breaks and bidirectional overrides escaped, so a
// title cannot move the cursor or forge a line.
const shown = (text) =>
  String(text).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => ({ '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const inbox = await connect({
  command: process.argv[2] ?? process.env.INBOX_RPC_BIN ?? 'inbox-rpc',
  args: ['--store', ':memory:', '--sample-feed'],
  stderr: 'ignore',
});
inbox.on('feed.changed', ({ reason, updated = [] }) => console.log(`feed changed: ${reason} ${updated.join(' ')}`));

const page = await inbox.feed.list({ limit: 5 });
for (const card of page.items) console.log(`${card.id.padEnd(14)} ${card.kind.padEnd(10)} ${shown(card.title ?? '')}`);

const tap = await inbox.button.tap({ id: 'summer-sale', button: 0 });
console.log('the host opens', shown(tap.action.url));

try {
  await inbox.message.get({ id: 'gone' });
} catch (error) {
  if (!(error instanceof inbox.errors.MessageNotFound)) throw error;
  console.log(`${error.name} (${error.code}):`, error.data);
}
await inbox.close();

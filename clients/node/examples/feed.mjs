// Lists the first cards of the feed, taps a button, and shows a named error:
//   node clients/node/examples/feed.mjs [path/to/inbox-rpc]
import { connect } from '../inbox-rpc.mjs';

const inbox = await connect({
  command: process.argv[2] ?? process.env.INBOX_RPC_BIN ?? 'inbox-rpc',
  args: ['--store', ':memory:', '--sample-feed'],
  stderr: 'ignore',
});
inbox.on('feed.changed', ({ reason, updated = [] }) => console.log(`feed changed: ${reason} ${updated.join(' ')}`));

const page = await inbox.feed.list({ limit: 5 });
for (const card of page.items) console.log(`${card.id.padEnd(14)} ${card.kind.padEnd(10)} ${card.title ?? ''}`);

const tap = await inbox.button.tap({ id: 'summer-sale', button: 0 });
console.log('the host opens', tap.action.url);

try {
  await inbox.message.get({ id: 'gone' });
} catch (error) {
  if (!(error instanceof inbox.errors.MessageNotFound)) throw error;
  console.log(`${error.name} (${error.code}):`, error.data);
}
await inbox.close();

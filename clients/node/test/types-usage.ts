// Type-checked by types.test.mjs (tsc --noEmit) against the generated contract.d.ts: the client's
// declarations accept what the contract allows and refuse what it does not. Never run.
import { connect, InboxRpcError, type InboxRpcClient } from '../index.js';

export async function use(): Promise<void> {
  const client: InboxRpcClient = await connect({ args: ['--store', ':memory:'], framing: 'lsp' });
  const page = await client.feed.list({ limit: 5 });
  const firstId: string | undefined = page.items[0]?.id;
  const counts = await client.feed.counts();
  const total: number = counts.total;
  const pong: 'pong' = await client.rpc.ping();
  await client.message.get({ id: firstId ?? 'welcome' }, { signal: new AbortController().signal });
  await client.call('message.markRead', { ids: ['welcome'] });
  await client.call('test.sleep', { ms: 10 });
  client.on('feed.changed', (params) => console.log(params.reason));
  client.on('notification', (method: string, params: unknown) => console.log(method, params));
  try {
    await client.message.dismiss({ id: 'welcome' });
  } catch (error) {
    if (error instanceof client.errors.MessageNotFound) {
      const name: 'MessageNotFound' = error.name;
      console.log(name, error.code, error.data);
    } else if (error instanceof InboxRpcError) {
      console.log(error.name, error.code);
    }
  }
  // @ts-expect-error: limit is a number
  await client.feed.list({ limit: 'five' });
  // @ts-expect-error: message.get requires its id
  await client.message.get();
  // @ts-expect-error: no such method in the contract
  await client.feed.frobnicate();
  // @ts-expect-error: no such error in the contract
  client.errors.FrobnicationRefused;
  console.log(total, pong, await client.close());
}

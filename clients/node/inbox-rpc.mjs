// A thin Node client for inbox-rpc: it starts the server (or talks over streams it is given),
// frames JSON-RPC 2.0 messages, and learns the methods and the named errors from the server's
// contract (its OpenRPC document), so nothing here lists a method or an error code.
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';

/** An error reply. A named error of the contract is a subclass whose `name` is its key there. */
export class InboxRpcError extends Error {
  constructor(message, { code, data, method } = {}) {
    super(message);
    this.code = code;
    this.data = data;
    this.method = method;
  }
}
InboxRpcError.prototype.name = 'InboxRpcError';

/** The connection ended (the server exited, or its output closed) before a reply came. */
export class ConnectionClosedError extends Error {
  constructor(message, { exitCode = null, signal = null, method } = {}) {
    super(message);
    this.exitCode = exitCode;
    this.signal = signal;
    this.method = method;
  }
}
ConnectionClosedError.prototype.name = 'ConnectionClosedError';

/** One subclass of InboxRpcError per entry of the contract's `components.errors`, by name and by code. */
function errorClasses(errors = {}) {
  const byName = {};
  const byCode = new Map();
  for (const [name, { code }] of Object.entries(errors)) {
    const Named = { [name]: class extends InboxRpcError {} }[name];
    Named.prototype.name = name;
    byName[name] = Named;
    byCode.set(code, Named);
  }
  return { byName, byCode };
}

/** A request (with an id) or a notification (without); params are left out when there are none. */
function message(method, params, id) {
  return { jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, ...(params === undefined ? {} : { params }) };
}

/** Writes one message as one frame: a line (`ndjson`) or a `Content-Length` header and body (`lsp`). */
function encode(message, framing) {
  const text = JSON.stringify(message);
  return framing === 'lsp' ? `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}` : `${text}\n`;
}

/**
 * Cuts the bytes read into frames, in either framing. Bytes are kept until a frame is whole and
 * only then decoded, so a chunk that ends inside a UTF-8 character decodes right. Headers are
 * read leniently (any case, other headers skipped, bare `\n` line ends), as the server reads them.
 */
export class FrameReader {
  #parts = [];
  #size = 0;
  #length = null; // the body length once a header block has been read (lsp)
  #headerLength = null; // the Content-Length read so far in the header block

  constructor(framing = 'ndjson') {
    this.framing = framing;
  }

  /** Takes one chunk; returns the frames it completed, as text. */
  push(chunk) {
    this.#parts.push(chunk);
    this.#size += chunk.length;
    // Nothing can complete until a newline arrives or the awaited body is all here.
    if (this.#length === null ? !chunk.includes(10) : this.#size < this.#length) return [];
    let bytes = Buffer.concat(this.#parts, this.#size);
    const frames = [];
    for (;;) {
      if (this.#length !== null) {
        if (bytes.length < this.#length) break;
        frames.push(bytes.toString('utf8', 0, this.#length));
        bytes = bytes.subarray(this.#length);
        this.#length = null;
        continue;
      }
      const newline = bytes.indexOf(10);
      if (newline < 0) break;
      const line = bytes.toString('utf8', 0, newline).replace(/\r$/, '');
      bytes = bytes.subarray(newline + 1);
      if (this.framing !== 'lsp') {
        if (line.trim()) frames.push(line);
      } else if (line === '') {
        [this.#length, this.#headerLength] = [this.#headerLength, null];
      } else {
        const header = /^content-length\s*:\s*(\d+)\s*$/i.exec(line);
        if (header) this.#headerLength = Number(header[1]);
      }
    }
    this.#parts = bytes.length ? [bytes] : [];
    this.#size = bytes.length;
    return frames;
  }
}

/** Names of the client's own events, which a notification of the same name does not take over. */
const OWN_EVENTS = new Set(['notification', 'close', 'newListener', 'removeListener', 'error']);

export class InboxRpcClient extends EventEmitter {
  #input;
  #framing;
  #idPrefix;
  #nextId = 1;
  #pending = new Map();
  #closed = null;
  #byCode = new Map();

  /**
   * Talks over `input` (the server's stdin) and `output` (its stdout). `connect()` is the usual
   * way in: it also reads the contract, which makes the namespaced methods and the error classes.
   */
  constructor({ input, output, framing = 'ndjson', idPrefix = null, child = null }) {
    super();
    this.#input = input;
    this.#framing = framing;
    this.#idPrefix = idPrefix;
    this.child = child;
    this.errors = {};
    input.on('error', () => {}); // a server gone: reported by the end of its output instead
    const reader = new FrameReader(framing);
    output.on('data', (chunk) => {
      for (const frame of reader.push(chunk)) this.#receive(frame);
    });
    this.exited = child
      ? new Promise((resolve) => child.on('close', (exitCode, signal) => resolve({ exitCode, signal })))
      : new Promise((resolve) => output.on('close', () => resolve({ exitCode: null, signal: null })));
    this.exited.then((status) => this.#end(status));
  }

  /** Sends a request; the promise settles with its result or rejects with an InboxRpcError. */
  call(method, params, { signal } = {}) {
    if (this.#closed) return Promise.reject(this.#closedError(method));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = this.#idPrefix === null ? this.#nextId++ : `${this.#idPrefix}${this.#nextId++}`;
    return new Promise((resolve, reject) => {
      // An abort asks the server to stop; the call still settles with the server's answer
      // (RequestCancelled, -32800, or the result when the work had already finished).
      const cancel = () => this.notify('$/cancelRequest', { id });
      signal?.addEventListener('abort', cancel, { once: true });
      const settled = () => signal?.removeEventListener('abort', cancel);
      this.#pending.set(id, { method, resolve, reject, settled });
      this.#write(message(method, params, id));
    });
  }

  /** Sends a notification (no reply comes). */
  notify(method, params) {
    if (!this.#closed) this.#write(message(method, params));
  }

  /** Ends the server's input; resolves with its exit status once it is gone. */
  close() {
    this.#input.end();
    return this.exited;
  }

  /** Makes the namespaced methods (`feed.list` → `this.feed.list(params, options)`) and the error classes. */
  adopt(contract) {
    const { byName, byCode } = errorClasses(contract.components?.errors);
    this.errors = byName;
    this.#byCode = byCode;
    this.contract = contract;
    const made = new Set();
    for (const { name, 'x-notification': notification } of contract.methods ?? []) {
      if (notification) continue;
      const path = name.split('.');
      const leaf = path.pop();
      let target = this;
      for (const segment of path) {
        if (!(segment in target)) made.add((target[segment] = {}));
        target = made.has(target[segment]) ? target[segment] : null;
        if (!target) break;
      }
      // A name taken by the client itself (or a namespace) stays reachable through call().
      if (target && !(leaf in target)) target[leaf] = (params, options) => this.call(name, params, options);
    }
    return this;
  }

  #write(message) {
    this.#input.write(encode(message, this.#framing));
  }

  #receive(frame) {
    let parsed;
    try {
      parsed = JSON.parse(frame);
    } catch {
      return this.#fail(`wrote a frame that is not JSON: ${JSON.stringify(frame.slice(0, 200))}`);
    }
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
      if (typeof item?.method === 'string' && !('id' in item)) {
        this.emit('notification', item.method, item.params);
        if (!OWN_EVENTS.has(item.method)) this.emit(item.method, item.params);
        continue;
      }
      const call = this.#pending.get(item?.id);
      if (!call) continue;
      this.#pending.delete(item.id);
      call.settled();
      if (item.error) call.reject(this.#error(item.error, call.method));
      else call.resolve(item.result);
    }
  }

  #error({ code, message, data }, method) {
    const Named = this.#byCode.get(code) ?? InboxRpcError;
    return new Named(message, { code, data, method });
  }

  #closedError(method) {
    const { exitCode, signal, reason } = this.#closed;
    const how = reason ?? (signal ? `was killed by ${signal}` : `exited with status ${exitCode}`);
    return new ConnectionClosedError(`inbox-rpc ${how}${method ? ` during ${method}` : ''}`, {
      exitCode,
      signal,
      method,
    });
  }

  #fail(reason) {
    this.#end({ exitCode: null, signal: null, reason });
    this.#input.end();
  }

  #end(status) {
    if (this.#closed) return;
    this.#closed = status;
    for (const [id, call] of this.#pending) {
      this.#pending.delete(id);
      call.settled();
      call.reject(this.#closedError(call.method));
    }
    this.emit('close', status);
  }
}

/**
 * Starts inbox-rpc (`command`, else $INBOX_RPC_BIN, else `inbox-rpc` on PATH) with `args`, or
 * talks over `streams: {input, output}`; then reads the contract — `contract` (a document, or
 * the path of one) or else the server's `rpc.discover` — and resolves with the client.
 */
export async function connect(options = {}) {
  const { command = process.env.INBOX_RPC_BIN || 'inbox-rpc', args = [], env, cwd, stderr = 'inherit' } = options;
  let client;
  if (options.streams) {
    client = new InboxRpcClient({ ...options, ...options.streams });
  } else {
    const child = spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', stderr] });
    const started = new Promise((resolve, reject) => child.once('spawn', resolve).once('error', reject));
    await started.catch((error) => {
      throw new ConnectionClosedError(`cannot start ${command}: ${error.message}`);
    });
    client = new InboxRpcClient({ ...options, input: child.stdin, output: child.stdout, child });
  }
  try {
    const contract =
      typeof options.contract === 'string' || options.contract instanceof URL
        ? JSON.parse(await readFile(options.contract, 'utf8'))
        : (options.contract ?? (await client.call('rpc.discover')));
    return client.adopt(contract);
  } catch (error) {
    client.close();
    throw error;
  }
}

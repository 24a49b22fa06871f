// A thin Node client for inbox-rpc: it starts the server (or talks over streams it is given),
// frames JSON-RPC 2.0 messages, and learns the methods and the named errors from the server's
// contract (its OpenRPC document), so nothing here lists a method or an error code.
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { accessSync, constants, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** No reply within the call's deadline (`timeout`); the request was cancelled ($/cancelRequest). */
export class CallTimeoutError extends Error {
  constructor(message, { method, timeout } = {}) {
    super(message);
    this.method = method;
    this.timeout = timeout;
  }
}
CallTimeoutError.prototype.name = 'CallTimeoutError';

/** How long a call waits for its reply unless told otherwise: no call waits for ever. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** The largest frame read; a server that writes a larger one is broken, and the connection ends. */
export const DEFAULT_MAX_FRAME_BYTES = 32 * 1024 * 1024;
/**
 * Names a contract method cannot take as a member, as the language gives them a meaning of its
 * own: `then` would make the client a thenable (so `await connect()` would call the server),
 * `constructor`, `__proto__` and `prototype` would replace its plumbing. Such a method stays
 * reachable through `call(name)`.
 */
const RESERVED = new Set(['then', 'constructor', '__proto__', 'prototype', 'toJSON', ...Object.getOwnPropertyNames(Object.prototype)]);

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

  constructor(framing = 'ndjson', { maxFrameBytes = DEFAULT_MAX_FRAME_BYTES } = {}) {
    this.framing = framing;
    this.maxFrameBytes = maxFrameBytes;
  }

  /**
   * Takes one chunk; returns the frames it completed, as text. Throws a RangeError, and holds no
   * more, once a frame (a line, a header block or a body) is larger than `maxFrameBytes`.
   */
  push(chunk) {
    this.#parts.push(chunk);
    this.#size += chunk.length;
    this.#checkSize(this.#size);
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
        if (header) this.#headerLength = this.#checkSize(Number(header[1]));
      }
    }
    this.#parts = bytes.length ? [bytes] : [];
    this.#size = bytes.length;
    // What is left is an unfinished frame: a line, or a body that may be larger than the bound.
    if (this.#length === null) this.#checkSize(this.#size);
    return frames;
  }

  #checkSize(size) {
    // A body being read may hold up to its Content-Length (itself checked) and the next frame's start.
    const limit = this.#length === null ? this.maxFrameBytes : this.#length + this.maxFrameBytes;
    if (size > limit) {
      this.#parts = [];
      this.#size = 0;
      throw new RangeError(`wrote a frame larger than ${this.maxFrameBytes} bytes (maxFrameBytes)`);
    }
    return size;
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
  #timeout;

  /**
   * Talks over `input` (the server's stdin) and `output` (its stdout). `connect()` is the usual
   * way in: it also reads the contract, which makes the namespaced methods and the error classes.
   * `timeout` (ms, default DEFAULT_TIMEOUT_MS) is each call's deadline, from the call to its reply,
   * whatever else the server sends meanwhile; `maxFrameBytes` bounds a frame read.
   */
  constructor({
    input,
    output,
    framing = 'ndjson',
    idPrefix = null,
    child = null,
    timeout = DEFAULT_TIMEOUT_MS,
    maxFrameBytes = DEFAULT_MAX_FRAME_BYTES,
  }) {
    super();
    if (!(timeout > 0)) throw new RangeError(`timeout must be a number of milliseconds above 0, not ${timeout}`);
    this.#input = input;
    this.#framing = framing;
    this.#idPrefix = idPrefix;
    this.#timeout = timeout;
    this.child = child;
    this.errors = {};
    input.on('error', () => {}); // a server gone: reported by the end of its output instead
    const reader = new FrameReader(framing, { maxFrameBytes });
    const onData = (chunk) => {
      let frames;
      try {
        frames = reader.push(chunk);
      } catch (error) {
        // A server that writes such a frame is broken: what follows is dropped, and one this client
        // started is stopped, so nothing waits on it.
        output.off('data', onData);
        output.resume?.();
        child?.kill('SIGKILL');
        return this.#fail(error.message);
      }
      for (const frame of frames) this.#receive(frame);
    };
    output.on('data', onData);
    this.exited = child
      ? new Promise((resolve) => child.on('close', (exitCode, signal) => resolve({ exitCode, signal })))
      : new Promise((resolve) => output.on('close', () => resolve({ exitCode: null, signal: null })));
    this.exited.then((status) => this.#end(status));
  }

  /**
   * Sends a request; the promise settles with its result or rejects with an InboxRpcError, a
   * ConnectionClosedError, or a CallTimeoutError once `timeout` ms (default: the client's) have
   * passed without the reply: one deadline from the call, which no other frame moves.
   */
  call(method, params, { signal, timeout = this.#timeout } = {}) {
    if (this.#closed) return Promise.reject(this.#closedError(method));
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (!(timeout > 0)) return Promise.reject(new RangeError(`timeout must be above 0 ms, not ${timeout}`));
    let frame;
    const id = this.#idPrefix === null ? this.#nextId++ : `${this.#idPrefix}${this.#nextId++}`;
    try {
      frame = encode(message(method, params, id), this.#framing);
    } catch (error) {
      return Promise.reject(new TypeError(`${method}: params cannot be sent as JSON: ${error.message}`));
    }
    return new Promise((resolve, reject) => {
      // An abort asks the server to stop; the call still settles with the server's answer
      // (RequestCancelled, -32800, or the result when the work had already finished).
      const cancel = () => this.notify('$/cancelRequest', { id });
      signal?.addEventListener('abort', cancel, { once: true });
      const timer = Number.isFinite(timeout)
        ? setTimeout(() => {
            if (!this.#pending.delete(id)) return;
            settled();
            cancel();
            reject(new CallTimeoutError(`${method}: no reply within ${timeout} ms; cancelled`, { method, timeout }));
          }, timeout)
        : null;
      timer?.unref?.();
      const settled = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', cancel);
      };
      this.#pending.set(id, { method, resolve, reject, settled });
      this.#input.write(frame);
    });
  }

  /**
   * The store's changes after the cursor `since` (none: from now), oldest first, a page at a time:
   * `for await (const change of client.changes(saved))`, saving `change.cursor` (every change
   * carries the cursor after it). A cursor older than the journal rejects with CursorTooOld
   * (code -32021): list the feed again, then take a new cursor.
   */
  async *changes(since, { limit = 100 } = {}) {
    let cursor = since;
    while (true) {
      const page = await this.call('feed.changes', cursor === undefined ? { limit } : { since: cursor, limit });
      yield* page.changes;
      cursor = page.cursor;
      if (!page.more) return cursor;
    }
  }

  /** Sends a notification (no reply comes). */
  notify(method, params) {
    if (!this.#closed) this.#write(message(method, params));
  }

  /**
   * Ends the server's input; resolves with its exit status once it is gone. A server this client
   * started that is still running `timeout` ms later (default 5000) is killed: closing never waits
   * for ever either.
   */
  close({ timeout = 5000 } = {}) {
    this.#input.end();
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) {
      const timer = setTimeout(() => this.child.kill('SIGKILL'), timeout);
      this.exited.then(() => clearTimeout(timer));
    }
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
        if (RESERVED.has(segment)) target = null;
        else if (!(segment in target)) made.add((target[segment] = Object.create(null)));
        target = target && made.has(target[segment]) ? target[segment] : null;
        if (!target) break;
      }
      // A name taken by the client itself, by the language (RESERVED) or by a namespace stays
      // reachable through call().
      if (target && !RESERVED.has(leaf) && !(leaf in target)) {
        target[leaf] = (params, options) => this.call(name, params, options);
      }
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
      if (item.error !== undefined) call.reject(this.#error(item.error, call.method));
      else call.resolve(item.result);
    }
  }

  #error(error, method) {
    // Whatever the server sent as the error, the rejection says what it was.
    const { code, message, data } = error !== null && typeof error === 'object' ? error : { data: error };
    const Named = this.#byCode.get(code) ?? InboxRpcError;
    const text = typeof message === 'string' ? message : `a malformed error reply: ${JSON.stringify(error)?.slice(0, 200)}`;
    return new Named(text, { code, data, method });
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

function runnable(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * $INBOX_RPC_BIN, else `inbox-rpc` on PATH, else, when $INBOX_RPC_BUILD asks for it, the build of the
 * checkout holding this file. Never one because it lies in the current directory: in someone else's
 * repository, that is their program.
 */
function defaultCommand({ INBOX_RPC_BIN, INBOX_RPC_BUILD, PATH = '' }) {
  const onPath = () => PATH.split(delimiter).some((dir) => dir && runnable(join(dir, 'inbox-rpc')));
  if (INBOX_RPC_BIN || !INBOX_RPC_BUILD || onPath()) return INBOX_RPC_BIN || 'inbox-rpc';
  const build = (kind) => fileURLToPath(new URL(`../../.build/${kind}/inbox-rpc`, import.meta.url));
  return [build('release'), build('debug')].find(runnable) ?? 'inbox-rpc';
}

/**
 * Starts inbox-rpc (`command`, else the default: see defaultCommand) with `args`, or
 * talks over `streams: {input, output}`; then reads the contract — `contract` (a document, or
 * the path of one) or else the server's `rpc.discover` — and resolves with the client.
 */
export async function connect(options = {}) {
  if (options.timeout !== undefined && !(options.timeout > 0)) {
    throw new RangeError(`timeout must be a number of milliseconds above 0, not ${options.timeout}`);
  }
  const { args = [], env, cwd, stderr = 'inherit' } = options;
  const command = options.command ?? defaultCommand(env ?? process.env);
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

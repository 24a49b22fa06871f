// The client's API, by hand. What the contract says — each method's params and result, the
// names of its errors — comes from ./contract.d.ts, which script/gen-client-stubs generates from
// Schemas/openrpc.json. These declarations need no @types/node: streams are typed by what the
// client uses of them.
import type { ErrorName, MethodName, Methods } from './contract.js';

export type { ErrorName, MethodName, Methods };

/** The framings the server reads: lines of JSON, or LSP's `Content-Length` headers. */
export type Framing = 'ndjson' | 'lsp';

export interface CallOptions {
  /** An abort sends `$/cancelRequest`; the call then rejects as `RequestCancelled` (-32800). */
  signal?: AbortSignal;
  /** This call's deadline in ms (default: the client's `timeout`); past it the call is cancelled and rejects `CallTimeoutError`. */
  timeout?: number;
}

/** No reply within the call's deadline; the request was cancelled. */
export declare class CallTimeoutError extends Error {
  name: 'CallTimeoutError';
  method: string | undefined;
  timeout: number | undefined;
}

/** Each call's deadline unless told otherwise (30 000 ms): no call waits for ever. */
export declare const DEFAULT_TIMEOUT_MS: number;
/** The largest frame read (32 MiB); a larger one ends the connection. */
export declare const DEFAULT_MAX_FRAME_BYTES: number;

/** An error reply. `name` is the error's key in the contract's `components.errors`. */
export declare class InboxRpcError<Name extends string = string> extends Error {
  name: Name;
  code: number;
  data: unknown;
  method: string | undefined;
  constructor(message: string, details?: { code?: number; data?: unknown; method?: string });
}

/** The connection ended (the server exited, or its output closed) before a reply came. */
export declare class ConnectionClosedError extends Error {
  name: 'ConnectionClosedError';
  exitCode: number | null;
  signal: string | null;
  method: string | undefined;
}

export interface ExitStatus {
  exitCode: number | null;
  signal: string | null;
  /** Why the client ended the connection itself (a frame that is not JSON, or one too large). */
  reason?: string;
}

/** Cuts bytes into frames; exported for hosts that read the server's output themselves. */
export declare class FrameReader {
  constructor(framing?: Framing, options?: { maxFrameBytes?: number });
  readonly framing: Framing;
  readonly maxFrameBytes: number;
  /** Takes one chunk; returns the frames it completed, as text; throws a RangeError past `maxFrameBytes`. */
  push(chunk: Uint8Array): string[];
}

/** The server's stdin and stdout, as far as the client uses them. */
export interface InputStream {
  write(text: string): unknown;
  end(): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}
export interface OutputStream {
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}

/** A call's arguments: params may be left out when the method requires none. */
type CallArgs<M extends MethodName> = {} extends Methods[M]['params']
  ? [params?: Methods[M]['params'], options?: CallOptions]
  : [params: Methods[M]['params'], options?: CallOptions];
type Call<M extends MethodName> = (...args: CallArgs<M>) => Promise<Methods[M]['result']>;

/** `feed.list` → `client.feed.list(params)`; a name without a dot is a method of the client. */
type Head<M> = M extends `${infer H}.${string}` ? H : never;
type Namespaced = {
  [H in Head<MethodName>]: { [M in MethodName as M extends `${H}.${infer Rest}` ? Rest : never]: Call<M> };
} & { [M in MethodName as M extends `${string}.${string}` ? never : M]: Call<M> };

/** One class per named error of the contract: `error instanceof client.errors.MessageNotFound`. */
export type ErrorClasses = {
  [N in ErrorName]: new (message: string, details?: { code?: number; data?: unknown; method?: string }) => InboxRpcError<N>;
};

export interface ClientOptions {
  framing?: Framing;
  /** Request ids are integers from 1, or strings with this prefix. */
  idPrefix?: string | null;
  /** Each call's deadline in ms, from the call to its reply whatever else arrives (default 30 000; Infinity: none). */
  timeout?: number;
  /** The largest frame read, in bytes (default 32 MiB). */
  maxFrameBytes?: number;
}

export interface ConnectOptions extends ClientOptions {
  /** The server to start: default $INBOX_RPC_BIN, else `inbox-rpc` on PATH, else with $INBOX_RPC_BUILD set the checkout's build. */
  command?: string;
  args?: string[];
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** The server's stderr: 'inherit' (default), 'ignore', 'pipe', or a stream. */
  stderr?: unknown;
  /** Talk over these instead of starting a server. */
  streams?: { input: InputStream; output: OutputStream };
  /** The OpenRPC document, or the path of one; default: the server's `rpc.discover`. */
  contract?: object | string | URL;
}

type NotificationListener<E> = E extends MethodName ? (params: Methods[E]['params']) => void : (params: any) => void;

export interface InboxRpcClientBase {
  /** The contract the client was made from. */
  readonly contract: any;
  readonly errors: ErrorClasses;
  /** The spawned server, when `connect()` started one. */
  readonly child: { pid?: number; kill(signal?: string | number): boolean } | null;
  /** Resolves once the server has exited (or its output has closed). */
  readonly exited: Promise<ExitStatus>;
  call<M extends MethodName>(method: M, ...args: CallArgs<M>): Promise<Methods[M]['result']>;
  call(method: string, params?: object | unknown[], options?: CallOptions): Promise<unknown>;
  notify(method: string, params?: object | unknown[]): void;
  /** feed.changes after `since` (none: from now), every page; each change carries its cursor. */
  changes(
    since?: string,
    options?: { limit?: number },
  ): AsyncGenerator<{ id: string; change: 'added' | 'updated' | 'removed'; fields?: string[]; cursor: string }, string>;
  /** Ends the input; a server the client started that is still running `timeout` ms later (default 5000) is killed. */
  close(options?: { timeout?: number }): Promise<ExitStatus>;
  adopt(contract: object): this;
  /** Every notification; also emitted under its own method name (`feed.changed`, `log`, …). */
  on(event: 'notification', listener: (method: string, params: unknown) => void): this;
  on(event: 'close', listener: (status: ExitStatus) => void): this;
  on<E extends string>(event: E, listener: NotificationListener<E>): this;
  once(event: 'notification', listener: (method: string, params: unknown) => void): this;
  once(event: 'close', listener: (status: ExitStatus) => void): this;
  once<E extends string>(event: E, listener: NotificationListener<E>): this;
  off(event: string, listener: (...args: any[]) => void): this;
}

export type InboxRpcClient = InboxRpcClientBase & Namespaced;

export declare const InboxRpcClient: {
  new (options: ClientOptions & { input: InputStream; output: OutputStream; child?: unknown }): InboxRpcClient;
};

/** Starts the server (or uses `streams`), reads the contract, and resolves with the client. */
export declare function connect(options?: ConnectOptions): Promise<InboxRpcClient>;

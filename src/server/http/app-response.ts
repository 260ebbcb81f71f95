import { type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * The server's answers (`http.createServer`'s ServerResponse): each carries the headers every answer has (the security
 * headers) and its request's id, added when its status line is written rather than set one by one as the request
 * comes in. Node's `setHeader` checks, lower-cases and stores each header, and `writeHead` then merges the headers it
 * is given into those: on an answer that set nothing before its `writeHead` (every JSON answer of the doors), the
 * whole block now goes through that one call, which checks each header once (`npm run bench -- scale`). A header an
 * answer set itself, under the same name, is kept rather than doubled.
 */
export class AppResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** The request's id (observability.ts's requestIdOf): sent as X-Request-Id, named by the request's log lines. */
  requestId = '';
  /** What every answer carries, as name, value, name, value… (security-headers.ts); set before any route runs. */
  everyAnswer: readonly string[] = [];
  /** When the handler began serving it (`performance.now()`) and the path it asked for: its metrics and log line. */
  startedAt = 0;
  pathname = '';
  /** Whether a header was set before the status line: the block is then merged by name, as Node merges it. */
  private headersSet = false;
  /**
   * Called once, as the answer ends (its last byte handed to `end()`): the request's metrics and log line, its
   * connection idle again (http/handler.ts). A hook rather than 'finish' listeners: two listeners on every answer, with
   * the array Node makes to hold them beside its own, cost more than the rest of a kept answer's bookkeeping.
   */
  onEnd: ((res: AppResponse) => void) | undefined = undefined;
  /** The server's drain (http/drain.ts): once it has begun, the status line says `Connection: close`. */
  drain: { readonly closesConnections: boolean } | undefined = undefined;

  override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    const first = !this.writableEnded;
    super.end(chunk as string, encoding as BufferEncoding, callback as () => void);
    if (first) this.onEnd?.(this);
    return this;
  }

  override setHeader(name: string, value: number | string | readonly string[]): this {
    this.headersSet = true;
    return super.setHeader(name, value);
  }

  override appendHeader(name: string, value: string | readonly string[]): this {
    this.headersSet = true;
    return super.appendHeader(name, value);
  }

  override writeHead(
    statusCode: number,
    reason?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    const message = typeof reason === 'string' ? reason : undefined;
    const given = typeof reason === 'string' ? headers : reason;
    // A second status line is Node's error to raise, with nothing added first.
    if (this.headersSent) return super.writeHead(statusCode, message, given);
    if (!this.headersSet && (given === undefined || (!Array.isArray(given) && !namesAnyOf(given, this.everyAnswer)))) {
      const block: OutgoingHttpHeader[] = [...this.everyAnswer, 'X-Request-Id', this.requestId];
      for (const name in given) block.push(name, given[name] as OutgoingHttpHeader);
      if (this.drain?.closesConnections) block.push('Connection', 'close');
      return super.writeHead(statusCode, message, block as string[]);
    }
    if (this.drain?.closesConnections) super.setHeader('Connection', 'close');
    for (let i = 0; i + 1 < this.everyAnswer.length; i += 2) {
      const name = this.everyAnswer[i] as string;
      if (!this.hasHeader(name)) super.setHeader(name, this.everyAnswer[i + 1] as string);
    }
    if (!this.hasHeader('X-Request-Id')) super.setHeader('X-Request-Id', this.requestId);
    return super.writeHead(statusCode, message, given);
  }
}

/** Whether `headers` names one of the headers every answer carries, or the request's id (in any case). */
function namesAnyOf(headers: OutgoingHttpHeaders, everyAnswer: readonly string[]): boolean {
  const names = lowerCaseNamesOf(everyAnswer);
  for (const name in headers) if (names.has(name.toLowerCase())) return true;
  return false;
}

/** The lower-case names of a block of headers, with the request id's: worked out once per block (one per server). */
function lowerCaseNamesOf(everyAnswer: readonly string[]): ReadonlySet<string> {
  let names = lowerCaseNames.get(everyAnswer);
  if (!names) {
    names = new Set(['x-request-id', ...everyAnswer.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase())]);
    lowerCaseNames.set(everyAnswer, names);
  }
  return names;
}

const lowerCaseNames = new WeakMap<readonly string[], ReadonlySet<string>>();

/**
 * A fetch that holds one deadline over the whole exchange — connection, headers AND body —
 * and refuses a body larger than a cap. The SDKs' own timeouts stop at the response headers,
 * so a server that sends headers and then one byte a second (or an endless chunked body) held
 * a call far past --timeout; here the body is read to the end inside fetch, under the deadline,
 * and handed to the SDK as a complete in-memory Response.
 */
export class ResponseTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the response body exceeded ${maxBytes} bytes; the read was stopped`);
    this.name = 'ResponseTooLarge';
  }
}

export class DeadlineExceeded extends Error {
  constructor(readonly deadlineMs: number) {
    super(`no complete response within ${deadlineMs} ms (headers and body)`);
    this.name = 'DeadlineExceeded';
  }
}

/** 2 MiB: a 16k-token answer is well under 100 kB of JSON. */
export const DEFAULT_MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

export interface FetchLimits {
  deadlineMs: number;
  maxBytes: number;
}

/** What went wrong inside the last bounded fetch (SDKs wrap fetch errors in their own types). */
export interface FetchOutcome {
  failure?: ResponseTooLarge | DeadlineExceeded;
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

export function boundedFetch(limits: FetchLimits, outcome: FetchOutcome = {}, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const deadline = AbortSignal.timeout(limits.deadlineMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    const timedOut = (): DeadlineExceeded => (outcome.failure = new DeadlineExceeded(limits.deadlineMs));
    let res: Response;
    try {
      res = await base(input, { ...init, signal });
    } catch (e) {
      if (deadline.aborted) throw timedOut();
      throw e;
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    if (res.body) {
      const reader = res.body.getReader();
      // Some bodies ignore the signal once headers are in: race every read against it.
      let onAbort: () => void = () => undefined;
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(deadline.aborted ? timedOut() : signal.reason);
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      });
      aborted.catch(() => undefined);
      try {
        for (;;) {
          const { done, value } = await Promise.race([reader.read(), aborted]);
          if (done) break;
          total += value.byteLength;
          if (total > limits.maxBytes) throw (outcome.failure = new ResponseTooLarge(limits.maxBytes));
          chunks.push(value);
        }
      } catch (e) {
        void reader.cancel().catch(() => undefined);
        throw e;
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    }
    const body = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      body.set(c, at);
      at += c.byteLength;
    }
    const headers = new Headers(res.headers);
    // The body is already decoded; the SDK must not try again.
    headers.delete('content-encoding');
    headers.delete('content-length');
    return new Response(NULL_BODY.has(res.status) ? null : body, { status: res.status, statusText: res.statusText, headers });
  };
}

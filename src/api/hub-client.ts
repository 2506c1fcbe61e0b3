import type { z } from 'zod';
import {
  failureFromStatus,
  hubFailure,
  type HubFailure,
  type HubFailureKind,
} from './hub-failure.ts';

/** Where the hub is and how to reach it: the page's fetch, the service worker's, a test's. */
export interface HubConnection {
  fetch: typeof fetch;
  /** Origin (and base path) of the hub, without `/api`; '' for the serving origin. */
  hubUrl: string;
}

export interface HubCall {
  method?: 'GET' | 'POST';
  /** Below the hub's URL, starting with `/api`. */
  path: string;
  /** Sent as the JSON body. */
  json?: unknown;
  /** The caller's own cancel: an aborted call throws the abort reason, as fetch does. */
  signal?: AbortSignal | undefined;
  /** The whole exchange, body included. */
  timeoutMs: number;
}

export type HubResult<T> = { ok: true; data: T } | { ok: false; failure: HubFailure };

/** A failed hub call, for callers that throw rather than branch. */
export class HubError extends Error {
  constructor(readonly failure: HubFailure) {
    super(failure.message);
    this.name = 'HubError';
  }

  get kind(): HubFailureKind {
    return this.failure.kind;
  }
}

/**
 * The one way the browser talks to the hub. Never throws for what the network or the hub does
 * (that is a `failure`), only when the caller aborts.
 */
export async function callHub<T>(
  hub: HubConnection,
  call: HubCall,
  replySchema: z.ZodType<T>,
): Promise<HubResult<T>> {
  const controller = new AbortController();
  const cancel = () => controller.abort(call.signal?.reason);
  call.signal?.throwIfAborted();
  call.signal?.addEventListener('abort', cancel);
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Raced as well as aborted: a fetch that ignores the signal, or a body that never finishes,
  // must not hold the caller (and the outbox's lock) forever.
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve('timeout');
    }, call.timeoutMs);
  });
  // Called detached: a browser's fetch throws "Illegal invocation" when `this` is `hub`.
  const send = hub.fetch;
  const exchange = async () => {
    const response = await send(`${hub.hubUrl.replace(/\/+$/, '')}${call.path}`, {
      method: call.method ?? 'GET',
      headers:
        call.json === undefined
          ? { accept: 'application/json' }
          : { 'content-type': 'application/json', accept: 'application/json' },
      ...(call.json === undefined ? {} : { body: JSON.stringify(call.json) }),
      signal: controller.signal,
    });
    return { status: response.status, ok: response.ok, body: await response.text() };
  };
  try {
    const reply = await Promise.race([exchange(), timeout]);
    call.signal?.throwIfAborted();
    if (reply === 'timeout') return failed(hubFailure('timeout'));
    const body = parseJson(reply.body);
    if (!reply.ok) return failed(failureFromStatus(reply.status, body));
    const parsed = replySchema.safeParse(body);
    // A captive portal answers 200 with its own page: that is no answer from the hub.
    return parsed.success ? { ok: true, data: parsed.data } : failed(hubFailure('foreign'));
  } catch {
    call.signal?.throwIfAborted();
    return failed(hubFailure(controller.signal.aborted ? 'timeout' : 'network'));
  } finally {
    clearTimeout(timer);
    call.signal?.removeEventListener('abort', cancel);
  }
}

function failed(failure: HubFailure): { ok: false; failure: HubFailure } {
  return { ok: false, failure };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

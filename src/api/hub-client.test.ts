import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callHub, type HubConnection } from './hub-client.ts';
import { postBatch } from './post-batch.ts';

const hubUrl = 'https://hub.example';
const timeoutMs = 50;

function json(body: unknown, status: number): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

describe('callHub', () => {
  it('asks the hub below its URL, JSON in and out, with the fetch it was given', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const hub: HubConnection = {
      hubUrl: 'https://hub.example/base//',
      fetch: (url, init) => {
        calls.push({ url: String(url), init: init ?? {} });
        return Promise.resolve(json({ results: [] }, 200));
      },
    };

    const result = await postBatch(hub, [], timeoutMs);

    expect(result).toMatchObject({ ok: true });
    expect(calls[0]?.url).toBe('https://hub.example/base/api/responses/batch');
    expect(calls[0]?.init.method).toBe('POST');
    expect(new Headers(calls[0]?.init.headers).get('content-type')).toBe('application/json');
    expect(new Headers(calls[0]?.init.headers).get('accept')).toBe('application/json');
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ submissions: [] });
  });

  it('aborts the request when it takes too long', async () => {
    let signal: AbortSignal | undefined;
    const hub: HubConnection = {
      hubUrl,
      fetch: (_url, init) => {
        signal = init?.signal ?? undefined;
        return new Promise<Response>(() => {});
      },
    };
    const result = await callHub(hub, { path: '/api/x', timeoutMs: 20 }, z.unknown());
    expect(result).toMatchObject({ ok: false, failure: { kind: 'timeout' } });
    expect(signal?.aborted).toBe(true);
  });

  it("throws when the caller cancels, as fetch does, instead of reporting the hub's failure", async () => {
    const controller = new AbortController();
    const hub: HubConnection = {
      hubUrl,
      fetch: (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    };
    const call = callHub(
      hub,
      { path: '/api/x', signal: controller.signal, timeoutMs: 5_000 },
      z.unknown(),
    );
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reads a batch reply that does not answer the leads sent as no answer from the hub', async () => {
    const reply = {
      results: [{ index: 0, client_id: 'someone-else', status: 'created', id: 1 }],
    };
    const hub: HubConnection = { hubUrl, fetch: () => Promise.resolve(json(reply, 200)) };
    const result = await postBatch(hub, [{ client_id: 'a' }], timeoutMs);
    expect(result).toMatchObject({ ok: false, failure: { kind: 'foreign' } });
  });
});

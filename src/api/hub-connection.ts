import { appConfig } from '../config/env.ts';
import type { HubConnection } from './hub-client.ts';

// Apart from hub-client.ts so that the sync engine, which the worker, the page and Node (bench,
// tests) all run with a connection handed in, never needs the build's environment.

/** The hub of this build, reached with the given fetch (the page's unless told otherwise). */
export function hubConnection(
  fetch: typeof globalThis.fetch = globalThis.fetch.bind(globalThis),
): HubConnection {
  return { fetch, hubUrl: appConfig.hubUrl };
}

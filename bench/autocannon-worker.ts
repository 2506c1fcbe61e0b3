// bench:hub's load generator in a worker thread of its own: autocannon must not share the event
// loop (and its core) with the server it measures. Receives the url, connections and seconds,
// posts autocannon's result back.
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';
import { questionnaireLead } from '../src/testing/lead-fixtures.ts';

const { url, connections, seconds } = workerData as {
  url: string;
  connections: number;
  seconds: number;
};
const raw = await autocannon({
  url,
  connections,
  duration: seconds,
  requests: [
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: JSON.stringify(questionnaireLead()) }),
    },
  ],
});
// In a worker thread autocannon leaves its histograms encoded (for its own workers to merge).
// (aggregateResult is part of autocannon's API, missing from its types.)
const { aggregateResult } = autocannon as unknown as {
  aggregateResult(results: unknown[], options: object): autocannon.Result;
};
const result = aggregateResult([raw], { url, connections });
parentPort?.postMessage({
  non2xx: result.non2xx,
  rps: result.requests.total / seconds,
  p50: result.latency.p50,
  p99: result.latency.p99,
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReverseProxy {
  /** Where clients reach the proxy. */
  url: string;
  close(): Promise<void>;
}

/**
 * A reverse proxy as nginx (`proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for`) or
 * Caddy's reverse_proxy runs it in front of the server: it keeps the client's Host, appends the
 * address the client connected from to X-Forwarded-For, says the client spoke https, and connects
 * to `target` from `localAddress` (a loopback address of its own, the one TRUST_PROXY names).
 * Given several targets (instances of one server), it sends each request to the next one in
 * turn, as a load balancer's round robin does.
 */
export async function startReverseProxy(
  target: string | string[],
  localAddress: string,
): Promise<ReverseProxy> {
  const upstreams = (Array.isArray(target) ? target : [target]).map((url) => new URL(url));
  let next = 0;
  const server = http.createServer((incoming, answer) => {
    const upstream = upstreams[next % upstreams.length]!;
    next += 1;
    const headers = { ...incoming.headers };
    const from = incoming.socket.remoteAddress ?? '';
    const before = headers['x-forwarded-for'];
    headers['x-forwarded-for'] = before ? `${String(before)}, ${from}` : from;
    headers['x-forwarded-proto'] = 'https';
    const outgoing = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers,
        localAddress,
      },
      (response) => {
        answer.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(answer);
      },
    );
    outgoing.on('error', () => {
      answer.writeHead(502);
      answer.end();
    });
    incoming.pipe(outgoing);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import type { Server } from 'node:net';

/**
 * The address the server listens on, as `npm start` prints it and as links in mails name it
 * without PUBLIC_URL: a wildcard address as localhost.
 */
export function listeningOrigin(address: ReturnType<Server['address']>): string {
  if (!address || typeof address === 'string') return 'http://localhost';
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcard
    ? 'localhost'
    : address.family === 'IPv6'
      ? `[${address.address}]`
      : address.address;
  return `http://${host}:${address.port}`;
}

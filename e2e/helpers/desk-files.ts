import { fileURLToPath } from 'node:url';
import { deskOnlyFiles, readBuild } from '../../scripts/desk-chunks.mjs';

// The built files only Survey Desk loads, by the chunk graph from its entry (scripts/desk-chunks.mjs),
// for the journeys that watch what a page downloads.
const dist = fileURLToPath(new URL('../../dist', import.meta.url));
const { deskOnly } = deskOnlyFiles(readBuild(dist).graph);

/** Whether a URL the browser requests is a file only Survey Desk loads. */
export function isDeskOnlyFile(url: string | URL): boolean {
  return deskOnly.has(new URL(url, 'http://localhost').pathname.replace(/^\//, ''));
}

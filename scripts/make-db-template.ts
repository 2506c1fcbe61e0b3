// Writes the template of a new PGlite data folder (server/db/template.ts) to
// dist-server/pglite-template-<stamp>/, where a first start finds it (server/main.ts).
// `npm run build` runs it, and the launcher (scripts/build-if-stale.mjs) when the template of
// the current migrations, seed and PGlite is missing.
import { writeTemplate } from '../server/db/template.ts';
import { templateFile } from '../server/db/template-file.mjs';

const started = performance.now();
const file = templateFile();
await writeTemplate(file);
const seconds = ((performance.now() - started) / 1000).toLocaleString('de-DE', {
  maximumFractionDigits: 1,
});
console.log(`Datenbank-Vorlage geschrieben: ${file} (${seconds} s)`);

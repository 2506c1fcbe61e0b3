// `npm run restore -- <file>`: restores a backup of `npm run backup` (docs/backup.md). Without
// DATABASE_URL into DATA_DIR, which must be empty (or missing); with DATABASE_URL into that
// PostgreSQL database, which must not hold the app's tables yet, and the documents into
// DATA_DIR/storage. Then `npm start` applies migrations newer than the backup.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadRestoreConfig } from '../server/config.ts';
import { restoreIntoDataDir, restoreIntoPostgres } from '../server/backup/restore.ts';

const envFile = path.resolve('.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

async function main() {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) {
    throw new Error('Aufruf: npm run restore -- <Sicherungsdatei>');
  }
  if (!existsSync(file)) throw new Error(`${file} gibt es nicht.`);
  const config = loadRestoreConfig();
  const options = { file, dataDir: config.dataDir, keepSecret: !config.jwtSecretSet };
  const result = config.databaseUrl
    ? await restoreIntoPostgres({ ...options, databaseUrl: config.databaseUrl })
    : await restoreIntoDataDir(options);
  console.log(
    `Wiederhergestellt: Sicherung vom ${result.createdAt} in ` +
      (config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : config.dataDir),
  );
  console.log(
    `  ${result.counts.leads} Leads, ${result.counts.users} Konten, ${result.counts.documents} Dokumente`,
  );
  if (!result.secretRestored) {
    console.log(
      '  JWT-Schlüssel: nicht aus der Sicherung (JWT_SECRET gesetzt oder keiner gesichert).',
    );
  }
  console.log('  Jetzt "npm start": neuere Migrationen laufen dabei an.');
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});

// `npm run backup`: a backup of the embedded database and the stored documents into BACKUP_DIR
// (else ./backups), as universa-backup-<UTC time>.zip (docs/backup.md). A running server writes
// it itself, asked over its control socket (DATA_DIR/control/backup.sock), and keeps taking
// leads meanwhile; with no server on DATA_DIR this process opens the database and writes it.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { createBackup } from '../server/backup/backup.ts';
import { requestBackup } from '../server/backup/backup-service.ts';

const envFile = path.resolve('.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

async function main() {
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new Error(
      'Mit DATABASE_URL liegt die Datenbank in PostgreSQL: dort sichert pg_dump (docs/backup.md).',
    );
  }
  const answer = await requestBackup(config.dataDir);
  if (answer) return report(answer);
  // No control socket: either no server, or one that predates it and must not be run beside.
  const running = await fetch(`http://127.0.0.1:${config.port}/api/health`).catch(() => null);
  if (running) {
    throw new Error(
      `Unter Port ${config.port} läuft ein Server ohne Steuer-Socket in ${config.dataDir}. ` +
        'Bitte ihn neu starten oder beenden.',
    );
  }
  const db = await openDatabase({ dataDir: config.dataDir });
  try {
    const result = await createBackup({
      db,
      dataDir: config.dataDir,
      backupDir: config.backup.manualDir,
    });
    report(result);
  } finally {
    await db.close();
  }
}

function report(result: { file?: unknown; bytes?: unknown; counts?: unknown; sameDisk?: unknown }) {
  const counts = result.counts as { leads: number; users: number; documents: number };
  console.log(`Sicherung geschrieben: ${String(result.file)}`);
  console.log(
    `  ${counts.leads} Leads, ${counts.users} Konten, ${counts.documents} Dokumente, ` +
      `${Math.round(Number(result.bytes) / 1024)} KB`,
  );
  if (result.sameDisk) {
    console.log(
      '  Achtung: Die Sicherung liegt auf demselben Datenträger wie DATA_DIR. Bitte auf einen anderen kopieren.',
    );
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});

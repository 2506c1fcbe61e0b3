// `npm run seed:demo [-- --count 5000]`: adds demo customers with leads and answers to the
// database, on its own connection: DATABASE_URL (a local PostgreSQL, or a hosted project's direct
// connection string), otherwise the PGlite database in DATA_DIR, which only one process may open:
// then the server must be stopped. The generators (supabase/seed-demo.sql) exist only inside each
// chunk's transaction. `npm run seed:demo -- --remove` deletes the demo data again (every address
// ending in @demo.example).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.ts';
import { openDatabase, type Database } from '../server/db/database.ts';
import { maxDemoCount, removeDemo, seedDemo } from './demo-data.ts';

const envFile = path.resolve('.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000' },
    remove: { type: 'boolean', default: false },
  },
});

async function connection(): Promise<Database> {
  const config = loadConfig();
  if (config.databaseUrl) return openDatabase({ databaseUrl: config.databaseUrl });
  if (config.supabase.url) {
    throw new Error(
      'Für ein gehostetes Projekt bitte DATABASE_URL auf dessen direkte Datenbankverbindung setzen.',
    );
  }
  const running = await fetch(`http://127.0.0.1:${config.port}/rest/v1/`).catch(() => null);
  if (running) {
    throw new Error(
      `Der Server unter Port ${config.port} hält die PGlite-Datenbank in ${config.dataDir}. ` +
        'Bitte den Server zuerst beenden (oder DATABASE_URL setzen).',
    );
  }
  const db = await openDatabase({ dataDir: config.dataDir });
  const ready = await db.query<{ ready: boolean }>(
    `select to_regclass('public.users') is not null as ready`,
  );
  if (!ready.rows[0]?.ready) {
    await db.close();
    throw new Error(`Keine Datenbank in ${config.dataDir}. Bitte zuerst "npm start" ausführen.`);
  }
  return db;
}

const count = Number(values.count);
if (!Number.isInteger(count) || count < 1 || count > maxDemoCount) {
  console.error(
    `--count muss eine ganze Zahl von 1 bis ${maxDemoCount.toLocaleString('de-DE')} sein.`,
  );
  process.exit(1);
}

async function main() {
  const db = await connection();
  try {
    await fill(db);
  } finally {
    await db.close();
  }
}

async function fill(db: Database) {
  if (values.remove) {
    const removed = await removeDemo(db);
    console.log(
      `Demo-Daten entfernt: ${removed.customers.toLocaleString('de-DE')} Kunden, ` +
        `${removed.responses.toLocaleString('de-DE')} Anfragen.`,
    );
    return;
  }
  const started = performance.now();
  const result = await seedDemo(db, {
    count,
    onProgress: (done, total) => {
      const line = `Demo-Daten: ${done.toLocaleString('de-DE')} von ${total.toLocaleString('de-DE')} Kunden`;
      if (process.stdout.isTTY) process.stdout.write(`\r${line}`);
      else console.log(line);
    },
  });
  if (process.stdout.isTTY) process.stdout.write('\n');
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Fertig in ${seconds} s: ${result.customers.toLocaleString('de-DE')} Kunden, ` +
      `${result.responses.toLocaleString('de-DE')} Anfragen, ${result.answers.toLocaleString('de-DE')} Antworten. ` +
      'Entfernen mit: npm run seed:demo -- --remove',
  );
}

main().catch((error: unknown) => {
  console.error(
    `Demo-Daten fehlgeschlagen: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});

// `npm run seed:demo [-- --count 5000]`: adds demo customers with leads and answers to the RUNNING
// server's database, through its gateway with the service role key (derived from the same secret
// the server uses). Against a hosted project: SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY.
// `npm run seed:demo -- --remove` deletes them again (every address ending in @demo.example).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.ts';
import { apiKeys } from '../server/gateway/gateway-jwt.ts';
import { maxDemoCount, removeDemo, seedDemo, serviceClient } from './demo-data.ts';

const envFile = path.resolve('.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000' },
    remove: { type: 'boolean', default: false },
  },
});

async function connection() {
  const hostedUrl = process.env.SUPABASE_URL;
  const hostedKey = process.env.SUPABASE_SERVICE_ROLE_KEY;
  if (hostedUrl && hostedKey) return { url: hostedUrl, key: hostedKey };
  const config = loadConfig();
  const url = `http://127.0.0.1:${config.port}`;
  return { url, key: (await apiKeys(config.jwtSecret)).serviceRoleKey };
}

async function main() {
  const { url, key } = await connection();
  const health = await fetch(`${url}/rest/v1/`, { headers: { apikey: key } }).catch(() => null);
  if (!health) {
    console.error(`Kein Server unter ${url}. Bitte zuerst "npm start" ausführen.`);
    process.exit(1);
  }
  const supabase = serviceClient(url, key);
  if (values.remove) {
    const removed = await removeDemo(supabase);
    console.log(
      `Demo-Daten entfernt: ${removed.customers.toLocaleString('de-DE')} Kunden, ` +
        `${removed.responses.toLocaleString('de-DE')} Anfragen.`,
    );
    return;
  }
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1 || count > maxDemoCount) {
    console.error(
      `--count muss eine ganze Zahl von 1 bis ${maxDemoCount.toLocaleString('de-DE')} sein.`,
    );
    process.exit(1);
  }
  const started = performance.now();
  const result = await seedDemo(supabase, {
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

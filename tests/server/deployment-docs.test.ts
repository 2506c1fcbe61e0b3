import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import https from 'node:https';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { questionnaireLead } from '../../src/testing/lead-fixtures.ts';
import { uploadLimitBytes } from '../../server/gateway/storage/upload-routes.ts';
import { startGatewayServer, type GatewayServer } from '../helpers/gateway-server.ts';
import { freePort } from '../helpers/server-process.ts';

// docs/production.md and the files in deploy/: the tools themselves accept each file (caddy adapt,
// nginx -t with a self-signed certificate, systemd-analyze verify; .ci/run installs them), the page
// shows each file as it is, and it names only variables the server reads. Then Caddy and nginx
// run with these files (ports and certificates of this machine) in front of a server over TLS:
// the server tells the clients apart by X-Forwarded-For, and the proxy adds HSTS.

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const page = read('docs/production.md');
const deployFiles = readdirSync(path.join(root, 'deploy')).sort();
const work = mkdtempSync(path.join(tmpdir(), 'deployment-docs-'));
const nginxBin = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs a tool; a missing one fails with the package that brings it (never a skip). */
function tool(command: string, args: string[], apt: string) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  if ((result.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    throw new Error(`${command} fehlt. Bitte installieren: apt-get install -y ${apt}`);
  }
  return {
    status: result.status,
    stdout: result.stdout,
    output: `${result.stdout}${result.stderr}`,
  };
}

/** The variables server/config.ts reads (the keys of its envSchema). */
function configVariables(): Set<string> {
  const source = read('server/config.ts');
  const schema = source.slice(source.indexOf('const envSchema'), source.indexOf('\n});'));
  return new Set([...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]!));
}

describe('deployment files and docs/production.md', () => {
  it('shows every file of deploy/ on the page as it is', () => {
    expect(deployFiles).toEqual(['Caddyfile', 'nginx.conf', 'universa-leads.service']);
    for (const file of deployFiles) {
      const body = read(`deploy/${file}`).trimEnd();
      expect(page.includes(`\n${body}\n\`\`\``), `deploy/${file} in docs/production.md`).toBe(true);
    }
  });

  it('names only variables the server reads', () => {
    const known = configVariables();
    expect(known.has('TRUST_PROXY')).toBe(true);
    // Read by the build (Vite) or by tools, not by the server.
    const notServer = /^(VITE_|API_PORT$|STARTUP_TIMING$|RUNLEVEL$)/;
    const text = [page, ...deployFiles.map((file) => read(`deploy/${file}`))].join('\n');
    const named = new Set([
      // `SOME_NAME` in the text, and NAME=value wherever it is set (shell, unit, env file).
      ...[...text.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g)].map((match) => match[1]!),
      ...[...text.matchAll(/(?:^|[\s`]|Environment=)([A-Z][A-Z0-9_]+)=\S/gm)].map(
        (match) => match[1]!,
      ),
    ]);
    const unknown = [...named].filter((name) => !known.has(name) && !notServer.test(name));
    expect(unknown).toEqual([]);
    for (const name of ['HOST', 'PUBLIC_URL', 'TRUST_PROXY', 'DATA_DIR', 'JWT_SECRET']) {
      expect(named.has(name), name).toBe(true);
    }
  });

  it('caddy adapt accepts deploy/Caddyfile: no compression, the server port, room for a 20 MB document', () => {
    const adapted = tool(
      'caddy',
      ['adapt', '--config', path.join(root, 'deploy/Caddyfile'), '--adapter', 'caddyfile'],
      'caddy',
    );
    expect(adapted.status, adapted.output).toBe(0);
    const config = adapted.stdout;
    expect(() => JSON.parse(config) as unknown).not.toThrow();
    const handlers = [...config.matchAll(/"handler":"([a-z_]+)"/g)].map((match) => match[1]);
    expect(handlers).toContain('reverse_proxy');
    expect(handlers).not.toContain('encode');
    expect(config).toContain('"dial":"127.0.0.1:8080"');
    expect(config).toContain('"uri":"/api/health"');
    expect(config).toContain('Strict-Transport-Security');
    const maxSize = Number(/"max_size":(\d+)/.exec(config)?.[1]);
    expect(maxSize).toBeGreaterThan(uploadLimitBytes + 16 * 1024);
  });

  it('nginx -t accepts deploy/nginx.conf with a self-signed certificate', () => {
    const { cert, key } = selfSigned(work);
    const site = read('deploy/nginx.conf');
    expect(site).toMatch(/^\s*gzip off;/m);
    expect(site).not.toMatch(/^\s*gzip on;/m);
    expect(site).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
    expect(site).toMatch(/^\s*server 127\.0\.0\.1:8080;/m);
    const bodyLimit = /client_max_body_size (\d+)m;/.exec(site)?.[1];
    expect(Number(bodyLimit) * 1024 * 1024).toBeGreaterThan(uploadLimitBytes + 16 * 1024);
    writeFileSync(
      path.join(work, 'site.conf'),
      site
        .replace('/etc/letsencrypt/live/leads.example.de/fullchain.pem', cert)
        .replace('/etc/letsencrypt/live/leads.example.de/privkey.pem', key),
    );
    // The rest of a main configuration, as Debian's nginx.conf has it (its `gzip on;` included).
    writeFileSync(
      path.join(work, 'nginx.conf'),
      [
        `pid ${work}/nginx.pid;`,
        `error_log ${work}/error.log;`,
        'events {}',
        'http {',
        `  access_log off;`,
        `  client_body_temp_path ${work}/body;`,
        `  proxy_temp_path ${work}/proxy;`,
        '  gzip on;',
        `  include ${work}/site.conf;`,
        '}',
      ].join('\n'),
    );
    // Debian puts it in /usr/sbin, which is not on every user's PATH.
    const checked = tool(
      nginxBin,
      ['-t', '-p', work, '-e', path.join(work, 'error.log'), '-c', path.join(work, 'nginx.conf')],
      'nginx',
    );
    expect(checked.output).toContain('test is successful');
    expect(checked.status, checked.output).toBe(0);
  });

  it('systemd-analyze verify accepts deploy/universa-leads.service, which runs what npm run serve runs', () => {
    const unit = read('deploy/universa-leads.service');
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts.serve).toBe('tsx server/main.ts');
    expect(unit).toContain('ExecStart=/usr/bin/node --import tsx server/main.ts\n');
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
    expect(unit).toMatch(/^Environment=HOST=127\.0\.0\.1$/m);
    // Where this machine has the program and the checkout: the unit's paths point there.
    const environmentFile = path.join(work, 'universa-leads.env');
    writeFileSync(environmentFile, 'PUBLIC_URL=https://leads.example.de\n');
    const unitDir = mkdtempSync(path.join(work, 'unit-'));
    const file = path.join(unitDir, 'universa-leads.service');
    writeFileSync(
      file,
      unit
        .replace('ExecStart=/usr/bin/node ', `ExecStart=${process.execPath} `)
        .replace('WorkingDirectory=/opt/universa-leads', `WorkingDirectory=${root}`)
        .replace('EnvironmentFile=/etc/universa-leads.env', `EnvironmentFile=${environmentFile}`),
    );
    const verified = tool('systemd-analyze', ['verify', '--man=no', file], 'systemd');
    expect(verified.output.trim()).toBe('');
    expect(verified.status, verified.output).toBe(0);
  });
});

/** A self-signed certificate for leads.example.de in `dir`. */
function selfSigned(dir: string): { cert: string; key: string } {
  const key = path.join(dir, 'privkey.pem');
  const cert = path.join(dir, 'fullchain.pem');
  const made = tool(
    'openssl',
    // prettier-ignore
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=leads.example.de',
      '-addext', 'subjectAltName=DNS:leads.example.de', '-keyout', key, '-out', cert],
    'openssl',
  );
  if (made.status !== 0) throw new Error(made.output);
  return { cert, key };
}

/** A request over TLS to the proxy at 127.0.0.1:`port`, as leads.example.de, from `from`. */
function viaProxy(
  port: number,
  ca: string,
  from: string,
  request: { method: string; path: string; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const outgoing = https.request(
      {
        host: '127.0.0.1',
        port,
        servername: 'leads.example.de',
        ca,
        localAddress: from,
        method: request.method,
        path: request.path,
        headers: {
          host: 'leads.example.de',
          ...(request.body ? { 'content-type': 'application/json' } : {}),
        },
        timeout: 10_000,
      },
      (incoming) => {
        incoming.resume();
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers }),
        );
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('Zeitüberschreitung')));
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/** Waits until the proxy answers over TLS (its health check reaches the server). */
async function answering(port: number, ca: string, child: ChildProcess, log: () => string) {
  for (let waited = 0; waited < 20_000; waited += 200) {
    if (child.exitCode !== null) throw new Error(`Proxy beendet: ${log()}`);
    try {
      const { status } = await viaProxy(port, ca, '127.0.0.1', {
        method: 'GET',
        path: '/api/health',
      });
      if (status === 200) return;
    } catch {
      // not listening yet, or its certificate not made yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Proxy antwortet nicht: ${log()}`);
}

const postLead = (port: number, ca: string, from: string) =>
  viaProxy(port, ca, from, {
    method: 'POST',
    path: '/api/responses',
    body: JSON.stringify(questionnaireLead()),
  });

describe('Caddy and nginx with the files of deploy/ in front of the server', () => {
  let server: GatewayServer;
  let upstream: string;
  const running: ChildProcess[] = [];

  beforeAll(async () => {
    // The proxy connects from 127.0.0.1; each client from an address of its own.
    server = await startGatewayServer('pglite', undefined, {
      name: 'deployment-docs',
      rateLimit: { submissionsPerMinute: 2, batchesPerMinute: 10, leadReadsPerMinute: 10 },
      trustProxy: ['127.0.0.1'],
    });
    upstream = new URL(server.url).host;
  }, 120_000);

  afterAll(async () => {
    for (const child of running) {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
    await server?.close();
  });

  /** Two clients through the proxy: each has its own limit of two leads a minute. */
  async function clientsApart(port: number, ca: string, [one, other]: [string, string]) {
    const first = [];
    for (let i = 0; i < 3; i += 1) first.push((await postLead(port, ca, one)).status);
    const second = (await postLead(port, ca, other)).status;
    return { first, second };
  }

  it('Caddy: TLS, HSTS, and X-Forwarded-For names the client', async () => {
    const dir = mkdtempSync(path.join(work, 'caddy-'));
    const [httpPort, httpsPort] = [await freePort(), await freePort()];
    const site = read('deploy/Caddyfile')
      .replace(
        /^leads\.example\.de \{$/m,
        `leads.example.de:${httpsPort} {\n\tbind 127.0.0.1\n\ttls internal`,
      )
      .replace('127.0.0.1:8080', upstream);
    const file = path.join(dir, 'Caddyfile');
    writeFileSync(
      file,
      [
        '{',
        '\tadmin off',
        '\tskip_install_trust',
        `\tstorage file_system ${dir}/data`,
        `\thttp_port ${httpPort}`,
        `\thttps_port ${httpsPort}`,
        '}',
        site,
      ].join('\n'),
    );
    let log = '';
    const caddy = spawn('caddy', ['run', '--config', file, '--adapter', 'caddyfile'], {
      env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    });
    running.push(caddy);
    caddy.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
    caddy.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const rootCertificate = path.join(dir, 'data', 'pki', 'authorities', 'local', 'root.crt');
    for (let waited = 0; !existsSync(rootCertificate); waited += 100) {
      if (waited > 20_000 || caddy.exitCode !== null) throw new Error(`Caddy: ${log}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const ca = readFileSync(rootCertificate, 'utf8');
    await answering(httpsPort, ca, caddy, () => log);

    const health = await viaProxy(httpsPort, ca, '127.0.0.2', {
      method: 'GET',
      path: '/api/health',
    });
    expect(health.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(await clientsApart(httpsPort, ca, ['127.0.0.2', '127.0.0.3'])).toEqual({
      first: [201, 201, 429],
      second: 201,
    });
  }, 60_000);

  it('nginx: TLS with a self-signed certificate, HSTS, and X-Forwarded-For names the client', async () => {
    const dir = mkdtempSync(path.join(work, 'nginx-'));
    const { cert, key } = selfSigned(dir);
    const [httpPort, httpsPort] = [await freePort(), await freePort()];
    const site = read('deploy/nginx.conf')
      .replace('/etc/letsencrypt/live/leads.example.de/fullchain.pem', cert)
      .replace('/etc/letsencrypt/live/leads.example.de/privkey.pem', key)
      .replace('server 127.0.0.1:8080;', `server ${upstream};`)
      .replace(/^\s*listen \[::\].*$/gm, '')
      .replace('listen 80;', `listen 127.0.0.1:${httpPort};`)
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`);
    writeFileSync(path.join(dir, 'site.conf'), site);
    writeFileSync(
      path.join(dir, 'nginx.conf'),
      [
        'daemon off;',
        'worker_processes 1;',
        `pid ${dir}/nginx.pid;`,
        `error_log ${dir}/error.log;`,
        'events {}',
        'http {',
        '  access_log off;',
        `  client_body_temp_path ${dir}/body;`,
        `  proxy_temp_path ${dir}/proxy;`,
        `  include ${dir}/site.conf;`,
        '}',
      ].join('\n'),
    );
    let log = '';
    const nginx = spawn(nginxBin, [
      '-p',
      dir,
      '-e',
      path.join(dir, 'error.log'),
      '-c',
      path.join(dir, 'nginx.conf'),
    ]);
    running.push(nginx);
    nginx.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const ca = readFileSync(cert, 'utf8');
    await answering(
      httpsPort,
      ca,
      nginx,
      () => `${log}${readFileSync(path.join(dir, 'error.log'), 'utf8')}`,
    );

    const health = await viaProxy(httpsPort, ca, '127.0.0.2', {
      method: 'GET',
      path: '/api/health',
    });
    expect(health.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(await clientsApart(httpsPort, ca, ['127.0.0.4', '127.0.0.5'])).toEqual({
      first: [201, 201, 429],
      second: 201,
    });
  }, 60_000);
});

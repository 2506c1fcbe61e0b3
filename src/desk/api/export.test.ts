import type { SupabaseClient } from '@supabase/supabase-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExportResponseRow } from '../../domain/export-table.ts';
import { exportFileName, fileNamePart, filterArgs } from './export-options.ts';
import { decodeExportPage, ExportPageError, exportRowColumns } from './export-page.ts';
import { runExport, type ExportProgress } from './export-run.ts';
import { XlsxWorkerDiedError } from './export-worker-host.ts';
import {
  createExportWorkerHandler,
  type ExportWorkerMessage,
  type ExportWorkerReply,
} from './export-worker.ts';

// The paging and bookkeeping of runExport against a stand-in client. What the database returns
// for these calls is tested with real supabase-js against the gateway (tests/database/desk-data*.test.ts).

type Call = { name: string; args: Record<string, unknown> };

function lead(id: number): ExportResponseRow {
  return {
    response_id: id,
    lead_at: '2026-11-23T10:00:00Z',
    captured_at: null,
    received_at: '2026-11-23T10:00:00Z',
    form_id: 1,
    form_title: 'PKV',
    source: 'questionnaire',
    channel: 'web',
    status: 'contacted',
    customer_id: id,
    salutation: null,
    title: null,
    first_name: 'Erika',
    last_name: `Nr${id}`,
    email: null,
    phone: null,
    adress: null,
    postcode: null,
    city: null,
    birthdate: null,
    call_time: null,
    existing_customer: null,
    message: null,
    offer_info: false,
    terms_accepted: true,
    data_processing_consent: true,
    consent_version: null,
    cookie_consent: null,
    cookie_consent_version: null,
    answers: [{ question_id: 10, question: 'Beruf', answer: `Beruf ${id}` }],
  };
}

/** A lead as export_page sends it: export_responses' columns as an array, answers as arrays. */
function pageRow(row: ExportResponseRow): unknown[] {
  return exportRowColumns.map((column) =>
    column === 'answers'
      ? row.answers.map((answer) => [answer.question_id, answer.question, answer.answer])
      : row[column],
  );
}

/** Answers like PostgREST: rpc calls are thenables with abortSignal, from() a query chain. */
function fakeSupabase(options: {
  leads: number[];
  refuse?: boolean;
  onPage?: (call: Call) => void;
  onAuth?: (callback: (event: string, session: { access_token: string } | null) => void) => void;
}) {
  const calls: Call[] = [];
  let unsubscribed = false;
  const result = (value: unknown) => ({
    abortSignal: () => result(value),
    then: (resolve: (value: unknown) => unknown) => Promise.resolve(value).then(resolve),
  });
  const questions = {
    data: [{ id: 10, form_id: 1, question: 'Beruf', forms: { title: 'PKV' } }],
    error: null,
  };
  const chain: Record<string, unknown> = {};
  for (const method of ['select', 'order', 'eq']) chain[method] = () => chain;
  chain.then = (resolve: (value: unknown) => unknown) => Promise.resolve(questions).then(resolve);

  const client = {
    auth: {
      getSession: async () => ({ data: { session: { access_token: 'token-1' } }, error: null }),
      onAuthStateChange: (
        callback: (event: string, session: { access_token: string } | null) => void,
      ) => {
        options.onAuth?.(callback);
        return { data: { subscription: { unsubscribe: () => (unsubscribed = true) } } };
      },
    },
    from: () => chain,
    rpc: (name: string, args: Record<string, unknown>) => {
      const call = { name, args };
      calls.push(call);
      if (options.refuse && name !== 'finish_export') {
        return result({ data: null, error: { code: '42501', message: 'refused' } });
      }
      if (name === 'begin_export') {
        return result({ data: [{ export_id: 5, row_count: options.leads.length }], error: null });
      }
      if (name === 'export_page') {
        options.onPage?.(call);
        const after = args.after_id as number;
        const size = args.page_size as number;
        const page = options.leads.filter((id) => id > after).slice(0, size);
        return result({ data: page.map((id) => pageRow(lead(id))), error: null });
      }
      return result({ data: null, error: null });
    },
  };
  return { client: client as unknown as SupabaseClient, calls, unsubscribed: () => unsubscribed };
}

describe('runExport', () => {
  it('pages by response id, reports progress and closes the record with the rows written', async () => {
    const leads = [3, 4, 8, 9, 12];
    const { client, calls } = fakeSupabase({ leads });
    const progress: ExportProgress[] = [];
    const result = await runExport({
      supabase: client,
      scope: 'customers',
      format: 'csv',
      filter: { customerSearch: ' meier ', channel: null, dayFrom: '' },
      pageSize: 2,
      onProgress: (step) => progress.push(step),
    });

    expect(calls[0]).toEqual({
      name: 'begin_export',
      args: {
        export_scope: 'customers',
        export_format: 'csv',
        day_from: null,
        day_to: null,
        questionnaire_id: null,
        lead_channel: null,
        customer_search: 'meier',
        lead_status: null,
        lead_source: null,
        received_from: null,
        received_to: null,
        open_follow_up: null,
      },
    });
    const pages = calls.filter((call) => call.name === 'export_page');
    expect(pages.map((call) => call.args.after_id)).toEqual([0, 4, 9]);
    // Every page names the export begun, whose logged filter the database applies.
    expect(
      pages.every((call) => call.args.export_id === 5 && !('customer_search' in call.args)),
    ).toBe(true);
    expect(progress).toEqual([
      { done: 0, total: 5 },
      { done: 2, total: 5 },
      { done: 4, total: 5 },
      { done: 5, total: 5 },
      { done: 5, total: 5, writing: true },
    ]);
    expect(calls.at(-1)).toEqual({
      name: 'finish_export',
      args: { export_id: 5, was_cancelled: false },
    });
    expect(result.rows).toBe(5);
    expect(result.fileName).toMatch(/^anfragen-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = new TextDecoder().decode(await result.blob.arrayBuffer());
    expect(text.split('\r\n').filter(Boolean)).toHaveLength(6);
    expect(text).toContain(';Beruf 12\r\n');
  });

  it('asks for one more page when the last one is exactly full', async () => {
    const { client, calls } = fakeSupabase({ leads: [1, 2, 3, 4] });
    await runExport({
      supabase: client,
      scope: 'analysis',
      format: 'csv',
      filter: {},
      pageSize: 2,
    });
    const pages = calls.filter((call) => call.name === 'export_page');
    expect(pages.map((call) => call.args.after_id)).toEqual([0, 2, 4]);
  });

  it('stops paging when cancelled and records the export as cancelled', async () => {
    const controller = new AbortController();
    const { client, calls } = fakeSupabase({
      leads: [1, 2, 3, 4, 5, 6],
      onPage: (call) => {
        if (call.args.after_id === 2) controller.abort();
      },
    });
    const run = runExport({
      supabase: client,
      scope: 'analysis',
      format: 'xlsx',
      filter: { questionnaireId: 1 },
      signal: controller.signal,
      pageSize: 2,
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls.filter((call) => call.name === 'export_page')).toHaveLength(2);
    expect(calls.at(-1)).toEqual({
      name: 'finish_export',
      args: { export_id: 5, was_cancelled: true },
    });
  });

  it("passes the database's refusal on", async () => {
    const { client, calls } = fakeSupabase({ leads: [1], refuse: true });
    await expect(
      runExport({ supabase: client, scope: 'customers', format: 'csv', filter: {} }),
    ).rejects.toMatchObject({ code: '42501' });
    expect(calls.map((call) => call.name)).toEqual(['begin_export']);
  });

  it('writes an XLSX with typed cells', async () => {
    const { default: readXlsxFile } = await import('read-excel-file/universal');
    const { client } = fakeSupabase({ leads: [1, 2] });
    const result = await runExport({
      supabase: client,
      scope: 'analysis',
      format: 'xlsx',
      filter: { questionnaireId: 1 },
    });
    expect(result.fileName).toMatch(/\.xlsx$/);
    const [sheet] = await readXlsxFile(await result.blob.arrayBuffer());
    const rows = sheet!.data;
    expect(rows[0]?.[0]).toBe('Anfrage-Nr.');
    expect(rows[0]?.at(-1)).toBe('Beruf');
    expect(rows[1]?.[0]).toBe(1);
    expect(rows[2]?.at(-1)).toBe('Beruf 2');
    // Berlin's 11:00 as the sheet's clock time (the reader rounds the serial number to a ms).
    const arrival = rows[1]?.[1] as unknown as Date;
    expect(Math.abs(arrival.getTime() - Date.UTC(2026, 10, 23, 11, 0))).toBeLessThan(1000);
  });
});

type Behaviour = 'answer' | 'fail-to-load' | 'silent' | 'dies' | 'crashes' | 'mute' | 'garbled';

/** export_page over HTTP as PostgREST answers it, for the worker's fetch. */
function fakeRest(leads: number[], options: { refuse?: string; onRequest?: () => void } = {}) {
  const requests: { url: string; headers: Record<string, string>; body: Record<string, number> }[] =
    [];
  const fetchPage = (async (url: string, init: RequestInit) => {
    const body = JSON.parse(init.body as string) as Record<string, number>;
    requests.push({ url: String(url), headers: init.headers as Record<string, string>, body });
    options.onRequest?.();
    if (options.refuse) {
      return new Response(JSON.stringify({ code: options.refuse, message: 'refused' }), {
        status: 403,
      });
    }
    const page = leads.filter((id) => id > body.after_id!).slice(0, body.page_size);
    return new Response(JSON.stringify(page.map((id) => pageRow(lead(id)))));
  }) as unknown as typeof fetch;
  return { fetchPage, requests };
}

/**
 * A stand-in for the browser's Worker: `behaviour` decides whether it answers like the real
 * worker script (its handler, createExportWorkerHandler, reading pages with `fetchPage`), fails
 * to load, falls silent, dies or fails.
 */
function stubWorker(behaviour: Behaviour, fetchPage: typeof fetch) {
  type Started = {
    url: string;
    options: unknown;
    messages: ExportWorkerMessage[];
    replies: ExportWorkerReply[];
    ended: boolean;
  };
  const workers: Started[] = [];
  class FakeWorker extends EventTarget {
    record: Started;
    handle = createExportWorkerHandler(
      (reply) =>
        setTimeout(() => {
          if (this.record.ended) return;
          if ('writing' in reply && behaviour === 'dies') {
            // Killed while writing (out of memory): no reply, no event, only the lock goes.
            this.died();
            return;
          }
          if ('writing' in reply && behaviour === 'crashes') {
            this.dispatchEvent(new Event('error', { cancelable: true }));
            return;
          }
          this.record.replies.push(reply);
          this.dispatchEvent(new MessageEvent('message', { data: reply }));
        }),
      fetchPage,
    );
    constructor(url: URL | string, options?: WorkerOptions) {
      super();
      this.record = { url: String(url), options, messages: [], replies: [], ended: false };
      workers.push(this.record);
    }
    died: () => void = () => {};
    postMessage(message: ExportWorkerMessage) {
      // A structured clone, as postMessage makes one.
      this.record.messages.push(structuredClone(message));
      const later = (event: Event) => setTimeout(() => this.dispatchEvent(event));
      if ('open' in message) {
        if (behaviour === 'fail-to-load') {
          later(new Event('error', { cancelable: true }));
          return;
        }
        // As the worker script: hold the lock while alive, then say it started.
        void navigator.locks.request(
          message.lock!,
          () => new Promise<void>((resolve) => (this.died = resolve)),
        );
        this.handle(message);
        return;
      }
      if ('job' in message && (behaviour === 'mute' || behaviour === 'silent')) return;
      if ('job' in message && behaviour === 'garbled') {
        later(new MessageEvent('messageerror'));
        return;
      }
      this.handle(message);
    }
    terminate() {
      this.record.ended = true;
      this.died();
    }
  }
  vi.stubGlobal('Worker', FakeWorker);
  vi.stubGlobal('navigator', { ...globalThis.navigator, locks: fakeLocks() });
  return workers;
}

/** Web Locks as the browser grants them: one holder per name, the next one once it lets go. */
function fakeLocks() {
  const tails = new Map<string, Promise<unknown>>();
  return {
    request(name: string, callback: () => unknown) {
      const previous = tails.get(name) ?? Promise.resolve();
      const held = previous.then(() => callback());
      tails.set(
        name,
        held.catch(() => {}),
      );
      return held;
    },
  } as unknown as LockManager;
}

async function readSheet(blob: Blob) {
  const { default: readXlsxFile } = await import('read-excel-file/universal');
  const [sheet] = await readXlsxFile(await blob.arrayBuffer());
  return sheet!.data;
}

const settings = { url: 'https://abcd.supabase.co/', anonKey: 'anon-key' };

describe('runExport in the export worker', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('lets the worker read the pages and write the file: no lead crosses postMessage', async () => {
    const leads = [3, 4, 8, 9, 12];
    const onPage = fakeSupabase({ leads });
    const onPageFile = await runExport({
      supabase: onPage.client,
      scope: 'customers',
      format: 'csv',
      filter: {},
      pageSize: 2,
    });

    const rest = fakeRest(leads);
    const workers = stubWorker('answer', rest.fetchPage);
    const { client, calls } = fakeSupabase({ leads });
    const progress: ExportProgress[] = [];
    const result = await runExport({
      supabase: client,
      settings,
      scope: 'customers',
      format: 'csv',
      filter: {},
      pageSize: 2,
      onProgress: (step) => progress.push(step),
    });

    expect(workers).toHaveLength(1);
    expect(workers[0]!.url).toContain('export-worker');
    expect(workers[0]!.options).toEqual({ type: 'module' });
    expect(workers[0]!.messages).toEqual([
      { open: true, lock: expect.any(String) },
      {
        job: {
          restUrl: 'https://abcd.supabase.co/rest/v1',
          apiKey: 'anon-key',
          accessToken: 'token-1',
          exportId: 5,
          pageSize: 2,
          format: 'csv',
          questions: [{ id: 10, formId: 1, formTitle: 'PKV', question: 'Beruf' }],
          singleForm: false,
        },
      },
    ]);
    expect(workers[0]!.ended).toBe(true);
    // The worker asks as supabase-js would; the page reads no page itself.
    expect(rest.requests.map((request) => request.body.after_id)).toEqual([0, 4, 9]);
    expect(rest.requests[0]).toMatchObject({
      url: 'https://abcd.supabase.co/rest/v1/rpc/export_page',
      headers: { apikey: 'anon-key', authorization: 'Bearer token-1' },
      body: { export_id: 5, page_size: 2 },
    });
    expect(calls.map((call) => call.name)).toEqual(['begin_export', 'finish_export']);
    expect(calls.at(-1)!.args).toEqual({ export_id: 5, was_cancelled: false });
    expect(progress).toEqual([
      { done: 0, total: 5 },
      { done: 2, total: 5 },
      { done: 4, total: 5 },
      { done: 5, total: 5 },
      { done: 5, total: 5, writing: true },
    ]);
    expect(result.rows).toBe(5);
    // Byte for byte the file the page writes.
    expect(new Uint8Array(await result.blob.arrayBuffer())).toEqual(
      new Uint8Array(await onPageFile.blob.arrayBuffer()),
    );
  });

  it('writes the XLSX in the worker, the same sheet as on the page', async () => {
    const leads = [1, 2, 3];
    const workers = stubWorker('answer', fakeRest(leads).fetchPage);
    const { client } = fakeSupabase({ leads });
    const result = await runExport({
      supabase: client,
      settings,
      scope: 'analysis',
      format: 'xlsx',
      filter: { questionnaireId: 1 },
    });
    expect(workers[0]!.replies.at(-1)).toMatchObject({ ok: true, rows: 3 });
    expect(result.blob.type).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    vi.unstubAllGlobals();
    const onPage = await runExport({
      supabase: fakeSupabase({ leads }).client,
      scope: 'analysis',
      format: 'xlsx',
      filter: { questionnaireId: 1 },
    });
    const sheet = await readSheet(result.blob);
    expect(sheet).toHaveLength(4);
    expect(sheet).toEqual(await readSheet(onPage.blob));
  });

  it('hands the worker the token supabase-js refreshed during the export', async () => {
    let push: ((event: string, session: { access_token: string } | null) => void) | undefined;
    let refreshed = false;
    const rest = fakeRest([1, 2, 3, 4, 5], {
      onRequest: () => {
        if (refreshed) return;
        refreshed = true;
        push?.('TOKEN_REFRESHED', { access_token: 'token-2' });
      },
    });
    stubWorker('answer', rest.fetchPage);
    const { client, unsubscribed } = fakeSupabase({
      leads: [1, 2, 3, 4, 5],
      onAuth: (callback) => (push = callback),
    });
    await runExport({
      supabase: client,
      settings,
      scope: 'analysis',
      format: 'csv',
      filter: {},
      pageSize: 2,
    });
    expect(rest.requests.map((request) => request.headers.authorization)).toEqual([
      'Bearer token-1',
      'Bearer token-2',
      'Bearer token-2',
    ]);
    expect(unsubscribed()).toBe(true);
  });

  it('reads and writes on the page when the worker cannot start', async () => {
    const rest = fakeRest([1, 2]);
    const workers = stubWorker('fail-to-load', rest.fetchPage);
    const { client, calls } = fakeSupabase({ leads: [1, 2] });
    const result = await runExport({
      supabase: client,
      settings,
      scope: 'analysis',
      format: 'xlsx',
      filter: { questionnaireId: 1 },
    });
    expect(workers[0]!.ended).toBe(true);
    expect(rest.requests).toEqual([]);
    expect(calls.map((call) => call.name)).toEqual([
      'begin_export',
      'export_page',
      'finish_export',
    ]);
    expect(await readSheet(result.blob)).toHaveLength(3);
  });

  const failing = async (behaviour: Behaviour, watchdogMs?: number) => {
    const workers = stubWorker(behaviour, fakeRest([1, 2, 3]).fetchPage);
    const { client, calls } = fakeSupabase({ leads: [1, 2, 3] });
    const run = runExport({
      supabase: client,
      settings,
      scope: 'analysis',
      format: 'xlsx',
      filter: {},
      ...(watchdogMs !== undefined && { watchdogMs }),
    });
    await run.catch(() => undefined);
    expect(workers[0]!.ended).toBe(true);
    expect(calls.at(-1)).toEqual({
      name: 'finish_export',
      args: { export_id: 5, was_cancelled: true },
    });
    return run;
  };

  it('ends with a German error offering CSV when the worker dies while writing', async () => {
    const run = failing('dies');
    await expect(run).rejects.toBeInstanceOf(XlsxWorkerDiedError);
    await expect(run).rejects.toThrow(/stattdessen als CSV/);
  });

  it('ends with the same error when a started worker fails, rather than writing on the page', async () => {
    await expect(failing('crashes')).rejects.toThrow(/Speicher des Browsers/);
  });

  it('ends with the same error when the worker cannot read a message', async () => {
    await expect(failing('garbled')).rejects.toBeInstanceOf(XlsxWorkerDiedError);
  });

  it('gives up on a worker that stops answering, once the watchdog runs out', async () => {
    const started = Date.now();
    await expect(failing('mute', 100)).rejects.toBeInstanceOf(XlsxWorkerDiedError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('passes on the database refusing a page the worker reads', async () => {
    const workers = stubWorker('answer', fakeRest([1], { refuse: '42501' }).fetchPage);
    const { client, calls } = fakeSupabase({ leads: [1] });
    await expect(
      runExport({ supabase: client, settings, scope: 'customers', format: 'csv', filter: {} }),
    ).rejects.toMatchObject({ code: '42501' });
    expect(workers[0]!.ended).toBe(true);
    expect(calls.at(-1)!.args).toEqual({ export_id: 5, was_cancelled: true });
  });

  it('ends the worker and records the export as cancelled when it is cancelled', async () => {
    const workers = stubWorker('silent', fakeRest([1, 2]).fetchPage);
    const controller = new AbortController();
    const { client, calls } = fakeSupabase({ leads: [1, 2] });
    const run = runExport({
      supabase: client,
      settings,
      scope: 'analysis',
      format: 'xlsx',
      filter: { questionnaireId: 1 },
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(workers[0]!.ended).toBe(false);
    controller.abort();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(workers[0]!.ended).toBe(true);
    expect(calls.at(-1)).toEqual({
      name: 'finish_export',
      args: { export_id: 5, was_cancelled: true },
    });
  });
});

describe('decodeExportPage', () => {
  it('reads export_page’s arrays as rows and refuses a page it cannot trust', () => {
    expect(decodeExportPage([pageRow(lead(7))])).toEqual([lead(7)]);
    const broken = [
      {},
      [{}],
      [pageRow(lead(7)).slice(1)],
      [pageRow({ ...lead(7), status: 'lost' as never })],
      [pageRow(lead(7)).map((value, i) => (i === 29 ? [[10, 'Beruf']] : value))],
    ];
    for (const page of broken) expect(() => decodeExportPage(page)).toThrow(ExportPageError);
  });
});

describe('export helpers', () => {
  it('turns empty filter values into SQL null', () => {
    expect(
      filterArgs({
        dayFrom: '2026-11-01',
        dayTo: undefined,
        questionnaireId: null,
        channel: 'fair_tablet',
        customerSearch: '  ',
      }),
    ).toEqual({
      day_from: '2026-11-01',
      day_to: null,
      questionnaire_id: null,
      lead_channel: 'fair_tablet',
      customer_search: null,
      lead_status: null,
      lead_source: null,
      received_from: null,
      received_to: null,
      open_follow_up: null,
    });
  });

  it('passes the customer list’s filters on', () => {
    expect(
      filterArgs({
        customerSearch: 'meier',
        status: 'new',
        source: 'kfz',
        receivedFrom: '2026-11-01',
        receivedTo: '2026-11-30',
        openFollowUp: true,
      }),
    ).toMatchObject({
      customer_search: 'meier',
      lead_status: 'new',
      lead_source: 'kfz',
      received_from: '2026-11-01',
      received_to: '2026-11-30',
      open_follow_up: true,
    });
    expect(filterArgs({ openFollowUp: false }).open_follow_up).toBeNull();
  });

  it("names the file by the agent's day in Berlin", () => {
    expect(exportFileName('csv', new Date('2026-11-23T23:30:00Z'))).toBe('anfragen-2026-11-24.csv');
    expect(exportFileName('xlsx', new Date('2026-11-23T12:00:00Z'))).toBe(
      'anfragen-2026-11-23.xlsx',
    );
    expect(exportFileName('xlsx', new Date('2026-11-28T09:00:00Z'), 'kunden_status-neu')).toBe(
      'kunden_status-neu_2026-11-28.xlsx',
    );
  });

  it('spells a file name part in safe characters', () => {
    expect(fileNamePart('Termin vereinbart')).toBe('termin-vereinbart');
    expect(fileNamePart(' Größe & Söhne / Köln ')).toBe('groesse-soehne-koeln');
    expect(fileNamePart('Café „Ça va"')).toBe('cafe-ca-va');
    expect(fileNamePart('../../etc')).toBe('etc');
    expect(fileNamePart('x'.repeat(60))).toHaveLength(40);
  });
});

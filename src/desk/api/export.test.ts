import type { SupabaseClient } from '@supabase/supabase-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExportCell, ExportResponseRow } from '../../domain/export-table.ts';
import { exportFileName, fileNamePart, filterArgs } from './export-options.ts';
import { runExport, type ExportProgress } from './export-run.ts';
import { openXlsxWriter, XlsxWorkerDiedError } from './xlsx-writer.ts';
import { createXlsxWorkerHandler, type XlsxMessage } from './export-worker.ts';

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

/** Answers like PostgREST: rpc calls are thenables with abortSignal, from() a query chain. */
function fakeSupabase(options: {
  leads: number[];
  refuse?: boolean;
  onPage?: (call: Call) => void;
}) {
  const calls: Call[] = [];
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
      if (name === 'export_responses') {
        options.onPage?.(call);
        const after = args.after_id as number;
        const size = args.page_size as number;
        const page = options.leads.filter((id) => id > after).slice(0, size);
        return result({ data: page.map(lead), error: null });
      }
      return result({ data: null, error: null });
    },
  };
  return { client: client as unknown as SupabaseClient, calls };
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
    const pages = calls.filter((call) => call.name === 'export_responses');
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
    const pages = calls.filter((call) => call.name === 'export_responses');
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
    expect(calls.filter((call) => call.name === 'export_responses')).toHaveLength(2);
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

/**
 * A stand-in for the browser's Worker: `behaviour` decides whether it answers like the real
 * worker script (its handler, createXlsxWorkerHandler), fails to load, falls silent, dies or fails.
 */
function stubWorker(behaviour: Behaviour) {
  type Started = { url: string; options: unknown; messages: XlsxMessage[]; ended: boolean };
  const workers: Started[] = [];
  class FakeWorker extends EventTarget {
    record: Started;
    handle = createXlsxWorkerHandler((reply) =>
      setTimeout(() => {
        if (!this.record.ended) this.dispatchEvent(new MessageEvent('message', { data: reply }));
      }),
    );
    constructor(url: URL | string, options?: WorkerOptions) {
      super();
      this.record = { url: String(url), options, messages: [], ended: false };
      workers.push(this.record);
    }
    died: () => void = () => {};
    postMessage(message: XlsxMessage) {
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
      if (behaviour === 'mute') return;
      if (behaviour === 'garbled' && 'rows' in message) {
        later(new MessageEvent('messageerror'));
        return;
      }
      if ('headers' in message) {
        // Killed while writing (out of memory): no reply, no event, only the lock goes.
        if (behaviour === 'dies') setTimeout(() => this.died());
        if (behaviour === 'crashes') later(new Event('error', { cancelable: true }));
        if (behaviour !== 'answer') return;
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

/** The writer's whole course: opened, the rows in pages of `pageSize`, finished. */
async function writeAll(
  headers: string[],
  rows: ExportCell[][],
  options: { signal?: AbortSignal; watchdogMs?: number; pageSize?: number } = {},
) {
  const writer = await openXlsxWriter(options.signal, options.watchdogMs);
  const pageSize = options.pageSize ?? 1000;
  try {
    for (let start = 0; start < rows.length; start += pageSize) {
      await writer.add(rows.slice(start, start + pageSize));
    }
    return await writer.finish(headers);
  } catch (error) {
    writer.close();
    throw error;
  }
}

describe('openXlsxWriter', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  const headers = ['Anfrage-Nr.', 'Beruf'];
  const rows: ExportCell[][] = [
    [
      { type: 'number', value: 7 },
      { type: 'text', value: '=1+1' },
    ],
  ];

  it('writes in a module worker where there is one and ends it afterwards', async () => {
    const workers = stubWorker('answer');
    const blob = await writeAll(headers, rows);
    expect(workers).toHaveLength(1);
    expect(workers[0]!.url).toContain('export-worker');
    expect(workers[0]!.options).toEqual({ type: 'module' });
    expect(workers[0]!.messages).toEqual([
      { open: true, lock: expect.any(String) },
      { rows },
      { headers },
    ]);
    expect(workers[0]!.ended).toBe(true);
    expect(blob.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(await readSheet(blob)).toEqual([headers, [7, "'=1+1"]]);
  });

  it('hands the worker each page as it comes and waits when more than two are on their way', async () => {
    const workers = stubWorker('answer');
    const many: ExportCell[][] = Array.from({ length: 4500 }, (_, i) => [
      { type: 'number', value: i },
    ]);
    const writer = await openXlsxWriter();
    // Three pages without a reply from the worker in between: the third add waits for it.
    await writer.add(many.slice(0, 1000));
    await writer.add(many.slice(1000, 2000));
    let thirdDone = false;
    const third = writer.add(many.slice(2000, 3000)).then(() => (thirdDone = true));
    expect(thirdDone).toBe(false);
    await third;
    await writer.add(many.slice(3000, 4500));
    const blob = await writer.finish(['Nr.']);
    const sizes = workers[0]!.messages.map((sent) =>
      'rows' in sent ? sent.rows.length : 'open' in sent ? 'open' : 'headers',
    );
    expect(sizes).toEqual(['open', 1000, 1000, 1000, 1500, 'headers']);
    const sheet = await readSheet(blob);
    expect(sheet).toHaveLength(4501);
    expect(sheet.at(-1)).toEqual([4499]);
  });

  it('writes on the page when the worker cannot start', async () => {
    const workers = stubWorker('fail-to-load');
    const blob = await writeAll(headers, rows);
    expect(workers).toHaveLength(1);
    expect(workers[0]!.ended).toBe(true);
    expect(await readSheet(blob)).toEqual([headers, [7, "'=1+1"]]);
  });

  it('ends with a German error offering CSV when the worker dies while writing', async () => {
    const workers = stubWorker('dies');
    const written = writeAll(headers, rows);
    await expect(written).rejects.toBeInstanceOf(XlsxWorkerDiedError);
    await expect(written).rejects.toThrow(/stattdessen als CSV/);
    expect(workers[0]!.ended).toBe(true);
  });

  it('ends with the same error when a started worker fails, rather than writing on the page', async () => {
    stubWorker('crashes');
    await expect(writeAll(headers, rows)).rejects.toThrow(/Speicher des Browsers/);
  });

  it('ends with the same error when the worker cannot read a message', async () => {
    const workers = stubWorker('garbled');
    await expect(writeAll(headers, rows)).rejects.toBeInstanceOf(XlsxWorkerDiedError);
    expect(workers[0]!.ended).toBe(true);
  });

  it('gives up on a worker that stops answering, once the watchdog runs out', async () => {
    const workers = stubWorker('mute');
    const many: ExportCell[][] = Array.from({ length: 3000 }, (_, i) => [
      { type: 'number', value: i },
    ]);
    const started = Date.now();
    await expect(writeAll(['Nr.'], many, { watchdogMs: 100 })).rejects.toBeInstanceOf(
      XlsxWorkerDiedError,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(workers[0]!.ended).toBe(true);
  });

  it('ends the worker when the export is cancelled while the file is written', async () => {
    const workers = stubWorker('silent');
    const controller = new AbortController();
    const written = writeAll(headers, rows, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(workers[0]!.ended).toBe(false);
    controller.abort();
    await expect(written).rejects.toMatchObject({ name: 'AbortError' });
    expect(workers[0]!.ended).toBe(true);
  });

  it('records an export cancelled during writing as cancelled', async () => {
    stubWorker('silent');
    const controller = new AbortController();
    const { client, calls } = fakeSupabase({ leads: [1, 2] });
    const run = runExport({
      supabase: client,
      scope: 'analysis',
      format: 'xlsx',
      filter: { questionnaireId: 1 },
      signal: controller.signal,
      onProgress: (step) => {
        if (step.writing) setTimeout(() => controller.abort(), 20);
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls.at(-1)).toEqual({
      name: 'finish_export',
      args: { export_id: 5, was_cancelled: true },
    });
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

import type { SupabaseClient } from '@supabase/supabase-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  refusalMessage,
  sendUpload,
  uploadFormFile,
  uploadLimitBytes,
  uploadMessages,
  uploadRefusal,
  UploadError,
  type UploadTarget,
} from './uploads.ts';

type Listener = (event: { lengthComputable: boolean; loaded: number; total: number }) => void;

/** Stands in for XMLHttpRequest: records the request, and the test plays the network's part. */
class FakeRequest {
  static sent: FakeRequest[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = '';
  aborted = false;
  private listeners = new Map<string, Listener[]>();
  private uploadListeners = new Map<string, Listener[]>();
  upload = {
    addEventListener: (type: string, listener: Listener) =>
      this.uploadListeners.set(type, [...(this.uploadListeners.get(type) ?? []), listener]),
  };

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  addEventListener(type: string, listener: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  send(body: unknown) {
    this.body = body;
    FakeRequest.sent.push(this);
  }
  abort() {
    this.aborted = true;
    this.emit('abort');
  }
  progress(loaded: number, total: number) {
    for (const listener of this.uploadListeners.get('progress') ?? []) {
      listener({ lengthComputable: true, loaded, total });
    }
  }
  respond(status: number, body = '') {
    this.status = status;
    this.responseText = body;
    this.emit('load');
  }
  emit(type: string) {
    for (const listener of this.listeners.get(type) ?? []) {
      listener({ lengthComputable: false, loaded: 0, total: 0 });
    }
  }
}

const target: UploadTarget = {
  storageUrl: 'https://desk.example/storage/v1',
  apiKey: 'anon-key',
  accessToken: 'session-token',
};
const pdf = new Blob(['%PDF-1.4 test'], { type: 'application/pdf' });
const lastRequest = () => FakeRequest.sent.at(-1)!;

beforeEach(() => {
  FakeRequest.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeRequest);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('uploadRefusal', () => {
  it('accepts a PDF document and a raster image up to 20 MB', () => {
    expect(uploadRefusal('document', { size: uploadLimitBytes, type: 'application/pdf' })).toBe(
      null,
    );
    expect(uploadRefusal('image', { size: 1000, type: 'image/webp' })).toBe(null);
  });

  it('refuses a file over 20 MB in German', () => {
    expect(uploadRefusal('document', { size: uploadLimitBytes + 1, type: 'application/pdf' })).toBe(
      'Die Datei ist zu groß (höchstens 20 MB).',
    );
  });

  it('refuses a wrong type for each kind', () => {
    expect(uploadRefusal('document', { size: 10, type: 'image/png' })).toBe(
      uploadMessages.wrongType.document,
    );
    expect(uploadRefusal('image', { size: 10, type: 'application/pdf' })).toBe(
      uploadMessages.wrongType.image,
    );
    expect(uploadRefusal('image', { size: 10, type: 'image/svg+xml' })).toBe(
      uploadMessages.wrongType.image,
    );
  });
});

describe('sendUpload', () => {
  it('posts the file as supabase-js would, reporting progress until done', async () => {
    const progress: number[] = [];
    const done = sendUpload({
      target,
      kind: 'document',
      name: 'forms/7/abc-Angebot.pdf',
      file: pdf,
      onProgress: (fraction) => progress.push(fraction),
    });
    const request = lastRequest();
    expect(request.method).toBe('POST');
    expect(request.url).toBe(
      'https://desk.example/storage/v1/object/documents/forms/7/abc-Angebot.pdf',
    );
    expect(request.headers).toMatchObject({
      apikey: 'anon-key',
      authorization: 'Bearer session-token',
      'content-type': 'application/pdf',
      'x-upsert': 'false',
    });
    expect(request.body).toBe(pdf);
    request.progress(25, 100);
    request.progress(80, 100);
    request.respond(200, '{"Key":"documents/forms/7/abc-Angebot.pdf"}');
    await done;
    expect(progress).toEqual([0.25, 0.8, 1]);
  });

  it("tells Storage's refusals in German by the status in its body", async () => {
    const cases: [number, string, string][] = [
      [400, '{"statusCode":"413","code":"EntityTooLarge"}', uploadMessages.tooLarge],
      [413, '<html>proxy</html>', uploadMessages.tooLarge],
      [400, '{"statusCode":"415","code":"InvalidMimeType"}', uploadMessages.wrongType.document],
      [400, '{"statusCode":"403","code":"AccessDenied"}', uploadMessages.notAllowed],
      [
        400,
        '{"statusCode":"400","code":"InvalidJWT","error":"InvalidJWT"}',
        uploadMessages.notAllowed,
      ],
      [400, '{"statusCode":"409","code":"KeyAlreadyExists"}', uploadMessages.refused],
      [400, 'not json', uploadMessages.refused],
    ];
    for (const [status, body, message] of cases) {
      const done = sendUpload({ target, kind: 'document', name: 'forms/7/a.pdf', file: pdf });
      lastRequest().respond(status, body);
      await expect(done).rejects.toThrow(new UploadError(message));
    }
  });

  it('tells a network failure apart', async () => {
    const done = sendUpload({ target, kind: 'image', name: 'forms/7/a.png', file: pdf });
    lastRequest().emit('error');
    await expect(done).rejects.toThrow(uploadMessages.network);
  });

  it('stops the request when its signal aborts', async () => {
    const controller = new AbortController();
    const done = sendUpload({
      target,
      kind: 'document',
      name: 'forms/7/a.pdf',
      file: pdf,
      signal: controller.signal,
    });
    lastRequest().progress(10, 100);
    controller.abort();
    const error = await done.catch((caught: unknown) => caught);
    expect(lastRequest().aborted).toBe(true);
    expect(error).toBeInstanceOf(UploadError);
    expect(error).toMatchObject({ aborted: true, message: uploadMessages.aborted });
  });

  it('sends nothing when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      sendUpload({ target, kind: 'document', name: 'a.pdf', file: pdf, signal: controller.signal }),
    ).rejects.toMatchObject({ aborted: true });
    expect(FakeRequest.sent).toHaveLength(0);
  });
});

describe('refusalMessage', () => {
  it('treats a server error as a passing failure, not a wrong file', () => {
    expect(refusalMessage('document', 502, '')).toBe(uploadMessages.network);
  });
});

describe('uploadFormFile', () => {
  const client = {
    storage: {
      from: (bucket: string) => ({
        getPublicUrl: (name: string) => ({
          data: { publicUrl: `https://desk.example/storage/v1/object/public/${bucket}/${name}` },
        }),
      }),
    },
    auth: {
      getSession: () => Promise.resolve({ data: { session: { access_token: 'session-token' } } }),
    },
  } as unknown as SupabaseClient;

  it('uploads under a versioned name of the form and answers its public URL', async () => {
    const file = new File(['%PDF-1.4'], 'Angebot März.pdf', { type: 'application/pdf' });
    const done = uploadFormFile(client, 'anon-key', { formId: 7, kind: 'document', file });
    await vi.waitFor(() => expect(FakeRequest.sent).toHaveLength(1));
    const request = lastRequest();
    expect(request.headers.authorization).toBe('Bearer session-token');
    expect(request.url).toMatch(
      /^https:\/\/desk\.example\/storage\/v1\/object\/documents\/forms\/7\/[0-9a-f-]{36}-Angebot_Maerz\.pdf$/,
    );
    request.respond(200, '{}');
    const uploaded = await done;
    expect(uploaded.name).toMatch(/^forms\/7\/[0-9a-f-]{36}-Angebot_Maerz\.pdf$/);
    expect(uploaded.publicUrl).toBe(
      `https://desk.example/storage/v1/object/public/documents/${uploaded.name}`,
    );
  });

  it('refuses a file over the limit before sending anything', async () => {
    const file = new File([new Uint8Array(uploadLimitBytes + 1)], 'gross.pdf', {
      type: 'application/pdf',
    });
    await expect(
      uploadFormFile(client, 'anon-key', { formId: 7, kind: 'document', file }),
    ).rejects.toThrow(uploadMessages.tooLarge);
    expect(FakeRequest.sent).toHaveLength(0);
  });
});

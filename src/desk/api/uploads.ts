import type { SupabaseClient } from '@supabase/supabase-js';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { documentObjectName, documentsBucket } from '../../domain/routes.ts';
import type { Database } from '../../domain/database.types.ts';
import { useSupabase, useSupabaseSettings } from './supabase-context.ts';

// A questionnaire's offer PDF and image, uploaded to the `documents` bucket. supabase-js's upload
// reports no progress, so the request is an XMLHttpRequest shaped as supabase-js would send it
// (same address, same headers); it runs on hosted Supabase as on our gateway.

export type UploadKind = 'document' | 'image';

/** The bucket's limit (supabase/migrations/…_storage_documents.sql), checked before sending. */
export const uploadLimitBytes = 20 * 1024 * 1024;

export const acceptedTypes: Record<UploadKind, readonly string[]> = {
  document: ['application/pdf'],
  image: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
};

export const uploadMessages = {
  tooLarge: 'Die Datei ist zu groß (höchstens 20 MB).',
  wrongType: {
    document: 'Bitte wähle eine PDF-Datei.',
    image: 'Bitte wähle ein Bild im Format PNG, JPEG, WebP oder GIF.',
  } satisfies Record<UploadKind, string>,
  notAllowed:
    'Du darfst keine Dateien hochladen. Bitte melde dich erneut an oder wende dich an einen Admin.',
  refused: 'Der Server hat die Datei nicht angenommen. Bitte versuche es mit einer anderen Datei.',
  network:
    'Die Datei konnte nicht hochgeladen werden. Bitte prüfe deine Internetverbindung und versuche es erneut.',
  aborted: 'Das Hochladen wurde abgebrochen.',
} as const;

/** An upload that did not happen, with the German message to show. */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly aborted = false,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

/** Why this file cannot be uploaded as `kind`, or null when it can. */
export function uploadRefusal(
  kind: UploadKind,
  file: { size: number; type: string },
): string | null {
  if (!acceptedTypes[kind].includes(file.type)) return uploadMessages.wrongType[kind];
  if (file.size > uploadLimitBytes) return uploadMessages.tooLarge;
  return null;
}

/** Where and as whom to upload: Storage's base URL, the API key and the session's token. */
export interface UploadTarget {
  storageUrl: string;
  apiKey: string;
  accessToken: string | null;
}

/** Storage's error body: its real status, and a code (or, from older versions, an error). */
const storageErrorBody = z.object({
  statusCode: z.unknown().optional(),
  code: z.unknown().optional(),
  error: z.unknown().optional(),
});

/** The German message for a refused upload: Storage sends its real status in the body. */
export function refusalMessage(kind: UploadKind, status: number, body: string): string {
  let reported = status;
  let code: unknown;
  try {
    const parsed = storageErrorBody.safeParse(JSON.parse(body));
    if (parsed.success) {
      const inBody = Number(parsed.data.statusCode);
      if (Number.isInteger(inBody) && inBody >= 400) reported = inBody;
      code = parsed.data.code ?? parsed.data.error;
    }
  } catch {
    // Not JSON (a proxy's page): the HTTP status is all there is.
  }
  // A session that ended is Storage's 400 InvalidJWT, not a fault of the file.
  if (code === 'InvalidJWT') return uploadMessages.notAllowed;
  if (reported === 413) return uploadMessages.tooLarge;
  if (reported === 415) return uploadMessages.wrongType[kind];
  if (reported === 401 || reported === 403) return uploadMessages.notAllowed;
  if (reported >= 500) return uploadMessages.network;
  return uploadMessages.refused;
}

export interface SendOptions {
  target: UploadTarget;
  kind: UploadKind;
  name: string;
  file: Blob;
  /** 0 to 1 as the bytes go out. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/** POSTs the file as a new object (never replacing one); rejects with an UploadError. */
export function sendUpload({
  target,
  kind,
  name,
  file,
  onProgress,
  signal,
}: SendOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new UploadError(uploadMessages.aborted, true));
      return;
    }
    const path = [documentsBucket, ...name.split('/')].map(encodeURIComponent).join('/');
    const request = new XMLHttpRequest();
    request.open('POST', `${target.storageUrl}/object/${path}`);
    request.setRequestHeader('apikey', target.apiKey);
    request.setRequestHeader('authorization', `Bearer ${target.accessToken ?? target.apiKey}`);
    request.setRequestHeader('content-type', file.type);
    request.setRequestHeader('cache-control', 'max-age=3600');
    request.setRequestHeader('x-upsert', 'false');
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    });
    const stop = () => request.abort();
    signal?.addEventListener('abort', stop, { once: true });
    const settle = (error: UploadError | null) => {
      signal?.removeEventListener('abort', stop);
      if (error) reject(error);
      else resolve();
    };
    request.addEventListener('load', () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress?.(1);
        settle(null);
      } else {
        settle(new UploadError(refusalMessage(kind, request.status, request.responseText)));
      }
    });
    request.addEventListener('error', () => settle(new UploadError(uploadMessages.network)));
    request.addEventListener('timeout', () => settle(new UploadError(uploadMessages.network)));
    request.addEventListener('abort', () => settle(new UploadError(uploadMessages.aborted, true)));
    request.send(file);
  });
}

/**
 * Storage's address as the client addresses it (its public URLs start there), the anon key the
 * client was made with (from the desk's settings) and the session's token, all through public API.
 */
async function uploadTarget(
  supabase: SupabaseClient<Database>,
  apiKey: string,
): Promise<UploadTarget> {
  const probe = supabase.storage.from(documentsBucket).getPublicUrl('x').data.publicUrl;
  const storageUrl = probe.slice(0, probe.indexOf('/object/public/'));
  const { data } = await supabase.auth.getSession();
  return { storageUrl, apiKey, accessToken: data.session?.access_token ?? null };
}

export interface UploadedFile {
  /** Object name in the bucket: what `forms.document` stores. */
  name: string;
  /** Where anyone loads it: what `forms.image` stores for an uploaded image. */
  publicUrl: string;
}

export async function uploadFormFile(
  supabase: SupabaseClient<Database>,
  anonKey: string,
  upload: {
    formId: number;
    kind: UploadKind;
    file: File;
    onProgress?: (fraction: number) => void;
    signal?: AbortSignal;
  },
): Promise<UploadedFile> {
  const refusal = uploadRefusal(upload.kind, upload.file);
  if (refusal) throw new UploadError(refusal);
  const name = documentObjectName(upload.formId, upload.file.name, crypto.randomUUID());
  const target = await uploadTarget(supabase, anonKey);
  await sendUpload({ ...upload, target, name });
  const { publicUrl } = supabase.storage.from(documentsBucket).getPublicUrl(name).data;
  return { name, publicUrl };
}

export type UploadState =
  | { status: 'idle' }
  | { status: 'uploading'; percent: number }
  | { status: 'failed'; message: string }
  | { status: 'done'; file: UploadedFile };

/** One upload at a time with its progress; leaving the screen aborts it. */
export function useFormFileUpload(formId: number, kind: UploadKind) {
  const supabase = useSupabase();
  const { anonKey } = useSupabaseSettings();
  const [state, setState] = useState<UploadState>({ status: 'idle' });
  const running = useRef<AbortController | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  const start = useCallback(
    async (file: File): Promise<UploadedFile | null> => {
      running.current?.abort();
      const controller = new AbortController();
      running.current = controller;
      setState({ status: 'uploading', percent: 0 });
      try {
        const uploaded = await uploadFormFile(supabase, anonKey, {
          formId,
          kind,
          file,
          signal: controller.signal,
          onProgress: (fraction) => {
            if (running.current === controller) {
              setState({ status: 'uploading', percent: Math.round(fraction * 100) });
            }
          },
        });
        if (running.current === controller) setState({ status: 'done', file: uploaded });
        return uploaded;
      } catch (error) {
        if (running.current === controller) {
          setState({
            status: 'failed',
            message: error instanceof UploadError ? error.message : uploadMessages.network,
          });
        }
        return null;
      } finally {
        if (running.current === controller) running.current = null;
      }
    },
    [supabase, anonKey, formId, kind],
  );

  const abort = useCallback(() => running.current?.abort(), []);
  const reset = useCallback(() => setState({ status: 'idle' }), []);
  return { state, start, abort, reset };
}

export const documentDownloadFailedMessage =
  'Das Angebot konnte nicht heruntergeladen werden. Bitte versuche es erneut.';

/** Saves a blob under a file name through a temporary object URL. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the URL after click() returns: give the download time to start.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The form's offer PDF, saved as '{title}.pdf'. */
export function useDocumentDownload() {
  const supabase = useSupabase();
  return useMutation({
    mutationFn: async ({ name, title }: { name: string; title: string }) => {
      const { data, error } = await supabase.storage.from(documentsBucket).download(name);
      if (error) throw error;
      saveBlob(data, `${title}.pdf`);
    },
  });
}

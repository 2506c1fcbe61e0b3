import type { Queryable } from '../../db/database.ts';
import { storageErrors } from './errors.ts';

// The rows of storage.buckets and storage.objects. Every function here runs inside the caller's
// transaction (asRole), so row-level security decides what it sees and may change; none does
// anything but SQL.

export interface BucketRow {
  id: string;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
}

export interface ObjectMetadata {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
}

export interface ObjectRow {
  id: string;
  version: string | null;
  metadata: ObjectMetadata | null;
  updated_at: string | Date;
}

/** Read as the gateway itself: which buckets exist and their limits are not the caller's to see. */
export async function findBucket(db: Queryable, bucket: string): Promise<BucketRow | undefined> {
  const result = await db.query<BucketRow>(
    `select id, public, file_size_limit::float8 as file_size_limit, allowed_mime_types
     from storage.buckets where id = $1`,
    [bucket],
  );
  return result.rows[0];
}

export async function findObject(
  db: Queryable,
  bucket: string,
  name: string,
): Promise<ObjectRow | undefined> {
  const result = await db.query<ObjectRow>(
    `select id, version, metadata, updated_at from storage.objects
     where bucket_id = $1 and name = $2`,
    [bucket, name],
  );
  return result.rows[0];
}

export interface NewVersion {
  bucket: string;
  name: string;
  owner: string | null;
  version: string;
  metadata: ObjectMetadata;
  upsert: boolean;
}

/**
 * Points the object at a new version: inserts it, or with `upsert` replaces the existing row's
 * version. Returns the row's id and the version it replaced (whose body may then be removed).
 */
export async function writeObject(
  tx: Queryable,
  next: NewVersion,
): Promise<{ id: string; replaced: string | null }> {
  const values = [next.bucket, next.name, next.owner, JSON.stringify(next.metadata), next.version];
  try {
    if (next.upsert) {
      // FOR UPDATE sees only rows the caller may update: for anyone else the insert below
      // meets the policies (or the unique name) and fails.
      const existing = await tx.query<{ id: string; version: string | null }>(
        `select id, version from storage.objects where bucket_id = $1 and name = $2 for update`,
        [next.bucket, next.name],
      );
      const row = existing.rows[0];
      if (row) {
        const updated = await tx.query<{ id: string }>(
          `update storage.objects
           set owner = $3::uuid, owner_id = $3::uuid::text, metadata = $4::jsonb, version = $5,
               updated_at = now(), last_accessed_at = now()
           where bucket_id = $1 and name = $2 returning id`,
          values,
        );
        if (!updated.rows[0]) throw rlsRefusal();
        return { id: updated.rows[0].id, replaced: row.version };
      }
    }
    const inserted = await tx.query<{ id: string }>(
      `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, version)
       values ($1, $2, $3::uuid, $3::uuid::text, $4::jsonb, $5) returning id`,
      values,
    );
    return { id: inserted.rows[0]!.id, replaced: null };
  } catch (error) {
    throw storageDatabaseError(error, next.upsert);
  }
}

export interface RemovedObject {
  id: string;
  bucket_id: string;
  name: string;
  owner: string | null;
  owner_id: string | null;
  version: string | null;
  metadata: ObjectMetadata | null;
  created_at: string | Date;
  updated_at: string | Date;
  last_accessed_at: string | Date;
}

/** Deletes the named objects the caller may delete; the others are left alone, unreported. */
export async function removeObjects(
  tx: Queryable,
  bucket: string,
  names: string[],
): Promise<RemovedObject[]> {
  const result = await tx.query<RemovedObject>(
    `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
     returning id, bucket_id, name, owner, owner_id, version, metadata,
               created_at, updated_at, last_accessed_at`,
    [bucket, names],
  );
  return result.rows;
}

export const listColumns = ['name', 'updated_at', 'created_at', 'last_accessed_at'] as const;

export interface ListOptions {
  prefix: string;
  limit: number;
  offset: number;
  sortBy: { column: (typeof listColumns)[number]; order: 'asc' | 'desc' };
  search: string;
}

export interface ListEntry {
  name: string;
  id: string | null;
  updated_at: string | Date | null;
  created_at: string | Date | null;
  last_accessed_at: string | Date | null;
  metadata: ObjectMetadata | null;
}

/**
 * One folder level below `prefix`, as Storage's `search` lists it: each file with its row, each
 * sub-folder once with `id: null`.
 */
export async function listObjects(
  tx: Queryable,
  bucket: string,
  options: ListOptions,
): Promise<ListEntry[]> {
  const folder =
    options.prefix === '' || options.prefix.endsWith('/') ? options.prefix : `${options.prefix}/`;
  // Only whitelisted words reach the SQL text; every value is a parameter.
  const column = listColumns.includes(options.sortBy.column) ? options.sortBy.column : 'name';
  const order = options.sortBy.order === 'desc' ? 'desc' : 'asc';
  const result = await tx.query<ListEntry>(
    `with entries as (
       select distinct split_part(substr(name, length($2::text) + 1), '/', 1) as entry
       from storage.objects
       where bucket_id = $1 and left(name, length($2::text)) = $2::text
         and length(name) > length($2::text)
     )
     select e.entry as name, o.id, o.updated_at, o.created_at, o.last_accessed_at, o.metadata
     from entries e
     left join storage.objects o on o.bucket_id = $1 and o.name = $2::text || e.entry
     where $5::text = '' or strpos(lower(e.entry), lower($5::text)) > 0
     order by ${column === 'name' ? 'e.entry' : `o.${column}`} ${order} nulls last, e.entry
     limit $3::int offset $4::int`,
    [bucket, folder, options.limit, options.offset, options.search],
  );
  return result.rows;
}

function rlsRefusal() {
  return storageErrors.accessDenied('new row violates row-level security policy');
}

/** Storage's answers to the database's refusals; anything else stays a server error. */
function storageDatabaseError(error: unknown, upsert: boolean): unknown {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code === '42501') {
    return storageErrors.accessDenied(
      message?.includes('row-level security')
        ? 'new row violates row-level security policy'
        : (message ?? 'Access denied'),
    );
  }
  // An upsert meets an existing name only when the caller may not update that row.
  if (code === '23505') return upsert ? rlsRefusal() : storageErrors.keyAlreadyExists();
  if (code === '23503') return storageErrors.noSuchBucket();
  return error;
}

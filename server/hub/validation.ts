import type { z } from 'zod';
import { HttpError } from '../http/errors.ts';

/** Parses request input with a zod schema; a mismatch is a 400 listing each field's problem. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new HttpError(
    400,
    'validation_failed',
    'Die Angaben sind unvollständig oder ungültig.',
    result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
  );
}

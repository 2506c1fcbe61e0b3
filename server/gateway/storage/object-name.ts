import { StorageError } from './errors.ts';

// Storage accepts only S3-safe characters in keys and bucket names (storage-api's limits.ts);
// hosted Supabase refuses the rest, so the local gateway must too, or an upload that works here
// would fail in production. Names also become paths below DATA_DIR/storage, so a segment that
// is empty, `.` or `..` is refused as well: nothing may escape a bucket's folder.
const keyCharacters = /^[A-Za-z0-9_/!.*'() &$=@;:+,?-]+$/;
const bucketCharacters = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]+$/;
const maxKeyLength = 1024;
const maxBucketLength = 100;

function hasUnsafeSegment(value: string): boolean {
  return value.split('/').some((segment) => segment === '' || segment === '.' || segment === '..');
}

export function isValidObjectName(name: string): boolean {
  return name.length <= maxKeyLength && keyCharacters.test(name) && !hasUnsafeSegment(name);
}

export function isValidBucketId(bucket: string): boolean {
  return (
    bucket.length <= maxBucketLength && bucketCharacters.test(bucket) && !hasUnsafeSegment(bucket)
  );
}

export function invalidKey(name: string): StorageError {
  return new StorageError(400, 'InvalidKey', 'InvalidKey', `Invalid key: ${name}`);
}

/** The bucket and object name of a route, or Storage's 400 for a name that may not be stored. */
export function objectAddress(bucket: string, name: string): { bucket: string; name: string } {
  if (!isValidBucketId(bucket)) {
    throw new StorageError(400, 'InvalidBucketName', 'Invalid Input', 'The bucket name is invalid');
  }
  if (!isValidObjectName(name)) throw invalidKey(name);
  return { bucket, name };
}

import bcrypt from 'bcryptjs';
import { GotrueError } from './errors.ts';

/**
 * GoTrue's default is 6; staff accounts here read customers' personal and health data, so 8, the
 * least NIST SP 800-63B accepts for a chosen password. A hosted project needs the same setting
 * (Authentication > Providers > Email > Minimum password length) to behave the same.
 */
export const minPasswordLength = 8;
/** bcrypt reads only the first 72 bytes: GoTrue refuses longer passwords rather than cut them. */
export const maxPasswordLength = 72;
/** The cost ensureAdmin hashes with; bcrypt reads the cost from the hash, so older ones still verify. */
const bcryptCost = 10;

export function checkPasswordStrength(password: string): void {
  if (Buffer.byteLength(password) > maxPasswordLength) {
    throw new GotrueError(
      400,
      'validation_failed',
      `Password cannot be longer than ${maxPasswordLength} characters`,
    );
  }
  if (password.length < minPasswordLength) {
    throw new GotrueError(
      422,
      'weak_password',
      `Password should be at least ${minPasswordLength} characters.`,
      { weak_password: { reasons: ['length'] } },
    );
  }
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, bcryptCost);
}

// Compared against when the address is unknown, so a wrong address costs the same time as a
// wrong password and the answer's timing does not tell which addresses have accounts.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(password: string, hash: string | undefined): Promise<boolean> {
  dummyHash ??= bcrypt.hash('no account has this password', bcryptCost);
  const same = await bcrypt.compare(password, hash ?? (await dummyHash));
  return same && hash !== undefined;
}

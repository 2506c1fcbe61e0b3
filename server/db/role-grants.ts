import type { Database } from './database.ts';

/** The roles the gateway switches to for each request (`set_config('role', …)`). */
const apiRoles = ['anon', 'authenticated', 'service_role'];

/**
 * The gateway runs every request as the caller's role, which PostgreSQL allows only to a member of
 * that role. A superuser is one of every role; any other DATABASE_URL user needs the grant, or
 * each request would fail later with "permission denied to set role". Returns the sentence that
 * says what to run, or undefined when nothing is missing.
 */
export async function missingApiRoleGrant(db: Database): Promise<string | undefined> {
  const { rows } = await db.query<{ grantee: string; missing: number }>(
    `select quote_ident(current_user) as grantee,
            (select count(*)::int from unnest($1::text[]) as r(name)
             where case when exists (select from pg_roles where rolname = r.name)
                        then not pg_has_role(current_user, r.name, 'MEMBER')
                        else true end) as missing`,
    [apiRoles],
  );
  const row = rows[0]!;
  return row.missing === 0 ? undefined : apiRoleGrantSentence(row.grantee);
}

export const apiRoleGrantSentence = (grantee: string) =>
  `Der Datenbanknutzer aus DATABASE_URL ist kein Superuser und braucht die Rollen des Gateways; als Superuser ausführen: grant anon, authenticated, service_role to ${grantee};`;

// What a database's schema consists of, read from PostgreSQL's catalogue as one line per object:
// `npm run db:diff` names what its diff left out, tests/database/declarative-schema.test.ts
// finds supabase/schemas and supabase/migrations equal. Every object of `public`, plus the
// policies and triggers the migrations add to the local stand-ins for `auth` and `storage`
// (the stand-ins themselves are the same in both databases).
import type pg from 'pg';

/** Object name (`function public.is_staff()`) -> its definition as PostgreSQL prints it. */
export type Catalogue = Map<string, string>;

// Schemas whose objects count: the migration runner's history table is bookkeeping, and the
// stand-ins are compared only where a migration adds to them (policies, triggers).
const ownSchemas = `n.nspname = 'public'`;
const touchedSchemas = `n.nspname in ('public', 'auth', 'storage')`;

const queries: Record<string, string> = {
  table: `
    select 'table ' || c.oid::regclass::text as name,
           concat_ws(' ', c.relkind::text, case when c.relrowsecurity then 'rls' end,
                     case when c.relforcerowsecurity then 'force-rls' end) as definition
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where ${ownSchemas} and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`,
  column: `
    select 'column ' || c.oid::regclass::text || '.' || quote_ident(a.attname) as name,
           concat_ws(' ', format_type(a.atttypid, a.atttypmod),
                     case when a.attnotnull then 'not null' end,
                     case when a.attidentity <> '' then 'identity ' || a.attidentity::text end,
                     case when a.attgenerated <> '' then 'generated' end,
                     'default ' || pg_get_expr(d.adbin, d.adrelid)) as definition
      from pg_attribute a
      join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where ${ownSchemas} and c.relkind in ('r', 'p', 'v', 'm', 'f')
       and a.attnum > 0 and not a.attisdropped`,
  constraint: `
    select 'constraint ' || quote_ident(co.conname) || ' on ' || c.oid::regclass::text as name,
           pg_get_constraintdef(co.oid) as definition
      from pg_constraint co
      join pg_class c on c.oid = co.conrelid
      join pg_namespace n on n.oid = c.relnamespace
     where ${ownSchemas}`,
  index: `
    select 'index ' || i.indexrelid::regclass::text as name,
           pg_get_indexdef(i.indexrelid) as definition
      from pg_index i
      join pg_class c on c.oid = i.indrelid
      join pg_namespace n on n.oid = c.relnamespace
     where ${ownSchemas}`,
  type: `
    select 'type ' || t.oid::regtype::text as name,
           case t.typtype
             when 'e' then 'enum (' || (select string_agg(quote_literal(e.enumlabel), ', '
                                                          order by e.enumsortorder)
                                          from pg_enum e where e.enumtypid = t.oid) || ')'
             when 'd' then 'domain ' || format_type(t.typbasetype, t.typtypmod)
             else 'composite' end as definition
      from pg_type t join pg_namespace n on n.oid = t.typnamespace
     where ${ownSchemas} and (t.typtype in ('e', 'd')
       or (t.typtype = 'c' and (select c.relkind from pg_class c where c.oid = t.typrelid) = 'c'))`,
  function: `
    select 'function ' || p.oid::regprocedure::text as name,
           pg_get_functiondef(p.oid) as definition
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where ${ownSchemas} and p.prokind in ('f', 'p')`,
  'function grants': `
    select 'grants on function ' || p.oid::regprocedure::text as name,
           array_to_string(array(select unnest(coalesce(p.proacl, acldefault('f', p.proowner)))::text
                                 order by 1), ' ') as definition
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where ${ownSchemas}`,
  'table grants': `
    select 'grants on ' || c.oid::regclass::text as name,
           array_to_string(array(select unnest(coalesce(c.relacl, acldefault(
                                   case c.relkind when 'S' then 's' else 'r' end::"char",
                                   c.relowner)))::text order by 1), ' ') as definition
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where ${ownSchemas} and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`,
  'column grants': `
    select 'grants on column ' || c.oid::regclass::text || '.' || quote_ident(a.attname) as name,
           array_to_string(array(select unnest(a.attacl)::text order by 1), ' ') as definition
      from pg_attribute a
      join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
     where ${ownSchemas} and a.attacl is not null and a.attnum > 0 and not a.attisdropped`,
  policy: `
    select 'policy ' || quote_ident(p.policyname) || ' on ' || quote_ident(p.schemaname) || '.'
             || quote_ident(p.tablename) as name,
           concat_ws(' ', p.permissive, p.cmd, 'to ' || array_to_string(p.roles, ', '),
                     'using ' || p.qual, 'with check ' || p.with_check) as definition
      from pg_policies p
     where p.schemaname in ('public', 'auth', 'storage')`,
  trigger: `
    select 'trigger ' || quote_ident(t.tgname) || ' on ' || c.oid::regclass::text as name,
           pg_get_triggerdef(t.oid) || case t.tgenabled when 'O' then '' else ' ' || t.tgenabled::text end
             as definition
      from pg_trigger t
      join pg_class c on c.oid = t.tgrelid
      join pg_namespace n on n.oid = c.relnamespace
     where ${touchedSchemas} and not t.tgisinternal`,
  view: `
    select 'view ' || c.oid::regclass::text as name,
           concat_ws(' ', pg_get_viewdef(c.oid), array_to_string(c.reloptions, ', ')) as definition
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where ${ownSchemas} and c.relkind in ('v', 'm')`,
  comment: `
    select 'comment on ' || pg_describe_object(d.classoid, d.objoid, d.objsubid) as name,
           d.description as definition
      from pg_description d
      join pg_namespace n on n.oid = case
             when d.classoid = 'pg_class'::regclass
               then (select relnamespace from pg_class where oid = d.objoid)
             when d.classoid = 'pg_proc'::regclass
               then (select pronamespace from pg_proc where oid = d.objoid)
             when d.classoid = 'pg_type'::regclass
               then (select typnamespace from pg_type where oid = d.objoid) end
     where ${ownSchemas}`,
};

/** Reads the catalogue of the database `client` is connected to. */
export async function readCatalogue(client: pg.ClientBase): Promise<Catalogue> {
  const catalogue: Catalogue = new Map();
  // An empty search path prints every name with its schema (`public.is_staff()`).
  await client.query(`set search_path = ''`);
  try {
    for (const sql of Object.values(queries)) {
      const { rows } = await client.query<{ name: string; definition: string | null }>(sql);
      for (const row of rows) catalogue.set(row.name, row.definition ?? '');
    }
  } finally {
    await client.query(`reset search_path`);
  }
  return catalogue;
}

/**
 * Every object that differs, one line each, sorted: present on one side only, or defined
 * differently. `from` is the database as the migrations leave it, `to` as the schema files
 * describe it.
 */
export function catalogueDifferences(from: Catalogue, to: Catalogue): string[] {
  const names = new Set([...from.keys(), ...to.keys()]);
  const lines: string[] = [];
  for (const name of [...names].sort()) {
    const before = from.get(name);
    const after = to.get(name);
    if (before === after) continue;
    if (before === undefined) lines.push(`${name}: nur in supabase/schemas`);
    else if (after === undefined) lines.push(`${name}: nur in den Migrationen`);
    else lines.push(`${name}: unterschiedlich`);
  }
  return lines;
}

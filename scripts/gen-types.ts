// `npm run gen:types`: writes src/domain/database.types.ts, the `Database` type supabase-js is
// created with. It runs the generator `supabase gen types typescript` runs (postgres-meta's
// introspection and TypeScript template, published as @supabase/postgrest-typegen) against a
// throwaway in-memory database migrated from supabase/migrations, with the CLI's settings
// (one-to-one relationships detected), so a hosted project writes the same file with
// `supabase gen types typescript --schema public`. tests/generated-types.test.ts fails when the
// committed file and the migrations disagree.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { introspect } from '@supabase/postgrest-typegen/introspection';
import { generateTypescript, sortGeneratorMetadata } from '@supabase/postgrest-typegen/generation';
import { openDatabase } from '../server/db/database.ts';
import { setupDatabase } from '../server/db/setup.ts';

export const databaseTypesFile = fileURLToPath(
  new URL('../src/domain/database.types.ts', import.meta.url),
);

/** The text of src/domain/database.types.ts as the migrations define the `public` schema. */
export async function generateDatabaseTypes(): Promise<string> {
  const db = await openDatabase({});
  try {
    // The local stand-ins for `auth` and `storage` are what the migrations refer to; only
    // `public` is introspected, so neither they nor the seed's rows change the output.
    await setupDatabase(db, { gateway: true });
    const metadata = await introspect(db, { includedSchemas: ['public'] });
    return await generateTypescript(sortGeneratorMetadata(metadata), {
      detectOneToOneRelationships: true,
      postgrestVersion: '12',
    });
  } finally {
    await db.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(databaseTypesFile, await generateDatabaseTypes());
  console.log(`Geschrieben: ${databaseTypesFile}`);
}

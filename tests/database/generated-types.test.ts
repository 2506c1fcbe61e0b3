import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { databaseTypesFile, generateDatabaseTypes } from '../../scripts/gen-types.ts';

// The committed `Database` type is what the migrations produce: a column renamed or added in
// supabase/migrations without regenerating fails here, not at run time in the desk.
describe('generated database types', () => {
  it('src/domain/database.types.ts matches the migrations', async () => {
    const committed = await readFile(databaseTypesFile, 'utf8');
    const generated = await generateDatabaseTypes();
    expect(
      committed,
      'src/domain/database.types.ts ist veraltet: bitte `npm run gen:types` ausführen und die Datei committen.',
    ).toBe(generated);
  }, 120_000);
});

import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  getDefinition,
  getSetting,
  openOfflineDb,
  putDefinition,
  putSetting,
  type OfflineDb,
} from './outbox-db.ts';

let db: OfflineDb;

afterEach(async () => {
  await db.delete();
});

describe('offline database', () => {
  it('caches a questionnaire definition per form and replaces it on refresh', async () => {
    db = openOfflineDb(`test-${crypto.randomUUID()}`);
    expect(await getDefinition(db, 1)).toBeUndefined();
    await putDefinition(db, { form_id: 1, questions: [{ id: 7 }], fetched_at: 10 });
    await putDefinition(db, { form_id: 1, questions: [{ id: 8 }], fetched_at: 20 });
    expect(await getDefinition(db, 1)).toEqual({
      form_id: 1,
      questions: [{ id: 8 }],
      fetched_at: 20,
    });
  });

  it('stores settings by key', async () => {
    db = openOfflineDb(`test-${crypto.randomUUID()}`);
    expect(await getSetting(db, 'kiosk_mode')).toBeUndefined();
    await putSetting(db, 'kiosk_mode', true);
    await putSetting(db, 'simulate_offline', false);
    expect(await getSetting(db, 'kiosk_mode')).toBe(true);
    expect(await getSetting(db, 'simulate_offline')).toBe(false);
  });

  it('is named universa-offline by default', () => {
    db = openOfflineDb();
    expect(db.name).toBe('universa-offline');
  });
});

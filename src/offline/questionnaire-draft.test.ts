import { describe, expect, it } from 'vitest';
import { clearDraft, DRAFT_MAX_AGE_MS, loadDraft, saveDraft } from './questionnaire-draft.ts';

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

describe('questionnaire draft', () => {
  const draft = {
    step: 2,
    answers: { 1: 'Zwei', 2: ['2019-05-01', ''] },
    contact: { first_name: 'Anna' },
  };

  it('comes back after a reload within 24 hours', () => {
    const storage = memoryStorage();
    saveDraft(1, draft, 1_000, storage);
    expect(loadDraft(1, 1_000 + DRAFT_MAX_AGE_MS, storage)).toEqual({ ...draft, savedAt: 1_000 });
    expect(loadDraft(2, 1_000, storage)).toBeUndefined();
  });

  it('is gone, and removed, after 24 hours', () => {
    const storage = memoryStorage();
    saveDraft(1, draft, 1_000, storage);
    expect(loadDraft(1, 1_001 + DRAFT_MAX_AGE_MS, storage)).toBeUndefined();
    expect(storage.data.size).toBe(0);
  });

  it('is removed when cleared after sending', () => {
    const storage = memoryStorage();
    saveDraft(1, draft, 1_000, storage);
    clearDraft(1, storage);
    expect(loadDraft(1, 1_000, storage)).toBeUndefined();
  });

  it('survives broken or blocked storage without throwing', () => {
    const storage = memoryStorage();
    storage.data.set('fragebogen-entwurf:1', '{kaputt');
    expect(loadDraft(1, 0, storage)).toBeUndefined();
    const blocked = {
      getItem: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
      removeItem: () => undefined,
    };
    expect(() => saveDraft(1, draft, 0, blocked)).not.toThrow();
    expect(loadDraft(1, 0, blocked)).toBeUndefined();
  });
});

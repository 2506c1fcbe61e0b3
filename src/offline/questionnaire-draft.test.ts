import { describe, expect, it } from 'vitest';
import { questionKeys } from '../domain/questionnaire.ts';
import {
  clearDraft,
  draftAnswers,
  DRAFT_MAX_AGE_MS,
  loadDraft,
  resumeDraft,
  resumeStoredDraft,
  saveDraft,
} from './questionnaire-draft.ts';

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
    answers: { 1: 'Zwei', 3: '50 €' },
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

  it('never stores contact details, whatever the caller passes (issue 32, item 9)', () => {
    const storage = memoryStorage();
    const contact = {
      first_name: 'Anna',
      last_name: 'Muster',
      adress: 'Musterweg 12',
      phone: '030 1234567',
      email: 'anna@example.de',
      birthdate: '1980-02-03',
    };
    saveDraft(1, { ...draft, contact } as Parameters<typeof saveDraft>[1], 1_000, storage);
    const stored = storage.data.get('fragebogen-entwurf:1') ?? '';
    expect(JSON.parse(stored)).toEqual({ ...draft, savedAt: 1_000 });
    for (const value of Object.values(contact)) expect(stored).not.toContain(value);
  });

  it('cleans a draft stored with contact details when it is loaded, keeping the answers', () => {
    const storage = memoryStorage();
    storage.data.set(
      'fragebogen-entwurf:1',
      JSON.stringify({
        ...draft,
        contact: { first_name: 'Anna', email: 'anna@example.de', phone: '030 1234567' },
        savedAt: 1_000,
      }),
    );
    expect(loadDraft(1, 2_000, storage)).toEqual({ ...draft, savedAt: 1_000 });
    const stored = storage.data.get('fragebogen-entwurf:1') ?? '';
    expect(JSON.parse(stored)).toEqual({ ...draft, savedAt: 1_000 });
    expect(stored).not.toContain('Anna');
    expect(stored).not.toContain('anna@example.de');
  });

  it("keeps no children's birth dates, and resumes at their question", () => {
    const questions = [
      { id: 1, key: questionKeys.childCount },
      { id: 2, key: questionKeys.childDates },
      { id: 3, key: questionKeys.offerAmount },
      { id: 4, key: null },
    ];
    const answers = { 1: 'Zwei', 2: ['2019-05-01', '2021-07-08'], 3: '50 €', 4: 'Messe' };
    expect(draftAnswers(questions, answers)).toEqual({ 1: 'Zwei', 3: '50 €', 4: 'Messe' });
    expect(resumeDraft(questions, { step: 4, answers })).toEqual({
      step: 1,
      answers: { 1: 'Zwei', 3: '50 €', 4: 'Messe' },
    });
    expect(resumeDraft(questions, { step: 1, answers: { 1: 'Zwei' } })).toEqual({
      step: 1,
      answers: { 1: 'Zwei' },
    });
  });

  it('resumes the stored draft with the questions shown, nothing without one', () => {
    const storage = memoryStorage();
    const questions = [
      { id: 1, key: questionKeys.childCount },
      { id: 2, key: questionKeys.childDates },
      { id: 3, key: questionKeys.offerAmount },
    ];
    expect(resumeStoredDraft(1, questions, 1_000, storage)).toBeUndefined();
    saveDraft(1, { step: 3, answers: { 1: 'Zwei', 3: '50 €' } }, 1_000, storage);
    expect(resumeStoredDraft(1, questions, 2_000, storage)).toEqual({
      step: 1,
      answers: { 1: 'Zwei', 3: '50 €' },
    });
  });
});

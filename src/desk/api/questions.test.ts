import { describe, expect, it } from 'vitest';
import {
  optionsFromObject,
  optionsToObject,
  questionFailureMessage,
  questionMessages,
} from './questions.ts';

describe('options mapping', () => {
  it('keys the list from 1 in list order and drops blank values', () => {
    expect(optionsToObject(['Eins', ' ', 'Zwei ', '', 'Drei oder mehr'])).toEqual({
      '1': 'Eins',
      '2': 'Zwei',
      '3': 'Drei oder mehr',
    });
    expect(optionsToObject([])).toEqual({});
  });

  it('reads the stored map in numeric key order, not text order', () => {
    const stored = { '10': 'zehn', '2': 'zwei', '1': 'eins' };
    expect(optionsFromObject(stored)).toEqual(['eins', 'zwei', 'zehn']);
  });

  it('reads older array rows and missing options', () => {
    expect(optionsFromObject(['a', 'b'])).toEqual(['a', 'b']);
    expect(optionsFromObject(null)).toEqual([]);
    expect(optionsFromObject(undefined)).toEqual([]);
  });

  it('round-trips a list without blanks', () => {
    const list = ['25 €', '50 €', '100 €', '150 €'];
    expect(optionsFromObject(optionsToObject(list))).toEqual(list);
  });
});

describe('failure messages', () => {
  const refused = { code: '42501', message: 'new row violates row-level security policy' };
  const network = { code: '', message: 'TypeError: Failed to fetch' };

  it('tells a refused save and add apart, in the spec catalogue words', () => {
    expect(questionFailureMessage('update', refused)).toBe('Fehler beim Speichern der Daten!');
    expect(questionFailureMessage('add', refused)).toBe('Fehler beim Hinzufügen der Frage!');
  });

  it('calls a failure without an answer from the database unexpected', () => {
    expect(questionFailureMessage('update', network)).toBe('Unvorhergesehener Fehler!');
    expect(questionFailureMessage('add', new TypeError('boom'))).toBe('Unvorhergesehener Fehler!');
  });

  it('explains the refused delete of a question the Tabaluga flow needs', () => {
    expect(questionFailureMessage('delete', { code: 'UQ001', message: 'keyed' })).toBe(
      questionMessages.deleteRefused,
    );
    expect(questionFailureMessage('delete', refused)).toBe(questionMessages.deleteFailed);
  });

  it('never passes the gateway text through', () => {
    for (const action of ['update', 'add', 'delete', 'move'] as const) {
      expect(questionFailureMessage(action, refused)).not.toContain('row-level');
    }
  });
});

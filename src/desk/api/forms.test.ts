import { describe, expect, it } from 'vitest';
import {
  formNotAllowedMessage,
  formSaveFailedMessage,
  formSaveFailure,
  titleTakenMessage,
} from './forms.ts';

describe('formSaveFailure', () => {
  it('puts a taken title (23505) on the title field', () => {
    expect(formSaveFailure({ code: '23505', message: 'duplicate key value' })).toEqual({
      field: 'title',
      message: titleTakenMessage,
    });
  });

  it('explains a save that row-level security refused or that found no row', () => {
    for (const code of ['42501', 'PGRST116']) {
      expect(formSaveFailure({ code, message: 'English text' })).toEqual({
        field: null,
        message: formNotAllowedMessage,
      });
    }
  });

  it('answers anything else with the general German failure, never the English text', () => {
    for (const error of [
      { code: '08006', message: 'connection failure' },
      new TypeError('Failed to fetch'),
      undefined,
    ]) {
      expect(formSaveFailure(error)).toEqual({ field: null, message: formSaveFailedMessage });
    }
  });
});

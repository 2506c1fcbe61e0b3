import { describe, expect, it } from 'vitest';
import { formSaveFailedMessage, formSaveFailure, titleTakenMessage } from './desk-forms.ts';

describe('formSaveFailure', () => {
  it('puts a taken title (23505) on the title field', () => {
    expect(formSaveFailure({ code: '23505', message: 'duplicate key value' })).toEqual({
      field: 'title',
      message: titleTakenMessage,
    });
  });

  it('answers anything else with the general German failure, never the English text', () => {
    for (const error of [
      { code: '42501', message: 'permission denied for table forms' },
      new TypeError('Failed to fetch'),
      undefined,
    ]) {
      expect(formSaveFailure(error)).toEqual({ field: null, message: formSaveFailedMessage });
    }
  });
});

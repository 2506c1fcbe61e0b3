import { describe, expect, it } from 'vitest';
import {
  answerText,
  capturedDiffers,
  cookieChoiceLabel,
  requestDetails,
  responseTitle,
  sourceLabel,
  yesNo,
} from './response-labels.ts';

describe('response labels', () => {
  it('names the source and a fair tablet', () => {
    expect(sourceLabel({ source: 'kfz', channel: 'web' })).toBe('KFZ-Rückruf');
    expect(sourceLabel({ source: 'questionnaire', channel: 'fair_tablet' })).toBe(
      'Fragebogen · Messe-Tablet',
    );
  });

  it('names cookie categories as the banner does', () => {
    expect(cookieChoiceLabel('necessary,statistics')).toBe('Unbedingt erforderlich, Statistik');
    expect(cookieChoiceLabel(null)).toBe('Keine Auswahl übermittelt');
  });

  it('tells a missing consent value apart from a refused one', () => {
    expect(yesNo(null)).toBe('Nicht erfasst');
    expect(yesNo(false)).toBe('Nein');
  });

  it('shows capture and arrival only when they differ by a minute or more', () => {
    const received_at = '2026-11-23T10:00:00Z';
    expect(capturedDiffers({ captured_at: null, received_at })).toBe(false);
    expect(capturedDiffers({ captured_at: '2026-11-23T09:59:30Z', received_at })).toBe(false);
    expect(capturedDiffers({ captured_at: '2026-11-23T08:00:00Z', received_at })).toBe(true);
  });

  it('shows stored dates in German and an empty answer as a dash', () => {
    expect(answerText('2019-05-01, 2021-09-14')).toBe('01.05.2019, 14.09.2021');
    expect(answerText('100 €')).toBe('100 €');
    expect(answerText('')).toBe('–');
  });

  it('heads a KFZ or contact request by its form, not by the form id it carries', () => {
    expect(responseTitle({ source: 'questionnaire', forms: { title: 'PKV' } })).toBe('PKV');
    expect(responseTitle({ source: 'kfz', forms: { title: 'Tabaluga' } })).toBe('KFZ-Rückruf');
    expect(responseTitle({ source: 'contact', forms: null })).toBe('Kontaktformular');
  });

  it('lists only the request details the response holds', () => {
    expect(
      requestDetails({
        salutation: 'Frau',
        title: '',
        birthdate: '1980-02-29',
        call_time: null,
        existing_customer: false,
        message: 'Bitte rufen Sie an.',
      }),
    ).toEqual([
      { label: 'Anrede', text: 'Frau' },
      { label: 'Geburtsdatum', text: '29.02.1980' },
      { label: 'Bereits Kunde', text: 'Nein' },
      { label: 'Nachricht', text: 'Bitte rufen Sie an.' },
    ]);
  });
});

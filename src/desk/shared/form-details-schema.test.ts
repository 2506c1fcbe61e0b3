import { describe, expect, it } from 'vitest';
import { formDetailMessages, formDetailsSchema, newFormSchema } from './form-details-schema.ts';

const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('newFormSchema', () => {
  it('asks for a title of 3 and a description of 10 characters, not counting outer spaces', () => {
    const result = newFormSchema.safeParse({ title: ' ab ', description: '  123456789  ' });
    expect(messagesOf(result)).toEqual([
      formDetailMessages.titleTooShort,
      formDetailMessages.descriptionTooShort,
    ]);
  });

  it('accepts the minimum lengths and trims', () => {
    expect(newFormSchema.parse({ title: ' abc ', description: '1234567890' })).toEqual({
      title: 'abc',
      description: '1234567890',
    });
  });
});

describe('formDetailsSchema', () => {
  const valid = { title: 'Hausrat', description: 'Ein Fragebogen zur Hausratversicherung.' };

  it('takes no image or an http(s) URL', () => {
    expect(formDetailsSchema.safeParse({ ...valid, image: '' }).success).toBe(true);
    expect(
      formDetailsSchema.safeParse({ ...valid, image: 'https://bilder.example/a.png' }).success,
    ).toBe(true);
    expect(
      formDetailsSchema.safeParse({ ...valid, image: 'http://bilder.example/a.png' }).success,
    ).toBe(true);
  });

  it('refuses other addresses with a German message', () => {
    for (const image of ['javascript:alert(1)', 'data:image/png;base64,AAAA', 'bilder/a.png']) {
      expect(messagesOf(formDetailsSchema.safeParse({ ...valid, image }))).toEqual([
        formDetailMessages.imageNotUrl,
      ]);
    }
  });
});

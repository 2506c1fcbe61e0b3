import { describe, expect, it } from 'vitest';
import { documentObjectName } from '../../../src/domain/routes.ts';
import { isValidBucketId, isValidObjectName, objectAddress } from './object-name.ts';

describe('object names', () => {
  it('accepts what Storage accepts', () => {
    for (const name of [
      'angebot.pdf',
      'forms/7/0b9d6f4e-1c2a-4d3b-9e8f-7a6b5c4d3e2f-Angebot_KFZ.pdf',
      "a b/c (1)!&$@=;:+,?'*.png",
      '..hidden/x..y.pdf',
    ]) {
      expect(isValidObjectName(name), name).toBe(true);
    }
  });

  it('refuses names that would leave the bucket or that Storage refuses', () => {
    for (const name of [
      '',
      '..',
      '../x.pdf',
      'a/../../x.pdf',
      'a/./x.pdf',
      '/etc/passwd',
      'a//b.pdf',
      'a/',
      'a\\..\\x.pdf',
      'a\0.pdf',
      'Übersicht.pdf',
      'x'.repeat(1025),
    ]) {
      expect(isValidObjectName(name), JSON.stringify(name)).toBe(false);
    }
  });

  it('refuses bucket ids that are no single safe folder', () => {
    expect(isValidBucketId('documents')).toBe(true);
    for (const bucket of ['', '.', '..', 'a/b', 'a\\b', 'x'.repeat(101)]) {
      expect(isValidBucketId(bucket), bucket).toBe(false);
    }
    expect(() => objectAddress('..', 'a.pdf')).toThrow(/bucket name is invalid/);
    expect(() => objectAddress('documents', '../a.pdf')).toThrow('Invalid key: ../a.pdf');
  });

  it('gives every document upload a name of its own that Storage accepts', () => {
    const version = '0b9d6f4e-1c2a-4d3b-9e8f-7a6b5c4d3e2f';
    expect(documentObjectName(7, 'Angebot Müller & Söhne.pdf', version)).toBe(
      `forms/7/${version}-Angebot_Mueller_Soehne.pdf`,
    );
    expect(documentObjectName(7, 'Café Straße.pdf', version)).toBe(
      `forms/7/${version}-Cafe_Strasse.pdf`,
    );
    expect(documentObjectName(7, '../../etc/passwd', version)).toBe(
      `forms/7/${version}-etc_passwd`,
    );
    expect(documentObjectName(7, '???', version)).toBe(`forms/7/${version}-dokument`);
    for (const name of [
      'Angebot Müller & Söhne.pdf',
      '../../etc/passwd',
      '???',
      'ü'.repeat(3000),
    ]) {
      expect(isValidObjectName(documentObjectName(1, name, version))).toBe(true);
    }
  });
});

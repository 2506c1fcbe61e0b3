import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Survey Desk speaks to staff with "du", as the spec's desk texts do ('Bitte gib die Frage ein.');
// the public site says "Sie". Only the texts the spec gives word for word keep its "Sie": the
// registration's thanks and the support form's alert.
const specTexts = [
  'Vielen Dank für Ihre Registrierung!',
  'Bitte überprüfen Sie Ihre E-Mail-Adresse und bestätigen Sie diese, um Ihr Konto zu',
  'aktivieren.',
  'Wir freuen uns, Sie an Bord zu haben.',
  'Vielen Dank! Ihre Nachricht wurde gesendet.',
];
const formal = /\b(Sie|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres)\b/;

const root = path.resolve(import.meta.dirname, '../../src');
function sources(folder: string, keep: (name: string) => boolean): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && keep(name))
    .map((name) => path.join(folder, name));
}

/** The file without comments, so that only what the desk shows is judged. */
function shownText(file: string): string {
  let text = readFileSync(path.join(root, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/\{\/\*.*?\*\/\}/g, '');
  for (const spec of specTexts) text = text.replaceAll(spec, '');
  return text;
}

describe('the desk’s wording', () => {
  // The desk is one folder: its screens, its data layer (src/desk/api) and its frame.
  const files = sources('desk', () => true);

  it('reads every desk source', () => {
    expect(files.length).toBeGreaterThan(40);
  });

  it.each(files)('%s addresses staff with "du"', (file) => {
    const lines = shownText(file)
      .split('\n')
      .filter((line) => formal.test(line));
    expect(lines).toEqual([]);
  });
});

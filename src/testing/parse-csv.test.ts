import { describe, expect, it } from 'vitest';
import { parseCsv } from './parse-csv.ts';

describe('parseCsv', () => {
  it('reads semicolons, quoted fields with doubled quotes, line breaks and empty fields', () => {
    expect(parseCsv('a;"b; ""c""";\r\n"Zeile 1\nZeile 2";Größe;x\r\n')).toEqual([
      ['a', 'b; "c"', ''],
      ['Zeile 1\nZeile 2', 'Größe', 'x'],
    ]);
  });

  it('refuses a file whose last record is cut off', () => {
    expect(() => parseCsv('a;b\r\nc;d')).toThrow(/CRLF/);
    expect(() => parseCsv('a;"b\r\n')).toThrow(/CRLF/);
  });
});

import { strFromU8, strToU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { ExportCell } from '../../domain/export-table.ts';
import { crc32, crc32Combine, createXlsxStream, storedBlocks } from './xlsx-stream.ts';

// The streaming XLSX writer on its own: the zip it makes (parts, CRCs) and the sheet a reader
// finds in it. The export's columns and cells are tested in export.test.ts.

async function readSheet(blob: Blob) {
  const { default: readXlsxFile } = await import('read-excel-file/universal');
  const [sheet] = await readXlsxFile(await blob.arrayBuffer());
  return sheet!.data;
}

/** Name → CRC-32 as the zip's central directory records it. */
function centralCrcs(zip: Uint8Array): Map<string, number> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const crcs = new Map<string, number>();
  for (let at = 0; at + 46 <= zip.length; at += 1) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(at + 28, true);
    const name = strFromU8(zip.subarray(at + 46, at + 46 + nameLength));
    crcs.set(name, view.getUint32(at + 16, true));
  }
  return crcs;
}

describe('xlsx stream', () => {
  it('computes CRC-32 and combines the CRCs of two parts into that of the whole', () => {
    expect(crc32(strToU8('123456789'))).toBe(0xcbf43926);
    const a = strToU8('Anfrage-Nr.;Eingang\r\n'.repeat(50));
    const b = strToU8('Jürgen;Größe\r\n'.repeat(3000));
    const whole = new Uint8Array([...a, ...b]);
    expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(whole));
    expect(crc32Combine(crc32(a), crc32(new Uint8Array()), 0)).toBe(crc32(a));
  });

  it('splits stored blocks at 65,535 bytes', () => {
    const blocks = storedBlocks(new Uint8Array(70_000).fill(65));
    expect(blocks.map((block) => block.length)).toEqual([65_540, 4_470]);
    expect([...blocks[1]!.subarray(0, 5)]).toEqual([
      0,
      4_465 & 0xff,
      4_465 >>> 8,
      ~4_465 & 0xff,
      (~4_465 >>> 8) & 0xff,
    ]);
  });

  it('writes a zip whose parts inflate to their recorded CRCs, with a header of any size', async () => {
    const stream = createXlsxStream();
    const rows: ExportCell[][] = Array.from({ length: 3000 }, (_, i) => [
      { type: 'number', value: i + 1 },
      { type: 'text', value: `Größe ${i}` },
    ]);
    stream.add(rows.slice(0, 1000));
    stream.add(rows.slice(1000));
    // Long enough that the sheet's beginning takes two stored blocks.
    const headers = Array.from({ length: 3000 }, (_, i) => `Frage ${i} ${'x'.repeat(20)}`);
    const blob = stream.finish(headers);
    const zip = new Uint8Array(await blob.arrayBuffer());
    const parts = unzipSync(zip);
    expect(Object.keys(parts).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    const crcs = centralCrcs(zip);
    for (const [name, bytes] of Object.entries(parts)) expect(crcs.get(name)).toBe(crc32(bytes));
    const sheet = await readSheet(blob);
    expect(sheet).toHaveLength(3001);
    expect(sheet[0]?.[2999]).toBe(headers[2999]);
    expect(sheet[3000]?.slice(0, 2)).toEqual([3000, 'Größe 2999']);
  });

  it('writes typed cells: numbers, days and times in German formats, neutralised and escaped text', async () => {
    const stream = createXlsxStream();
    stream.add([
      [
        { type: 'number', value: 7 },
        { type: 'date', at: new Date(Date.UTC(2026, 10, 23, 11, 0)), withTime: true },
        { type: 'date', at: new Date(Date.UTC(1980, 1, 1)), withTime: false },
        { type: 'text', value: '=HYPERLINK("x") & <b>' },
        null,
        { type: 'text', value: ' Leerzeichen \u0007' },
      ],
    ]);
    // A column first met in a later page (a deleted question) gets its heading all the same.
    stream.add([
      [{ type: 'number', value: 8 }, null, null, null, null, null, { type: 'text', value: 'Hund' }],
    ]);
    const headers = [
      'Anfrage-Nr.',
      'Eingang',
      'Geburtsdatum',
      'Wünsche',
      'Leer',
      'Notiz',
      'Haustiere',
    ];
    const blob = stream.finish(headers);
    expect(blob.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const sheet = await readSheet(blob);
    expect(sheet[0]).toEqual(headers);
    const [number, arrival, birthday, wish, empty, note] = sheet[1]!;
    expect(number).toBe(7);
    expect(
      Math.abs((arrival as unknown as Date).getTime() - Date.UTC(2026, 10, 23, 11, 0)),
    ).toBeLessThan(1000);
    expect(Math.abs((birthday as unknown as Date).getTime() - Date.UTC(1980, 1, 1))).toBeLessThan(
      1000,
    );
    expect(wish).toBe(`'=HYPERLINK("x") & <b>`);
    expect(empty).toBeNull();
    // The reader trims; the file keeps the spaces (and leaves out what XML cannot hold).
    expect(note).toBe('Leerzeichen');
    expect(sheet[2]).toEqual([8, null, null, null, null, null, 'Hund']);

    const parts = unzipSync(new Uint8Array(await blob.arrayBuffer()));
    const styles = strFromU8(parts['xl/styles.xml']!);
    expect(styles).toContain('formatCode="dd.mm.yyyy"');
    expect(styles).toContain('formatCode="dd.mm.yyyy hh:mm"');
    const xml = strFromU8(parts['xl/worksheets/sheet1.xml']!);
    // The header stays in view and is bold; the sheet is named as before.
    expect(xml).toContain('<t xml:space="preserve"> Leerzeichen </t>');
    expect(xml).toContain('state="frozen"');
    expect(xml).toContain('<c r="A1" s="1" t="inlineStr">');
    expect(strFromU8(parts['xl/workbook.xml']!)).toContain('name="Anfragen"');
  });
});

import { Deflate, strToU8, Zip, ZipDeflate, type ZipInputFile } from 'fflate';
import { type ExportCell, neutralise } from '../../domain/export-table.ts';

// The export's XLSX written as a stream: an XLSX is a zip of XML parts, and the sheet's rows are
// deflated as they arrive, so neither the rows nor the sheet's XML are ever held whole. Only the
// compressed file grows (about a tenth of the XML).
//
// The header row comes first in the sheet but is known last: a deleted question met in a late
// page adds a column. So the rows are deflated (fflate) as they arrive, and when the export ends
// the sheet's beginning (views, column widths, header row: a few kilobytes) is put in front as
// DEFLATE "stored" blocks (RFC 1951, 3.2.4: a byte 0, the length and its complement, the bytes
// as they are), after which a DEFLATE stream may continue with the compressed blocks. fflate's own
// sync flush would do the same, but in 0.8.3 it writes a broken stream for inputs this small.
// The entry's CRC-32 is combined from the two parts' CRCs (zlib's crc32_combine).

const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Level 1: the file is about a fifth larger than at level 6, and written about three times faster. */
const level = 1;

const crcTable = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** CRC-32 as zip files use it, continued from `crc` over `data`. */
export function crc32(data: Uint8Array, crc = 0): number {
  let c = ~crc;
  for (let i = 0; i < data.length; i += 1) c = crcTable[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

function gf2Times(matrix: Uint32Array, vector: number): number {
  let sum = 0;
  for (let i = 0; vector !== 0; i += 1, vector >>>= 1) if (vector & 1) sum ^= matrix[i]!;
  return sum >>> 0;
}

function gf2Square(square: Uint32Array, matrix: Uint32Array) {
  for (let n = 0; n < 32; n += 1) square[n] = gf2Times(matrix, matrix[n]!);
}

/** The CRC-32 of A followed by B from crc(A), crc(B) and B's length (zlib's crc32_combine). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  odd[0] = 0xedb88320;
  for (let n = 1, row = 1; n < 32; n += 1, row <<= 1) odd[n] = row;
  gf2Square(even, odd);
  gf2Square(odd, even);
  let crc = crcA >>> 0;
  let length = lengthB;
  do {
    gf2Square(even, odd);
    if (length % 2 === 1) crc = gf2Times(even, crc);
    length = Math.floor(length / 2);
    if (length === 0) break;
    gf2Square(odd, even);
    if (length % 2 === 1) crc = gf2Times(odd, crc);
    length = Math.floor(length / 2);
  } while (length !== 0);
  return (crc ^ crcB) >>> 0;
}

const columnNames: string[] = [];
/** 0 → 'A', 26 → 'AA'. */
function columnName(index: number): string {
  let name = columnNames[index];
  if (name === undefined) {
    name = '';
    for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
      name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
    }
    columnNames[index] = name;
  }
  return name;
}

/** Text as XML character data: markup escaped, characters XML does not allow left out. */
function xmlText(value: string): string {
  return (
    value
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
  );
}

function inlineText(ref: string, value: string, style = ''): string {
  const space = /^\s|\s$/.test(value) ? ' xml:space="preserve"' : '';
  return `<c r="${ref}"${style} t="inlineStr"><is><t${space}>${xmlText(value)}</t></is></c>`;
}

/** Days since 1899-12-30, the spreadsheet's serial date; `at` holds Berlin's wall clock as UTC. */
const serialDate = (at: Date) => at.getTime() / 86_400_000 + 25_569;

// Styles: 0 plain, 1 bold (header), 2 a day, 3 a day with time.
const dayStyle = ' s="2"';
const dayTimeStyle = ' s="3"';

/** One sheet row's XML (row numbers from 1; the header is row 1). */
export function rowXml(rowNumber: number, cells: readonly ExportCell[]): string {
  let xml = `<row r="${rowNumber}">`;
  for (let index = 0; index < cells.length; index += 1) {
    const cell = cells[index];
    if (!cell) continue;
    const ref = columnName(index) + rowNumber;
    if (cell.type === 'number') xml += `<c r="${ref}"><v>${cell.value}</v></c>`;
    else if (cell.type === 'date') {
      const style = cell.withTime ? dayTimeStyle : dayStyle;
      xml += `<c r="${ref}"${style}><v>${serialDate(cell.at)}</v></c>`;
    } else xml += inlineText(ref, neutralise(cell.value));
  }
  return `${xml}</row>`;
}

function sheetStart(headers: readonly string[]): string {
  // Wide enough to read the heading, never so wide that a long question hides the rest.
  const cols = headers
    .map((title, index) => {
      const width = Math.min(Math.max(title.length + 2, 10), 40);
      return `<col min="${index + 1}" max="${index + 1}" width="${width}" customWidth="1"/>`;
    })
    .join('');
  const header = headers.map((title, index) =>
    inlineText(`${columnName(index)}1`, title, ' s="1"'),
  );
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
    '<sheetFormatPr defaultRowHeight="15"/>' +
    (cols ? `<cols>${cols}</cols>` : '') +
    `<sheetData><row r="1">${header.join('')}</row>`
  );
}

const sheetEnd = '</sheetData></worksheet>';

const staticParts: [string, string][] = [
  [
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>',
  ],
  [
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  ],
  [
    'xl/workbook.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Anfragen" sheetId="1" r:id="rId1"/></sheets></workbook>',
  ],
  [
    'xl/_rels/workbook.xml.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
  ],
  [
    'xl/styles.xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
      '<numFmts count="2"><numFmt numFmtId="164" formatCode="dd.mm.yyyy"/><numFmt numFmtId="165" formatCode="dd.mm.yyyy hh:mm"/></numFmts>' +
      '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      '<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
      '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
      '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
      '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>',
  ],
];

/** Bytes as non-final DEFLATE stored blocks of at most 65,535 bytes; byte-aligned, as they begin. */
export function storedBlocks(bytes: Uint8Array): Uint8Array<ArrayBuffer>[] {
  const blocks: Uint8Array<ArrayBuffer>[] = [];
  for (let start = 0; start < bytes.length; start += 0xffff) {
    const part = bytes.subarray(start, start + 0xffff);
    const block = new Uint8Array(5 + part.length);
    // BFINAL 0, BTYPE 00 and the padding to the byte boundary; LEN and NLEN little-endian.
    block[1] = part.length & 0xff;
    block[2] = part.length >>> 8;
    block[3] = ~part.length & 0xff;
    block[4] = (~part.length >>> 8) & 0xff;
    block.set(part, 5);
    blocks.push(block);
  }
  return blocks;
}

export interface XlsxStream {
  /** Deflates the next rows (in order); they can be dropped afterwards. */
  add(rows: readonly (readonly ExportCell[])[]): void;
  /** Rows added so far. */
  readonly rows: number;
  /** Writes the header and the rest of the file; the file as one Blob of the zip's chunks. */
  finish(headers: readonly string[]): Blob;
}

/** An XLSX written row by row: the sheet 'Anfragen', the header in bold and frozen, typed cells. */
export function createXlsxStream(): XlsxStream {
  const zipChunks: BlobPart[] = [];
  let zipError: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) zipError = error;
    else zipChunks.push(chunk);
  });
  for (const [name, xml] of staticParts) {
    const part = new ZipDeflate(name, { level });
    zip.add(part);
    part.push(strToU8(xml), true);
  }

  const bodyChunks: Uint8Array<ArrayBuffer>[] = [];
  const body = new Deflate({ level }, (chunk) => bodyChunks.push(chunk));
  let bodyCrc = 0;
  let bodyLength = 0;
  let rows = 0;
  // Rows are batched into one string per add(): fewer, larger pushes deflate faster.
  const push = (xml: string, final = false) => {
    const bytes = strToU8(xml);
    bodyCrc = crc32(bytes, bodyCrc);
    bodyLength += bytes.length;
    body.push(bytes, final);
  };

  return {
    get rows() {
      return rows;
    },
    add(batch) {
      let xml = '';
      for (const cells of batch) {
        rows += 1;
        xml += rowXml(rows + 1, cells);
      }
      if (xml) push(xml);
    },
    finish(headers) {
      push(sheetEnd, true);
      const startBytes = strToU8(sheetStart(headers));
      const startChunks = storedBlocks(startBytes);

      const sheet: ZipInputFile = {
        filename: 'xl/worksheets/sheet1.xml',
        compression: 8,
        size: startBytes.length + bodyLength,
        crc: crc32Combine(crc32(startBytes), bodyCrc, bodyLength),
      };
      zip.add(sheet);
      const compressed = [...startChunks, ...bodyChunks];
      bodyChunks.length = 0;
      compressed.forEach((chunk, index) =>
        sheet.ondata?.(null, chunk, index === compressed.length - 1),
      );
      zip.end();
      if (zipError) throw zipError;
      return new Blob(zipChunks, { type: xlsxType });
    },
  };
}

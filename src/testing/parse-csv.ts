/**
 * Reads back a CSV as the export writes it and Excel in Germany reads it: RFC 4180 with ';', every
 * record ended by CRLF. Enough of a parser for the tests; it refuses a file whose last record is not
 * ended, which a truncated export would be.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted && char === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (quoted) {
      field += char;
    } else if (char === ';') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else {
      field += char;
    }
  }
  if (field !== '' || record.length > 0 || quoted) {
    throw new Error('Die CSV-Datei endet nicht mit einem vollständigen Datensatz (CRLF).');
  }
  return records;
}

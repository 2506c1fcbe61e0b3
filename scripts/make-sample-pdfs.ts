// npm run pdfs — writes the sample PDFs of scripts/sample-documents.ts into public/.
// Fixed dates keep the output the same from run to run, so a rebuild shows no change.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts, rgb, type PDFFont } from 'pdf-lib';
import { sampleDocuments, type SampleDocument } from './sample-documents.ts';

const publicDir = fileURLToPath(new URL('../public', import.meta.url));
const fixedDate = new Date('2026-11-22T00:00:00Z');
const A4 = { width: 595.28, height: 841.89 };
const margin = 56;

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) > width && line) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

export async function renderSampleDocument(doc: SampleDocument): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(doc.title);
  pdf.setAuthor('Musterdokument');
  pdf.setLanguage('de-DE');
  pdf.setCreator('scripts/make-sample-pdfs.ts');
  pdf.setProducer('pdf-lib');
  pdf.setCreationDate(fixedDate);
  pdf.setModificationDate(fixedDate);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([A4.width, A4.height]);
  const width = A4.width - 2 * margin;
  let y = A4.height - margin;
  for (const line of wrap(doc.title, bold, 18, width)) {
    page.drawText(line, { x: margin, y, size: 18, font: bold, color: rgb(0.05, 0.2, 0.4) });
    y -= 24;
  }
  y -= 12;
  for (const [index, paragraph] of doc.paragraphs.entries()) {
    const font = index === 0 ? bold : regular;
    const color = index === 0 ? rgb(0.6, 0.1, 0.1) : rgb(0.1, 0.1, 0.1);
    for (const line of wrap(paragraph, font, 11, width)) {
      page.drawText(line, { x: margin, y, size: 11, font, color });
      y -= 16;
    }
    y -= 10;
  }
  return pdf.save({ useObjectStreams: false });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const doc of sampleDocuments) {
    const target = path.join(publicDir, doc.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, await renderSampleDocument(doc));
    console.log(`geschrieben: public/${doc.path}`);
  }
}

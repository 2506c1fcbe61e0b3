import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { renderSampleDocument } from '../../scripts/make-sample-pdfs.ts';
import { sampleDocuments } from '../../scripts/sample-documents.ts';
import { pkvDocuments, tabalugaDocuments } from '../../src/domain/questionnaire.ts';

describe('sample PDFs', () => {
  it('exist for every document the questionnaires link to', () => {
    const generated = sampleDocuments.map((d) => `/${d.path}`).sort();
    const linked = [
      tabalugaDocuments.flyer,
      ...Object.values(tabalugaDocuments.offers),
      pkvDocuments.info,
      pkvDocuments.offer,
    ].sort();
    expect(generated).toEqual(linked);
  });

  // The committed files are exactly what the script makes from the text in the repo, so none
  // is a blob of unknown origin. After replacing a sample with a real document, remove its
  // entry from scripts/sample-documents.ts.
  it.each(sampleDocuments.map((d) => [d.path, d] as const))(
    'public/%s is the script output of its sample text',
    async (path, doc) => {
      const committed = await readFile(new URL(`../../public/${path}`, import.meta.url));
      const rendered = await renderSampleDocument(doc);
      expect(committed.subarray(0, 5).toString()).toBe('%PDF-');
      expect(Buffer.from(rendered).equals(committed)).toBe(true);
    },
  );
});

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HubError } from './errors.ts';
import { documentsBucket, publicObjectPath } from '../../src/domain/routes.ts';
import type { FormRow, FormsRepository } from './forms-repository.ts';
import { idParams } from './params.ts';

const formsQuery = z.object({ include: z.enum(['questions']).optional() });

export const formRoutes: FastifyPluginAsyncZod<{ forms: FormsRepository }> = async (
  hub,
  { forms },
) => {
  hub.get('/forms', { schema: { querystring: formsQuery } }, async (request) => {
    const all = (await forms.list()).map(withDocumentUrl);
    if (request.query.include !== 'questions') return all;
    const questions = await forms.questions(all.map((f) => f.id));
    return all.map((form) => ({
      ...form,
      questions: questions.filter((q) => q.form_id === form.id),
    }));
  });

  hub.get('/forms/:id', { schema: { params: idParams } }, async (request) => {
    const { id } = request.params;
    const form = await forms.find(id);
    if (!form) throw unknownForm(id);
    return withDocumentUrl(form);
  });

  // The questionnaire page's one request, cached network-first by the service worker: the
  // questions with the form's document, so the finish screen offers it offline too.
  hub.get('/forms/:id/questions', { schema: { params: idParams } }, async (request) => {
    const { id } = request.params;
    const form = await forms.find(id);
    if (!form) throw unknownForm(id);
    const questions = await forms.questions([id]);
    const { document_url } = withDocumentUrl(form);
    return { data: questions, form: { id: form.id, title: form.title, document_url } };
  });
};

/** The address visitors download the form's document from (the documents bucket is public). */
function withDocumentUrl(form: FormRow) {
  return {
    ...form,
    document_url: form.document ? publicObjectPath(documentsBucket, form.document) : null,
  };
}

function unknownForm(id: number): HubError {
  return new HubError(404, 'unknown_form', `Fragebogen ${id} gibt es nicht.`);
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HubError } from './errors.ts';
import type { FormsRepository } from './forms-repository.ts';
import { idParams } from './params.ts';

const formsQuery = z.object({ include: z.enum(['questions']).optional() });

export const formRoutes: FastifyPluginAsyncZod<{ forms: FormsRepository }> = async (
  hub,
  { forms },
) => {
  hub.get('/forms', { schema: { querystring: formsQuery } }, async (request) => {
    const all = await forms.list();
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
    return form;
  });

  hub.get('/forms/:id/questions', { schema: { params: idParams } }, async (request) => {
    const { id } = request.params;
    const questions = await forms.questions([id]);
    if (questions.length === 0 && !(await forms.find(id))) throw unknownForm(id);
    return questions;
  });
};

function unknownForm(id: number): HubError {
  return new HubError(404, 'unknown_form', `Fragebogen ${id} gibt es nicht.`);
}

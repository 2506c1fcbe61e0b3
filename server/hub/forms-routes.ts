import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { findForm, listForms, listQuestions } from './forms-repository.ts';
import { parseOrThrow } from './validation.ts';

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const formsQuery = z.object({ include: z.enum(['questions']).optional() });

export function registerFormRoutes(app: FastifyInstance, db: Database): void {
  app.get('/api/forms', async (request) => {
    const { include } = parseOrThrow(formsQuery, request.query);
    const forms = await listForms(db);
    if (include !== 'questions') return forms;
    const questions = await listQuestions(
      db,
      forms.map((f) => f.id),
    );
    return forms.map((form) => ({
      ...form,
      questions: questions.filter((q) => q.form_id === form.id),
    }));
  });

  app.get('/api/forms/:id', async (request) => {
    const { id } = parseOrThrow(idParams, request.params);
    const form = await findForm(db, id);
    if (!form) throw unknownForm(id);
    return form;
  });

  app.get('/api/forms/:id/questions', async (request) => {
    const { id } = parseOrThrow(idParams, request.params);
    const questions = await listQuestions(db, [id]);
    if (questions.length === 0 && !(await findForm(db, id))) throw unknownForm(id);
    return questions;
  });
}

function unknownForm(id: number): HttpError {
  return new HttpError(404, 'unknown_form', `Fragebogen ${id} gibt es nicht.`);
}

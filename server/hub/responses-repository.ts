import type { Submission } from '../../src/domain/submission.ts';
import type { Database } from '../db/database.ts';
import { saveSubmission, saveSubmissions } from './responses-intake.ts';
import { findResponse, listResponses, type ResponseListQuery } from './responses-reads.ts';

export type ResponsesRepository = ReturnType<typeof createResponsesRepository>;

export function createResponsesRepository(db: Database) {
  return {
    save: (submission: Submission, now: Date) => saveSubmission(db, submission, now),
    saveBatch: (submissions: Submission[], now: Date) => saveSubmissions(db, submissions, now),
    /** staffId: the staff account reading (logged), undefined for an integration. */
    find: (id: number, staffId?: string) => findResponse(db, id, staffId),
    list: (query: ResponseListQuery, staffId?: string) => listResponses(db, query, staffId),
  };
}

import { describe, expect, it } from 'vitest';
import { orderAnswers, type CustomerAnswer } from './desk-customers.ts';

const answer = (id: number, sequence: number | null): CustomerAnswer => ({
  id,
  answer: `Antwort ${id}`,
  question_text: `Frage ${id}`,
  question_id: sequence === null ? null : id,
  questions: sequence === null ? null : { question: `Frage ${id}`, sequence },
});

describe('orderAnswers', () => {
  it('orders by the questions’ current sequence, deleted questions last by answer id', () => {
    const ordered = orderAnswers([
      answer(5, null),
      answer(1, 3),
      answer(2, 1),
      answer(4, null),
      answer(3, 2),
    ]);
    expect(ordered.map((a) => a.id)).toEqual([2, 3, 1, 4, 5]);
  });

  it('leaves the given list unchanged', () => {
    const given = [answer(1, 2), answer(2, 1)];
    orderAnswers(given);
    expect(given.map((a) => a.id)).toEqual([1, 2]);
  });
});

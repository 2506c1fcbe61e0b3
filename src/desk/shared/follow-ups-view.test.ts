import { describe, expect, it } from 'vitest';
import {
  defaultFollowUpListView,
  followUpListPath,
  followUpListQuery,
  readFollowUpListView,
} from './follow-ups-view.ts';

describe('the follow-up list’s address', () => {
  it('reads the filters and the page from German words, unknown ones as the default', () => {
    expect(readFollowUpListView(new URLSearchParams('wer=ohne&wann=ueberfaellig&seite=3'))).toEqual(
      { assigned: 'unassigned', due: 'overdue', page: 3 },
    );
    expect(readFollowUpListView(new URLSearchParams('wer=niemand&wann=gestern&seite=-2'))).toEqual(
      defaultFollowUpListView,
    );
    expect(readFollowUpListView(new URLSearchParams('seite=1.5'))).toEqual(defaultFollowUpListView);
  });

  it('writes only what differs from the default, so the plain list has a plain address', () => {
    expect(followUpListPath()).toBe('/surveydesk/wiedervorlagen');
    expect(followUpListPath({ due: 'today' })).toBe('/surveydesk/wiedervorlagen?wann=heute');
    expect(followUpListPath({ assigned: 'all', due: 'done', page: 2 })).toBe(
      '/surveydesk/wiedervorlagen?wer=alle&wann=erledigt&seite=2',
    );
  });

  it('reads back every view it writes', () => {
    for (const assigned of ['mine_or_unassigned', 'mine', 'unassigned', 'all'] as const) {
      for (const due of ['open', 'overdue', 'today', 'week', 'done'] as const) {
        const view = { assigned, due, page: 4 };
        expect(readFollowUpListView(followUpListQuery(view))).toEqual(view);
      }
    }
  });
});

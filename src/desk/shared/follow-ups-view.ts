import type { FollowUpAssignedFilter, FollowUpDueFilter } from '../api/follow-ups.ts';
import { deskPaths } from '../../domain/routes.ts';

// The follow-up list's filters live in its address (`?wer=ohne&wann=ueberfaellig&seite=2`), so
// the dashboard's "alle N anzeigen" and the bell link to a filtered list, and a reload or a shared
// link shows the same page. The words are German, as the addresses of the desk are.

export const assignedParam: Record<FollowUpAssignedFilter, string> = {
  mine_or_unassigned: 'fuer-mich',
  mine: 'meine',
  unassigned: 'ohne',
  all: 'alle',
};

export const dueParam: Record<FollowUpDueFilter, string> = {
  open: 'offen',
  overdue: 'ueberfaellig',
  today: 'heute',
  week: 'woche',
  done: 'erledigt',
};

export const assignedLabels: Record<FollowUpAssignedFilter, string> = {
  mine_or_unassigned: 'Meine und ohne Zuständige/n',
  mine: 'Nur meine',
  unassigned: 'Ohne Zuständige/n',
  all: 'Alle',
};

export const dueLabels: Record<FollowUpDueFilter, string> = {
  open: 'Alle offenen',
  overdue: 'Überfällig',
  today: 'Heute fällig',
  week: 'Diese Woche fällig',
  done: 'Erledigt',
};

export interface FollowUpListView {
  assigned: FollowUpAssignedFilter;
  due: FollowUpDueFilter;
  /** 1-based. */
  page: number;
}

export const defaultFollowUpListView: FollowUpListView = {
  assigned: 'mine_or_unassigned',
  due: 'open',
  page: 1,
};

/** Rows per page: a screen's worth at 1366x900. */
export const followUpPageSize = 20;

function keyOf<Key extends string>(words: Record<Key, string>, word: string | null): Key | null {
  const found = Object.entries(words).find(([, value]) => value === word);
  return found ? (found[0] as Key) : null;
}

/** The view an address asks for; unknown or missing values fall back to the default. */
export function readFollowUpListView(params: URLSearchParams): FollowUpListView {
  const page = Number(params.get('seite'));
  return {
    assigned: keyOf(assignedParam, params.get('wer')) ?? defaultFollowUpListView.assigned,
    due: keyOf(dueParam, params.get('wann')) ?? defaultFollowUpListView.due,
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** The address's query for a view; the defaults are left out, the page only past the first. */
export function followUpListQuery(view: FollowUpListView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.assigned !== defaultFollowUpListView.assigned) {
    params.set('wer', assignedParam[view.assigned]);
  }
  if (view.due !== defaultFollowUpListView.due) params.set('wann', dueParam[view.due]);
  if (view.page > 1) params.set('seite', String(view.page));
  return params;
}

/** The follow-up list filtered by `view` (page 1 unless given). */
export function followUpListPath(view: Partial<FollowUpListView> = {}): string {
  const query = followUpListQuery({ ...defaultFollowUpListView, ...view }).toString();
  return query ? `${deskPaths.followUps}?${query}` : deskPaths.followUps;
}

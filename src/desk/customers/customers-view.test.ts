import { describe, expect, it } from 'vitest';
import { noCustomerFilters } from '../api/customers.ts';
import {
  customersExportFilter,
  customersFileStem,
  cycleSort,
  normalizeSearch,
  pageCount,
  readCustomersView,
  writeCustomersView,
  type CustomersView,
} from './customers-view.ts';

const read = (query: string) => readCustomersView(new URLSearchParams(query));

describe('customers view in the address', () => {
  it('reads the defaults from a plain address', () => {
    expect(read('')).toEqual({
      search: '',
      page: 1,
      size: 10,
      sort: null,
      selected: null,
      filters: noCustomerFilters,
    });
  });

  it('reads every part', () => {
    expect(read('q=meier&seite=3&anzahl=20&sortierung=last_name.desc&id=42')).toEqual({
      search: 'meier',
      page: 3,
      size: 20,
      sort: { column: 'last_name', ascending: false },
      selected: 42,
      filters: noCustomerFilters,
    });
  });

  it('reads the filters under their German names, the status as its code', () => {
    expect(
      read(
        'fragebogen=2&quelle=messe&status=contacted&von=2026-11-01&bis=2026-11-30&wiedervorlage=1',
      ).filters,
    ).toEqual({
      questionnaireId: 2,
      source: 'fair_tablet',
      status: 'contacted',
      receivedFrom: '2026-11-01',
      receivedTo: '2026-11-30',
      openFollowUp: true,
    });
    expect(read('quelle=website').filters.source).toBe('web');
    expect(read('quelle=kfz').filters.source).toBe('kfz');
    expect(read('quelle=kontakt').filters.source).toBe('contact');
  });

  it('drops a filter value it does not know', () => {
    expect(
      read(
        'fragebogen=abc&quelle=web&status=Kontaktiert&von=2026-02-30&bis=30.11.2026&wiedervorlage=ja',
      ).filters,
    ).toEqual(noCustomerFilters);
  });

  it('falls back to the default for malformed or foreign values', () => {
    expect(read('seite=0&anzahl=30&sortierung=created_at.asc&id=abc')).toEqual({
      search: '',
      page: 1,
      size: 10,
      sort: null,
      selected: null,
      filters: noCustomerFilters,
    });
    expect(read('seite=-2&sortierung=city&id=07').page).toBe(1);
    expect(read('sortierung=city').sort).toBeNull();
    expect(read('id=07').selected).toBeNull();
  });

  it('normalises a search typed into the address', () => {
    expect(read('q=%20M%C3%BCller%20').search).toBe('müller');
  });

  it('writes only what differs from the default, and reads back what it wrote', () => {
    const plain: CustomersView = {
      search: '',
      page: 1,
      size: 10,
      sort: null,
      selected: null,
      filters: noCustomerFilters,
    };
    expect(writeCustomersView(plain).toString()).toBe('');
    const view: CustomersView = {
      search: 'köln',
      page: 2,
      size: 5,
      sort: { column: 'city', ascending: true },
      selected: 7,
      filters: {
        questionnaireId: 3,
        source: 'kfz',
        status: 'no_interest',
        receivedFrom: '2026-10-01',
        receivedTo: '2026-10-31',
        openFollowUp: true,
      },
    };
    const written = writeCustomersView(view);
    expect(written.get('sortierung')).toBe('city.asc');
    expect(written.get('status')).toBe('no_interest');
    expect(written.get('wiedervorlage')).toBe('1');
    expect(readCustomersView(written)).toEqual(view);
  });

  it('round-trips every source and status through the address', () => {
    for (const source of ['web', 'fair_tablet', 'kfz', 'contact'] as const) {
      for (const status of ['new', 'closed'] as const) {
        const view: CustomersView = {
          search: '',
          page: 1,
          size: 10,
          sort: null,
          selected: null,
          filters: { ...noCustomerFilters, source, status },
        };
        expect(readCustomersView(writeCustomersView(view))).toEqual(view);
      }
    }
  });

  it('keeps the dashboard’s link ?status=<code> as it is', () => {
    const params = new URLSearchParams('status=appointment');
    expect(writeCustomersView(readCustomersView(params)).toString()).toBe('status=appointment');
  });
});

describe('cycleSort', () => {
  it('cycles ascending, descending, none on one column', () => {
    const ascending = cycleSort(null, 'email');
    expect(ascending).toEqual({ column: 'email', ascending: true });
    const descending = cycleSort(ascending, 'email');
    expect(descending).toEqual({ column: 'email', ascending: false });
    expect(cycleSort(descending, 'email')).toBeNull();
  });

  it('starts ascending on another column', () => {
    expect(cycleSort({ column: 'email', ascending: false }, 'city')).toEqual({
      column: 'city',
      ascending: true,
    });
  });
});

describe('search and pages', () => {
  it('trims and lower-cases the search', () => {
    expect(normalizeSearch('  Meier ')).toBe('meier');
  });

  it('counts at least one page', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
  });
});

describe('the list’s page sizes and orders', () => {
  it('reads 50 and 100 rows per page and the new columns’ orders', () => {
    expect(read('anzahl=100').size).toBe(100);
    expect(read('anzahl=50').size).toBe(50);
    for (const column of [
      'last_lead_at',
      'lead_source',
      'questionnaire_title',
      'lead_status',
      'next_follow_up_at',
    ]) {
      expect(read(`sortierung=${column}.desc`).sort).toEqual({ column, ascending: false });
    }
  });
});

describe('the export of the filtered list', () => {
  const titles = (id: number) => ({ 2: 'PKV', 3: 'Gesundheit & Vorsorge' })[id];

  it('exports exactly the list’s search and filters', () => {
    expect(customersExportFilter({ search: '', filters: noCustomerFilters })).toEqual({
      customerSearch: '',
    });
    expect(
      customersExportFilter({
        search: 'köln',
        filters: {
          questionnaireId: 2,
          source: 'fair_tablet',
          status: 'offer_sent',
          receivedFrom: '2026-11-01',
          receivedTo: '2026-11-30',
          openFollowUp: true,
        },
      }),
    ).toEqual({
      customerSearch: 'köln',
      questionnaireId: 2,
      channel: 'fair_tablet',
      status: 'offer_sent',
      receivedFrom: '2026-11-01',
      receivedTo: '2026-11-30',
      openFollowUp: true,
    });
    expect(
      customersExportFilter({ search: '', filters: { ...noCustomerFilters, source: 'contact' } }),
    ).toEqual({ customerSearch: '', source: 'contact' });
  });

  it('names the file by what was filtered, in safe German', () => {
    expect(customersFileStem({ search: '', filters: noCustomerFilters }, titles)).toBe('kunden');
    expect(
      customersFileStem({ search: '', filters: { ...noCustomerFilters, status: 'new' } }, titles),
    ).toBe('kunden_status-neu');
    expect(
      customersFileStem(
        {
          search: 'müller/köln',
          filters: {
            questionnaireId: 3,
            source: 'fair_tablet',
            status: 'appointment',
            receivedFrom: '2026-11-01',
            receivedTo: '2026-11-30',
            openFollowUp: true,
          },
        },
        titles,
      ),
    ).toBe(
      'kunden_suche-mueller-koeln_fragebogen-gesundheit-vorsorge_quelle-messe_status-termin-vereinbart_von-2026-11-01_bis-2026-11-30_wiedervorlage-offen',
    );
    // A questionnaire not (yet) known by title goes by its number.
    expect(
      customersFileStem(
        { search: '', filters: { ...noCustomerFilters, questionnaireId: 9 } },
        titles,
      ),
    ).toBe('kunden_fragebogen-9');
  });
});

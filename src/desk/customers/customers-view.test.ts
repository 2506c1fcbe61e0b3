import { describe, expect, it } from 'vitest';
import {
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
    expect(read('')).toEqual({ search: '', page: 1, size: 10, sort: null, selected: null });
  });

  it('reads every part', () => {
    expect(read('q=meier&seite=3&anzahl=20&sortierung=last_name.desc&id=42')).toEqual({
      search: 'meier',
      page: 3,
      size: 20,
      sort: { column: 'last_name', ascending: false },
      selected: 42,
    });
  });

  it('falls back to the default for malformed or foreign values', () => {
    expect(read('seite=0&anzahl=50&sortierung=created_at.asc&id=abc')).toEqual({
      search: '',
      page: 1,
      size: 10,
      sort: null,
      selected: null,
    });
    expect(read('seite=-2&sortierung=city&id=07').page).toBe(1);
    expect(read('sortierung=city').sort).toBeNull();
    expect(read('id=07').selected).toBeNull();
  });

  it('normalises a search typed into the address', () => {
    expect(read('q=%20M%C3%BCller%20').search).toBe('müller');
  });

  it('writes only what differs from the default, and reads back what it wrote', () => {
    const plain: CustomersView = { search: '', page: 1, size: 10, sort: null, selected: null };
    expect(writeCustomersView(plain).toString()).toBe('');
    const view: CustomersView = {
      search: 'köln',
      page: 2,
      size: 5,
      sort: { column: 'city', ascending: true },
      selected: 7,
    };
    const written = writeCustomersView(view);
    expect(written.get('sortierung')).toBe('city.asc');
    expect(readCustomersView(written)).toEqual(view);
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

import { describe, expect, it } from 'vitest';
import { leadContactChanges, newestLead, type LeadContact } from './lead-contact.ts';

const customer: LeadContact = {
  first_name: 'Anna',
  last_name: 'Alt',
  email: 'anna@example.de',
  phone: null,
  adress: 'Weg 1',
  postcode: '10115',
  city: 'Berlin',
};

describe('newestLead', () => {
  it('goes by the time a lead was typed, so a tablet lead synced late is not the newest', () => {
    const web = { id: 1, captured_at: '2026-11-20T14:00:00Z', received_at: '2026-11-20T14:00:01Z' };
    const tablet = {
      id: 2,
      captured_at: '2026-11-20T10:00:00Z',
      received_at: '2026-11-20T18:00:00Z',
    };
    expect(newestLead([tablet, web])?.id).toBe(1);
    expect(newestLead([web, tablet])?.id).toBe(1);
  });

  it('takes the time received for a lead without a device time', () => {
    const old = { id: 1, captured_at: '2026-11-20T10:00:00Z', received_at: '2026-11-20T10:00:00Z' };
    const plain = { id: 2, captured_at: null, received_at: '2026-11-20T11:00:00Z' };
    expect(newestLead([old, plain])?.id).toBe(2);
    expect(newestLead([])).toBeUndefined();
  });
});

describe('leadContactChanges', () => {
  it('lists what the lead says otherwise, an empty customer field as null', () => {
    expect(
      leadContactChanges(customer, { ...customer, first_name: 'Mallory', phone: '030 1' }),
    ).toEqual([
      { field: 'first_name', label: 'Vorname', before: 'Anna', after: 'Mallory' },
      { field: 'phone', label: 'Telefonnummer', before: null, after: '030 1' },
    ]);
  });

  it('ignores fields the lead left empty and the e-mail’s case', () => {
    expect(
      leadContactChanges(customer, {
        ...customer,
        email: 'ANNA@example.de',
        adress: null,
        city: ' ',
      }),
    ).toEqual([]);
  });
});

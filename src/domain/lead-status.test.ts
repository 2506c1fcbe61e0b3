import { describe, expect, it } from 'vitest';
import { isLeadStatus, leadStatusLabels, leadStatuses } from './lead-status.ts';

describe('lead status', () => {
  it('has a German label for every code and no other', () => {
    expect(Object.keys(leadStatusLabels)).toEqual([...leadStatuses]);
    expect(leadStatusLabels.new).toBe('Neu');
    expect(leadStatusLabels.closed).toBe('Abgeschlossen');
  });

  it('knows the stored codes only', () => {
    expect(isLeadStatus('offer_sent')).toBe(true);
    expect(isLeadStatus('Neu')).toBe(false);
    expect(isLeadStatus(undefined)).toBe(false);
  });
});

// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../domain/messages.ts';
import { submitLead } from '../../offline/submit-lead.ts';
import { fieldNamed, problemOf } from '../shared/fields.test-support.ts';
import { ContactPage } from './contact-page.tsx';

vi.mock('../../offline/submit-lead.ts', () => ({ submitLead: vi.fn() }));

describe('contact page', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('shows exactly the spec messages after an empty submit, and sends nothing', async () => {
    const user = userEvent.setup();
    render(<ContactPage />, { wrapper: MemoryRouter });
    expect(screen.getByRole('form', { name: 'Versicherungscheck buchen' })).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Absenden' }));

    // Focus on the first field in error, at the top of the form (issue 36, item 7).
    expect(document.activeElement).toBe(fieldNamed('Vorname'));
    expect(screen.getAllByText(/sind Pflichtfelder/)).toHaveLength(1);
    expect(problemOf('Vorname')).toBe(messages.firstNameInvalid);
    expect(problemOf('Nachname')).toBe(messages.lastNameInvalid);
    expect(problemOf('E-Mail')).toBe(messages.emailRequired);
    expect(problemOf('Telefonnummer')).toBe(messages.phoneInvalid);
    expect(problemOf(/^Ich akzeptiere die AGB/)).toBe(messages.termsRequired);
    expect(problemOf(/^Ich willige in die Verarbeitung/)).toBe(messages.privacyConsentRequired);
    for (const optional of [
      'Anrede',
      'Titel',
      'Straße und Hausnummer',
      'PLZ',
      'Ort',
      'Nachricht',
    ]) {
      expect(problemOf(optional)).toBeUndefined();
    }
    expect(submitLead).not.toHaveBeenCalled();
  });

  it('limits the birthdate to adults from the local today, and speaks up once it is left', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 2, 15, 10));
    const user = userEvent.setup();
    const { container } = render(<ContactPage />, { wrapper: MemoryRouter });
    const birthdate = container.querySelector<HTMLInputElement>('input[type="date"]')!;
    expect([birthdate.min, birthdate.max]).toEqual(['1906-03-15', '2008-03-15']);

    await user.type(birthdate, '2010-01-01');
    await user.tab();
    const problem = document.getElementById(birthdate.getAttribute('aria-describedby') ?? '');
    expect(problem?.textContent).toBe(messages.birthdateUnderage);
    expect(fieldNamed('Vorname').getAttribute('aria-invalid')).toBeNull();
  });
});

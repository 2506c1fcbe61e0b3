// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../domain/messages.ts';
import { submitLead } from '../../offline/submit-lead.ts';
import { fieldNamed, problemOf } from '../shared/fields.test-support.ts';
import { KfzPage } from './kfz-page.tsx';

vi.mock('../../offline/submit-lead.ts', () => ({ submitLead: vi.fn() }));

describe('KFZ page', () => {
  afterEach(cleanup);

  it('shows exactly the spec messages after an empty submit, and sends nothing', async () => {
    const user = userEvent.setup();
    render(<KfzPage />, { wrapper: MemoryRouter });
    expect(screen.getByRole('form', { name: 'KFZ-Rückruf anfordern' })).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Absenden' }));

    // Focus on the first field in error, at the top of the form (issue 36, item 7).
    expect(document.activeElement).toBe(fieldNamed('Vorname'));
    expect(screen.getAllByText(/sind Pflichtfelder/)).toHaveLength(1);
    expect(problemOf('Vorname')).toBe(messages.firstNameInvalid);
    expect(problemOf('Nachname')).toBe(messages.lastNameInvalid);
    expect(problemOf('E-Mail')).toBe(messages.emailRequired);
    expect(problemOf('Telefonnummer')).toBe(messages.phoneInvalid);
    expect(problemOf('Gewünschte Rückrufzeit')).toBeUndefined();
    expect(problemOf(/^Ich akzeptiere die AGB/)).toBe(messages.termsRequired);
    expect(problemOf(/^Ich willige in die Verarbeitung meiner Daten ein/)).toBe(
      messages.privacyConsentRequired,
    );
    expect(submitLead).not.toHaveBeenCalled();
  });
});

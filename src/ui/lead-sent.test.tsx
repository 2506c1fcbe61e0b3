// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CheckboxField, RequiredNote, TextField } from './form-fields.tsx';
import { callbackSentText, LeadSent, queuedText } from './lead-sent.tsx';

afterEach(cleanup);

describe('the one thank-you of every lead form (issue 36, item 7)', () => {
  it("keeps the spec's text, takes the focus and offers a new request and the start page", async () => {
    const onAgain = vi.fn();
    render(<LeadSent delivery="sent" sentText={callbackSentText} onAgain={onAgain} />);
    const heading = screen.getByRole('heading', { name: 'Vielen Dank für Ihre Anfrage!' });
    expect(document.activeElement).toBe(heading);
    expect(screen.getByText(callbackSentText)).toBeTruthy();
    expect(callbackSentText).toBe(
      'Erfolgreich gesendet. Unser Team meldet sich in den nächsten Tagen bei Ihnen für eine kostenlose Beratung.',
    );
    expect(screen.getByRole('link', { name: 'Zur Startseite' }).getAttribute('href')).toBe(
      '/universa',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Weitere Anfrage stellen' }));
    expect(onAgain).toHaveBeenCalledTimes(1);
  });

  it('says that a lead saved on this device waits, and leaves out what is not asked for', () => {
    render(<LeadSent delivery="queued" sentText={callbackSentText} startLink={false} />);
    expect(screen.getByText(queuedText)).toBeTruthy();
    expect(screen.queryByText(callbackSentText)).toBeNull();
    expect(screen.queryByRole('link', { name: 'Zur Startseite' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Weitere Anfrage stellen' })).toBeNull();
  });
});

describe('one required mark on every field (issue 36, item 7)', () => {
  it("marks text fields and checkboxes alike: a hidden '*' and aria-required", () => {
    render(
      <>
        <RequiredNote />
        <TextField label="Vorname" required />
        <CheckboxField label="Ich akzeptiere die AGB." required />
        <CheckboxField label="Weitere Angebote (freiwillig)" />
      </>,
    );
    const name = screen.getByRole<HTMLInputElement>('textbox', { name: 'Vorname' });
    const terms = screen.getByRole<HTMLInputElement>('checkbox', {
      name: 'Ich akzeptiere die AGB.',
    });
    const optional = screen.getByRole<HTMLInputElement>('checkbox', {
      name: 'Weitere Angebote (freiwillig)',
    });
    for (const field of [name, terms]) {
      expect(field.getAttribute('aria-required')).toBe('true');
      const mark = field.labels?.[0]?.querySelector('[aria-hidden="true"]');
      expect(mark?.textContent?.trim()).toBe('*');
    }
    expect(optional.getAttribute('aria-required')).toBeNull();
    expect(optional.labels?.[0]?.querySelector('[aria-hidden="true"]')).toBeNull();
    expect(screen.getByText(/sind Pflichtfelder\./).textContent).toBe(
      'Felder mit * sind Pflichtfelder.',
    );
  });
});

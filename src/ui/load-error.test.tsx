// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoadError } from './load-error.tsx';

afterEach(cleanup);

describe('LoadError', () => {
  it('announces the message as an alert and asks again on the button', async () => {
    const retry = vi.fn();
    render(<LoadError onRetry={retry}>Die Kunden konnten nicht geladen werden.</LoadError>);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('Die Kunden konnten nicht geladen werden.Erneut versuchen');
    await userEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(retry).toHaveBeenCalledOnce();
  });

  it('shows a second line when there is one', () => {
    render(
      <LoadError onRetry={vi.fn()} detail="Bitte prüfen Sie Ihre Verbindung.">
        Der Fragebogen konnte nicht geladen werden.
      </LoadError>,
    );
    const lines = [...screen.getByRole('alert').querySelectorAll('p')].map((p) => p.textContent);
    expect(lines).toEqual([
      'Der Fragebogen konnte nicht geladen werden.',
      'Bitte prüfen Sie Ihre Verbindung.',
    ]);
  });

  it('is an alert without a frame of its own inside a card', () => {
    render(
      <LoadError framed={false} onRetry={vi.fn()}>
        Die Daten konnten nicht geladen werden.
      </LoadError>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.className).not.toContain('border');
    expect(alert.textContent).toContain('Die Daten konnten nicht geladen werden.');
  });
});

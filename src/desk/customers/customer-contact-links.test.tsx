// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CustomerContactLinks } from './customer-contact-links.tsx';

afterEach(cleanup);

describe('CustomerContactLinks', () => {
  it('shows the number as stored and dials its international form', () => {
    render(<CustomerContactLinks customer={{ phone: '0171 234 56-78', email: 'a@example.de' }} />);
    const call = screen.getByRole('link', { name: 'Anrufen: 0171 234 56-78' });
    expect(call.getAttribute('href')).toBe('tel:+491712345678');
    expect(
      screen.getByRole('link', { name: 'E-Mail schreiben: a@example.de' }).getAttribute('href'),
    ).toBe('mailto:a@example.de');
  });

  it('offers only the e-mail without a number', () => {
    render(<CustomerContactLinks customer={{ phone: null, email: 'a@example.de' }} />);
    expect(screen.getAllByRole('link')).toHaveLength(1);
    expect(screen.queryByRole('link', { name: /Anrufen/ })).toBeNull();
  });
});

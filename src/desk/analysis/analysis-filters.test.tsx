// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseSelection, type AnalysisSelection } from './analysis-filter.ts';
import { AnalysisFilters } from './analysis-filters.tsx';

const today = '2026-11-23';
const forms = [
  { id: 1, title: 'Tabaluga' },
  { id: 2, title: 'PKV' },
];

function renderFilters(query = '') {
  const onChange = vi.fn<(next: AnalysisSelection) => void>();
  const selection = parseSelection(new URLSearchParams(query), today);
  render(<AnalysisFilters selection={selection} forms={forms} today={today} onChange={onChange} />);
  return onChange;
}

afterEach(cleanup);

describe('AnalysisFilters', () => {
  it('applies a preset as Berlin days at once', async () => {
    const onChange = renderFilters();
    await userEvent.selectOptions(screen.getByLabelText('Zeitraum'), '7');
    expect(onChange).toHaveBeenCalledWith({
      period: '7',
      dayFrom: '2026-11-17',
      dayTo: today,
      questionnaireId: null,
      source: 'alle',
    });
  });

  it('offers every questionnaire and all leads, and the two sources', async () => {
    const onChange = renderFilters();
    const form = screen.getByLabelText('Fragebogen');
    expect([...form.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'Alle Anfragen (inkl. KFZ und Kontakt)',
      'Tabaluga',
      'PKV',
    ]);
    await userEvent.selectOptions(form, '2');
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ questionnaireId: 2 }));
    await userEvent.selectOptions(screen.getByLabelText('Quelle'), 'messe');
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ source: 'messe' }));
  });

  it('shows the date fields only for a custom range', () => {
    renderFilters();
    expect(screen.queryByLabelText('Von')).toBeNull();
    cleanup();
    renderFilters('zeitraum=eigener&von=2026-11-01&bis=2026-11-10');
    expect(screen.getByLabelText('Von')).toHaveProperty('value', '2026-11-01');
    expect(screen.getByLabelText('Bis')).toHaveProperty('value', '2026-11-10');
  });

  it('refuses a reversed or future range with the error at its field', async () => {
    const onChange = renderFilters('zeitraum=eigener&von=2026-11-01&bis=2026-11-10');
    const von = screen.getByLabelText('Von');
    const bis = screen.getByLabelText('Bis');
    await userEvent.clear(bis);
    await userEvent.type(bis, '2026-10-01');
    await userEvent.click(screen.getByRole('button', { name: 'Zeitraum anwenden' }));
    expect(onChange).not.toHaveBeenCalled();
    expect(bis.getAttribute('aria-invalid')).toBe('true');
    const describedBy = bis.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe(
      'Das Enddatum darf nicht vor dem Startdatum liegen.',
    );

    await userEvent.clear(von);
    await userEvent.type(von, '2026-11-24');
    await userEvent.click(screen.getByRole('button', { name: 'Zeitraum anwenden' }));
    expect(screen.getByText('Das Startdatum darf nicht in der Zukunft liegen.')).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('applies a valid custom range', async () => {
    const onChange = renderFilters('zeitraum=eigener&von=2026-11-01&bis=2026-11-10');
    const bis = screen.getByLabelText('Bis');
    await userEvent.clear(bis);
    await userEvent.type(bis, '2026-11-20');
    await userEvent.click(screen.getByRole('button', { name: 'Zeitraum anwenden' }));
    expect(onChange).toHaveBeenCalledWith(
      expect.objectContaining({ period: 'eigener', dayFrom: '2026-11-01', dayTo: '2026-11-20' }),
    );
  });
});

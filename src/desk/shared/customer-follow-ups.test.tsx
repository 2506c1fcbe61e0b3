// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FollowUp } from '../api/follow-ups.ts';
import { CustomerFollowUps } from './customer-follow-ups.tsx';

// The sidebar's follow-ups against stand-ins for the read and 'Erledigt'; the dialog has its own
// test (follow-up-dialog.test.tsx) and shows here only what it was opened for.
const state = vi.hoisted(() => ({
  list: [] as FollowUp[],
  done: [] as number[],
}));

vi.mock('../api/follow-ups.ts', () => ({
  useCustomerFollowUps: () => ({
    data: state.list,
    isPending: false,
    isError: false,
    refetch: vi.fn(),
  }),
  useCompleteFollowUp: () => ({
    mutate: (id: number) => state.done.push(id),
    isPending: false,
    isError: false,
  }),
}));
vi.mock('./follow-up-dialog.tsx', () => ({
  FollowUpDialog: (props: {
    subject: { customerId: number; responseId: number | null; label: string } | null;
  }) =>
    props.subject ? (
      <p data-testid="dialog">
        {props.subject.responseId === null
          ? `${props.subject.customerId}: ${props.subject.label}`
          : `${props.subject.customerId}/${props.subject.responseId}: ${props.subject.label}`}
      </p>
    ) : null,
}));

const item = (overrides: Partial<FollowUp>): FollowUp => ({
  id: 1,
  customer_id: 7,
  customer_name: 'Erika Muster',
  response_id: null,
  due_at: '2026-11-25T13:00:00.000Z',
  body: 'Anrufen',
  automatic: false,
  assignee: 'u2',
  assignee_name: 'Anna Admin',
  overdue: false,
  ...overrides,
});

beforeEach(() => {
  state.list = [];
  state.done = [];
});
afterEach(cleanup);

describe('CustomerFollowUps', () => {
  it('says when nothing is open and opens the dialog for the customer', async () => {
    render(<CustomerFollowUps customerId={7} customerName="Erika Muster" />);
    const region = screen.getByRole('region', { name: 'Wiedervorlagen' });
    expect(region.textContent).toContain('Keine offenen Wiedervorlagen.');
    await userEvent.click(within(region).getByRole('button', { name: 'Wiedervorlage anlegen' }));
    expect(screen.getByTestId('dialog').textContent).toBe('7: Erika Muster');
  });

  it('on the lead page: a card of its own whose new follow-up belongs to the lead', async () => {
    render(
      <CustomerFollowUps
        card
        customerId={7}
        customerName="Erika Muster"
        lead={{ responseId: 31, label: 'Tabaluga vom 20.11.2026, 16:30' }}
      />,
    );
    const region = screen.getByRole('region', { name: 'Wiedervorlagen' });
    expect(within(region).getByRole('heading', { level: 2 }).textContent).toBe('Wiedervorlagen');
    await userEvent.click(within(region).getByRole('button', { name: 'Wiedervorlage anlegen' }));
    expect(screen.getByTestId('dialog').textContent).toBe(
      '7/31: Erika Muster · Tabaluga vom 20.11.2026, 16:30',
    );
  });

  it('lists the open ones with time in Berlin and assignee, each done with one click', async () => {
    state.list = [
      item({
        id: 1,
        overdue: true,
        body: 'Rückruf gewünscht: Abends (17–20 Uhr)',
        assignee: null,
        assignee_name: null,
      }),
      item({ id: 2, due_at: '2026-11-26T08:30:00.000Z', body: 'Angebot' }),
    ];
    render(<CustomerFollowUps customerId={7} customerName="Erika Muster" />);
    const [first, second] = screen.getAllByRole('listitem');
    expect(first!.textContent).toContain('25.11.2026, 14:00 Uhr');
    expect(first!.textContent).toContain('überfällig');
    expect(first!.textContent).toContain('Zuständig: niemand (offen für alle)');
    expect(second!.textContent).toContain('26.11.2026, 09:30 Uhr');
    expect(second!.textContent).toContain('Zuständig: Anna Admin');
    await userEvent.click(within(second!).getByRole('button', { name: /^Erledigt/ }));
    expect(state.done).toEqual([2]);
  });
});

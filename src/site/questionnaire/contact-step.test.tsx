// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '../../domain/messages.ts';
import { submitLead } from '../../offline/submit-lead.ts';
import { problemOf } from '../shared/fields.test-support.ts';
import { ContactStep } from './contact-step.tsx';

vi.mock('../../offline/submit-lead.ts', () => ({ submitLead: vi.fn() }));

function renderStep(onChange = vi.fn()) {
  render(
    <ContactStep
      initialValues={{ first_name: 'Jürgen' }}
      onChange={onChange}
      toLead={() => {
        throw new Error('not sent in this test');
      }}
      onDelivered={vi.fn()}
      onStored={vi.fn()}
      onBack={vi.fn()}
      headingRef={() => {}}
    />,
    { wrapper: MemoryRouter },
  );
  return { onChange };
}

describe('questionnaire contact step', () => {
  afterEach(cleanup);

  it('starts from the draft and gives one spec message per empty field on submit', async () => {
    const user = userEvent.setup();
    renderStep();
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Vorname' }).value).toBe('Jürgen');
    await user.clear(screen.getByRole('textbox', { name: 'Vorname' }));
    await user.click(screen.getByRole('button', { name: 'Angebot anfordern' }));

    expect(problemOf('Vorname')).toBe(messages.firstNameRequired);
    expect(problemOf('Nachname')).toBe(messages.lastNameRequired);
    expect(problemOf('Straße und Hausnummer')).toBe(messages.adressRequired);
    expect(problemOf('PLZ')).toBe(messages.postcodeRequired);
    expect(problemOf('Ort')).toBe(messages.cityRequired);
    expect(problemOf('Telefonnummer')).toBe(messages.phoneRequired);
    expect(problemOf('E-Mail')).toBe(messages.emailRequired);
    expect(problemOf(/^Ich akzeptiere die AGB/)).toBe(messages.acceptRequired);
    expect(problemOf(/^Ich willige in die Verarbeitung/)).toBe(messages.acceptRequired);
    expect(problemOf(/weitere passende Angebote/)).toBeUndefined();
    expect(submitLead).not.toHaveBeenCalled();
  });

  it('hands every typed value to the draft', async () => {
    const user = userEvent.setup();
    const { onChange } = renderStep();
    await user.type(screen.getByRole('textbox', { name: 'Ort' }), 'Berlin');
    expect(onChange).toHaveBeenLastCalledWith(
      expect.objectContaining({ first_name: 'Jürgen', city: 'Berlin', offer_info: false }),
    );
  });
});

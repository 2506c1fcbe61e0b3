import { describe, expect, it } from 'vitest';
import { approvalMail } from './staff-mail-content.ts';

describe('the approval mail', () => {
  it('tells the colleague in German that the account is enabled, with role and sign-in link', () => {
    const mail = approvalMail('https://makler.example.de/', {
      to: 'neu@example.de',
      role: 'staff',
    });
    expect(mail.to).toBe('neu@example.de');
    expect(mail.subject).toBe('Ihr Zugang zu Survey Desk ist freigeschaltet');
    expect(mail.text).toContain('Ihre Rolle: Mitarbeiter.');
    expect(mail.text).toContain('\nhttps://makler.example.de/surveydesk/signin\n');
    expect(mail.text).toContain('\nhttps://makler.example.de/surveydesk/passwort-vergessen\n');
    // Only the address it goes to appears as its recipient; the text names no address.
    expect(mail.text).not.toContain('@');
  });

  it('names the admin role', () => {
    expect(approvalMail('http://127.0.0.1:8080', { to: 'a@b.de', role: 'admin' }).text).toContain(
      'Ihre Rolle: Admin.',
    );
  });
});

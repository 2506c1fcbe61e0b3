import { describe, expect, it } from 'vitest';
import { decideSend, readDeviceRule } from './send-rule.ts';

describe('decideSend', () => {
  const off = { simulateOffline: false, kiosk: false };

  it('sends online with the simulation off, in fair mode too', () => {
    expect(decideSend(off, { online: true })).toEqual({ send: true });
    expect(decideSend({ ...off, kiosk: true }, { online: true })).toEqual({ send: true });
  });

  it('holds while simulated, offline, or when the rule could not be read', () => {
    expect(decideSend({ ...off, simulateOffline: true }, { online: true })).toEqual({
      send: false,
      reason: 'simulated',
    });
    expect(decideSend(off, { online: false })).toEqual({ send: false, reason: 'offline' });
    expect(decideSend(undefined, { online: true })).toEqual({ send: false, reason: 'unreadable' });
  });
});

describe('readDeviceRule', () => {
  const from =
    (values: Record<string, unknown>) =>
    (key: string): Promise<unknown> =>
      Promise.resolve(values[key]);

  it('reads settings never written as off', async () => {
    expect(await readDeviceRule(from({}))).toEqual({ simulateOffline: false, kiosk: false });
    expect(await readDeviceRule(from({ simulateOffline: true, kiosk: true }))).toEqual({
      simulateOffline: true,
      kiosk: true,
    });
  });

  it('fails closed: a record of another shape or a failed read gives no rule', async () => {
    expect(await readDeviceRule(from({ simulateOffline: 'an' }))).toBeUndefined();
    expect(await readDeviceRule(from({ kiosk: 1 }))).toBeUndefined();
    expect(
      await readDeviceRule(() => Promise.reject(new Error('Die Datenbank ist geschlossen.'))),
    ).toBeUndefined();
  });
});

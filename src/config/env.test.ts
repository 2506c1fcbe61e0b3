import { describe, expect, it } from 'vitest';
import { parseAppConfig } from './env.ts';

describe('parseAppConfig', () => {
  it('defaults to the serving origin when nothing or an empty value is set', () => {
    expect(parseAppConfig({})).toEqual({
      hubUrl: '',
      supabase: { url: undefined, anonKey: undefined },
    });
    expect(parseAppConfig({ VITE_HUB_URL: '', VITE_SUPABASE_URL: '' }).hubUrl).toBe('');
  });

  it('takes an absolute hub URL or a path, without trailing slashes', () => {
    expect(parseAppConfig({ VITE_HUB_URL: 'https://hub.example/base/' }).hubUrl).toBe(
      'https://hub.example/base',
    );
    expect(parseAppConfig({ VITE_HUB_URL: '/hub/' }).hubUrl).toBe('/hub');
  });

  it('takes the Supabase URL and key when given', () => {
    expect(
      parseAppConfig({
        VITE_SUPABASE_URL: 'http://localhost:54321',
        VITE_SUPABASE_ANON_KEY: 'anon-key',
      }).supabase,
    ).toEqual({ url: 'http://localhost:54321', anonKey: 'anon-key' });
  });

  it.each([
    ['VITE_HUB_URL', 'hub.example'],
    ['VITE_HUB_URL', 'ftp://hub.example'],
    ['VITE_SUPABASE_URL', 'nicht-eine-adresse'],
    ['VITE_SUPABASE_ANON_KEY', '   '],
  ])('stops with a message naming %s when it is %j', (name, value) => {
    expect(() => parseAppConfig({ [name]: value })).toThrow(
      new RegExp(`Ungültige Konfiguration der App:\\n {2}${name}: `),
    );
  });
});

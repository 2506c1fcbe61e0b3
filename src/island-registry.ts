import { defineIslands } from './islands/island-definition.ts';

/**
 * Every island of the public pages: its name (what `<Island name>` marks in a page), when it
 * starts (`IslandStart`), whether it is React or plain DOM (`kind`) and its code, loaded on
 * demand. src/islands.tsx starts the islands of a prerendered page from this list, and the build
 * (scripts/vite-plugins/island-pages.ts) reads it to fetch ahead the code of a page's islands
 * that start at first use. Adding an island is one entry here and the `<Island>` in its page.
 */
export const islandRegistry = defineIslands({
  // Plain DOM (`kind: 'dom'`): the header's status and the notices are on every page and the
  // cookie button on the legal ones, so those pages run without React; the status's panel
  // brings React when it first opens.
  'device-status': {
    start: 'load',
    kind: 'dom',
    code: async () => (await import('./app/device-status-dom.ts')).startDeviceStatus,
  },
  'pwa-notices': {
    start: 'load',
    kind: 'dom',
    code: async () => (await import('./app/pwa-notices-dom.ts')).startPwaNotices,
  },
  'cookie-settings': {
    start: 'load',
    kind: 'dom',
    code: async () => (await import('./ui/cookie-settings-dom.ts')).startCookieSettingsButton,
  },
  tabaluga: {
    start: 'load',
    code: async () =>
      (await import('./site/questionnaire/tabaluga-page.tsx')).TabalugaQuestionnaire,
  },
  pkv: {
    start: 'load',
    code: async () => (await import('./site/questionnaire/pkv-page.tsx')).PkvQuestionnaire,
  },
  'kfz-form': {
    start: 'interaction',
    code: async () => (await import('./site/kfz/kfz-page.tsx')).KfzForm,
  },
  'contact-form': {
    start: 'interaction',
    code: async () => (await import('./site/contact/contact-page.tsx')).ContactForm,
  },
  'not-found-meta': {
    start: 'load',
    code: async () => (await import('./site/not-found/not-found-meta.tsx')).NotFoundMeta,
  },
});

declare module './islands/island-definition.ts' {
  // Declaration merging: `<Island name>` and `IslandName` take exactly the names above.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the keys are the point
  interface RegisteredIslands extends Record<keyof typeof islandRegistry, true> {}
}

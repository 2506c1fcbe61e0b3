// Runs before every test file. Component tests wait for debounced and asynchronous updates with
// Testing Library's `waitFor` and `findBy*`; their default of one second fails on a busy two-core
// CI machine that runs timers late, so they wait up to five seconds (a passing test still ends
// as soon as its condition holds).
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/dom');
  configure({ asyncUtilTimeout: 5_000 });
}

export {};

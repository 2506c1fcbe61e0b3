import { loadAfterPaint } from './loader.ts';

// The one script of a prerendered public page (a module, deferred: it runs once the HTML is
// parsed). Built as its own small entry that imports nothing at run time.
loadAfterPaint(document, window);

// The parts of Observable Plot the charts use. Imported by name here, so the bundler drops the
// rest of the library (a namespace import of the package would keep all of it).
export { axisY, barX, barY, dot, lineY, plot, ruleX, ruleY, text } from '@observablehq/plot';

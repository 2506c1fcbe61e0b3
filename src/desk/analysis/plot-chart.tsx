import { useEffect, useRef, useState } from 'react';

export type PlotModule = typeof import('./plot-marks.ts');

/** Colours with at least 4.5:1 against white (WCAG asks 3:1 for graphics); never the only cue. */
export const chartColors = {
  web: '#1d4ed8',
  fairTablet: '#b45309',
  bar: '#1e40af',
  text: '#1e293b',
} as const;

/**
 * A chart drawn by Observable Plot. Plot is loaded on first use, so the library reaches neither
 * the public pages nor the desk's first load. The drawing is one image for assistive technology
 * (`role="img"` with the title and summary as its name); the numbers are in the table beside it.
 */
export function PlotChart<T>(props: {
  label: string;
  data: T;
  draw: (plot: PlotModule, data: T, width: number) => Element;
}) {
  const { data, draw } = props;
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  // The box's width in steps of 40 px: a chart is drawn for its width, and drawn again when a
  // window is resized or a sidebar opens, but not for every pixel of a drag.
  const [width, setWidth] = useState(0);

  useEffect(() => {
    const target = box.current;
    if (!target || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const next = Math.round((entry?.contentRect.width ?? 0) / 40) * 40;
      setWidth((current) => (current === next ? current : next));
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    let cancelled = false;
    import('./plot-marks.ts')
      .then((plot) => {
        const target = box.current;
        if (cancelled || !target) return;
        const chart = draw(
          plot,
          data,
          Math.max(320, Math.min(width || target.clientWidth || 640, 960)),
        );
        chart.setAttribute('aria-hidden', 'true');
        target.replaceChildren(chart);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [data, draw, width]);

  if (failed) {
    return (
      <p className="text-slate-700">
        Das Diagramm konnte nicht geladen werden; die Zahlen stehen in der Tabelle.
      </p>
    );
  }
  return <div ref={box} role="img" aria-label={props.label} className="min-h-40 overflow-x-auto" />;
}

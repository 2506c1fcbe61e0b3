// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlotChart } from './plot-chart.tsx';

vi.mock('@observablehq/plot', () => ({}));

type Resized = (entries: { contentRect: { width: number } }[]) => void;
let resized: Resized | undefined;

class FakeResizeObserver {
  constructor(callback: Resized) {
    resized = callback;
  }
  observe() {}
  disconnect() {}
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resized = undefined;
});

describe('PlotChart', () => {
  it('draws for the box width and again when the box is resized, in 40 px steps', async () => {
    vi.stubGlobal('ResizeObserver', FakeResizeObserver);
    const widths: number[] = [];
    const draw = (_plot: unknown, _data: number[], width: number) => {
      widths.push(width);
      return document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    };
    const data = [1, 2, 3];
    render(<PlotChart label="Anfragen: 6 Anfragen" data={data} draw={draw} />);

    expect(screen.getByRole('img', { name: 'Anfragen: 6 Anfragen' })).toBeTruthy();
    // jsdom lays nothing out: the first drawing takes the fallback width.
    await waitFor(() => expect(widths).toEqual([640]));
    act(() => resized?.([{ contentRect: { width: 811 } }]));
    await waitFor(() => expect(widths).toEqual([640, 800]));
    // A few pixels more stay in the same step: no redraw.
    act(() => resized?.([{ contentRect: { width: 815 } }]));
    act(() => resized?.([{ contentRect: { width: 400 } }]));
    await waitFor(() => expect(widths).toEqual([640, 800, 400]));
    // The drawing is hidden from assistive technology; the box carries its name.
    expect(document.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
  });
});

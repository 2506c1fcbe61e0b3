import type { DeviceStatus } from '../offline/device-status-store.ts';
import {
  detailsClassName,
  dotClassName,
  lockedClassName,
  panelClassName,
  prerenderedPanelId,
  prerenderedStatus,
  rejectedClassName,
  statusFacts,
  summaryClassName,
  summaryExtras,
} from './device-status-view.ts';

/**
 * The status's summary: connection, waiting count, rejected, locked. device-status-dom.ts writes
 * the same elements with plain DOM (its test compares both).
 */
export function StatusSummary({ status, panelId }: { status: DeviceStatus; panelId: string }) {
  const { offline, label, detailed } = statusFacts(status);
  const extras = summaryExtras(status);
  return (
    <summary
      aria-controls={panelId}
      data-detailed={detailed || undefined}
      className={summaryClassName}
    >
      <span aria-hidden="true" className={dotClassName(offline)} />
      <span data-testid="verbindungsstatus">{label}</span>
      {extras.waiting ? (
        <span data-testid="wartende-anfragen" className={extras.waiting.className}>
          {extras.waiting.text}
        </span>
      ) : null}
      {extras.rejected ? <span className={rejectedClassName}>{extras.rejected}</span> : null}
      {extras.locked ? <span className={lockedClassName}>{extras.locked}</span> : null}
    </summary>
  );
}

/**
 * What the build writes into the header of every prerendered page: the status as it is before
 * the device was asked ("Online"), with an empty panel. The page paints it with the HTML, so
 * nothing moves when device-status-dom.ts takes it over.
 */
export function PrerenderedDeviceStatus() {
  return (
    <details className={detailsClassName}>
      <StatusSummary status={prerenderedStatus} panelId={prerenderedPanelId} />
      <div id={prerenderedPanelId} className={panelClassName} />
    </details>
  );
}

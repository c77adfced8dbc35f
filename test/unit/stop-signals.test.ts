// The run's stop signals: the first stops, a later one means "now", and the same signal sent again at once
// (signal-exit re-sends one when it counts no listener but its own) is the same stop. The clock is the test's.
import { describe, expect, it } from 'vitest';
import { onStopSignals } from '../../src/util/stop-signals.js';

describe('onStopSignals', () => {
  it('stops on the first signal, ignores a repeat within 250 ms, and ends at once on a later one', () => {
    const listeners = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    let t = 1000;
    const stops: string[] = [];
    let nows = 0;
    const off = onStopSignals(
      (sig) => stops.push(sig),
      () => (nows += 1),
      () => t,
    );
    try {
      process.emit('SIGTERM', 'SIGTERM');
      expect(stops).toEqual(['SIGTERM']);
      t += 5;
      process.emit('SIGTERM', 'SIGTERM');
      expect([stops.length, nows]).toEqual([1, 0]);
      t += 2000;
      process.emit('SIGINT', 'SIGINT');
      expect([stops.length, nows]).toEqual([1, 1]);
    } finally {
      off();
    }
    expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual(listeners);
  });
});

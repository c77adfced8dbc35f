// The run's stop signals: the first stops, a later one means "now", and the same signal sent again at once
// is the same stop. An emitter of the test's own stands for the process: emitting a signal on the real one
// runs every listener there, signal-exit's too, which then sends the worker a real SIGTERM (the re-send
// this guards against). The clock is the test's.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { onStopSignals } from '../../src/util/stop-signals.js';

describe('onStopSignals', () => {
  it('stops on the first signal, ignores a repeat within 250 ms, and ends at once on a later one', () => {
    const source = new EventEmitter();
    let t = 1000;
    const stops: string[] = [];
    let nows = 0;
    const off = onStopSignals(
      (sig) => stops.push(sig),
      () => (nows += 1),
      { source, clock: () => t },
    );
    source.emit('SIGTERM', 'SIGTERM');
    expect(stops).toEqual(['SIGTERM']);
    t += 5;
    source.emit('SIGTERM', 'SIGTERM');
    expect([stops.length, nows]).toEqual([1, 0]);
    t += 2000;
    source.emit('SIGINT', 'SIGINT');
    expect([stops.length, nows]).toEqual([1, 1]);
    off();
    expect([source.listenerCount('SIGINT'), source.listenerCount('SIGTERM')]).toEqual([0, 0]);
  });
});

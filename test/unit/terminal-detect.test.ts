import { describe, expect, it } from 'vitest';
import { detectTerminal, type TerminalInputs } from '../../src/cli/output/terminal.js';

const tty: TerminalInputs = {
  env: {},
  stdinIsTTY: true,
  stdoutIsTTY: true,
  stderrIsTTY: true,
  stdoutColumns: 100,
  stderrColumns: 80,
  colorFlag: true,
  quiet: false,
};

/** Colour on [stdout, stderr]. */
const colours = (i: TerminalInputs) => {
  const caps = detectTerminal(i);
  return [caps.colorOut, caps.colorErr];
};

describe('detectTerminal', () => {
  it('allows prompts, spinner and colour on a full terminal', () => {
    expect(detectTerminal(tty)).toEqual({
      interactive: true,
      stderrIsTTY: true,
      stdoutIsTTY: true,
      colorOut: true,
      colorErr: true,
      spinner: true,
      ci: false,
      columns: 100,
    });
  });
  it('never prompts or spins under CI', () => {
    const caps = detectTerminal({ ...tty, env: { CI: 'true' } });
    expect(caps.interactive).toBe(false);
    expect(caps.spinner).toBe(false);
    expect(caps.ci).toBe(true);
    for (const CI of ['', '0', 'false', 'FALSE'])
      expect(detectTerminal({ ...tty, env: { CI } }).ci).toBe(false);
    expect(detectTerminal({ ...tty, env: { CI: '1' } }).interactive).toBe(false);
  });
  it('does not prompt when stdin is piped', () => {
    expect(detectTerminal({ ...tty, stdinIsTTY: false }).interactive).toBe(false);
  });
  it('NO_COLOR beats FORCE_COLOR, and --no-color beats both', () => {
    expect(colours({ ...tty, env: { NO_COLOR: '1', FORCE_COLOR: '1' } })).toEqual([false, false]);
    expect(colours({ ...tty, stderrIsTTY: false, env: { FORCE_COLOR: '1' } })).toEqual([true, true]);
    expect(colours({ ...tty, colorFlag: false, env: { FORCE_COLOR: '1' } })).toEqual([false, false]);
    expect(colours({ ...tty, stderrIsTTY: false })).toEqual([true, false]);
    expect(colours({ ...tty, env: { FORCE_COLOR: '0' } })).toEqual([false, false]);
    expect(colours({ ...tty, env: { TERM: 'dumb' } })).toEqual([false, false]);
  });
  it('never colours stdout on a pipe, whatever FORCE_COLOR says; stderr may still be', () => {
    expect(colours({ ...tty, stdoutIsTTY: false })).toEqual([false, true]);
    expect(colours({ ...tty, stdoutIsTTY: false, stderrIsTTY: false, env: { FORCE_COLOR: '1' } })).toEqual([
      false,
      true,
    ]);
  });
  it('reports the width of stdout only for a terminal that has one', () => {
    expect(detectTerminal({ ...tty, stdoutIsTTY: false }).columns).toBeUndefined();
    expect(detectTerminal({ ...tty, stdoutColumns: 0 }).columns).toBeUndefined();
    expect(detectTerminal({ ...tty, stdoutColumns: undefined }).columns).toBeUndefined();
  });
  it('no spinner on a terminal that reports no width (ora would clear lines forever)', () => {
    expect(detectTerminal({ ...tty, stderrColumns: 0 }).spinner).toBe(false);
    expect(detectTerminal({ ...tty, stderrColumns: undefined }).spinner).toBe(false);
  });
  it('--quiet stops the spinner', () => {
    expect(detectTerminal({ ...tty, quiet: true }).spinner).toBe(false);
  });
});

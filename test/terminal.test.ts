import { describe, expect, it } from 'vitest';
import { detectTerminal, type TerminalInputs } from '../src/output/terminal.js';

const tty: TerminalInputs = {
  env: {},
  stdinIsTTY: true,
  stdoutIsTTY: true,
  stderrIsTTY: true,
  stderrColumns: 80,
  colorFlag: true,
  quiet: false,
};

describe('detectTerminal', () => {
  it('allows prompts, spinner and colour on a full terminal', () => {
    expect(detectTerminal(tty)).toEqual({
      interactive: true,
      stderrIsTTY: true,
      stdoutIsTTY: true,
      color: true,
      spinner: true,
    });
  });
  it('never prompts or spins under CI', () => {
    const caps = detectTerminal({ ...tty, env: { CI: 'true' } });
    expect(caps.interactive).toBe(false);
    expect(caps.spinner).toBe(false);
  });
  it('does not prompt when stdin is piped', () => {
    expect(detectTerminal({ ...tty, stdinIsTTY: false }).interactive).toBe(false);
  });
  it('NO_COLOR beats FORCE_COLOR, and --no-color beats both', () => {
    expect(detectTerminal({ ...tty, env: { NO_COLOR: '1', FORCE_COLOR: '1' } }).color).toBe(false);
    expect(detectTerminal({ ...tty, stderrIsTTY: false, env: { FORCE_COLOR: '1' } }).color).toBe(true);
    expect(detectTerminal({ ...tty, colorFlag: false, env: { FORCE_COLOR: '1' } }).color).toBe(false);
    expect(detectTerminal({ ...tty, stderrIsTTY: false }).color).toBe(false);
  });
  it('no spinner on a terminal that reports no width (ora would clear lines forever)', () => {
    expect(detectTerminal({ ...tty, stderrColumns: 0 }).spinner).toBe(false);
    expect(detectTerminal({ ...tty, stderrColumns: undefined }).spinner).toBe(false);
  });
  it('--quiet stops the spinner', () => {
    expect(detectTerminal({ ...tty, quiet: true }).spinner).toBe(false);
  });
});

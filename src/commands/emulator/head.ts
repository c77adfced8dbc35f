// What `agents --help` lists of `agents emulator`; spec.ts makes the command from it.
import type { CommandHead } from '../options/command-spec.js';

export const emulatorHead: CommandHead = {
  name: 'emulator',
  synopsis: '[options]',
  description: 'serve the whole API on loopback with scripted agents: no account, no network',
};

// What bench/sdk.mjs needs from src/ (bundled by bench/bundle.mjs): the emulator, in the bench's process.
export { startEmulator } from '../../src/emulator/index.js';

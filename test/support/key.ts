// The one fake API key of the suite: the emulator's own development key, so the two always agree.
import { DEV_KEY } from '../../src/emulator/index.js';

export const KEY = DEV_KEY.key;

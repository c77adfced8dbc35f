// undici parses HTTP with llhttp compiled to WebAssembly. On Node 20, V8 tiers that module up with
// TurboFan, which costs about 35 MB of peak memory (a one-request process: 100 MB peak RSS instead of 65 MB).
// Liftoff's baseline code parses our few requests a minute just as well, so keep wasm there. The flag
// only affects WebAssembly compiled after this point, and must be set before undici's first connection.
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--liftoff-only');

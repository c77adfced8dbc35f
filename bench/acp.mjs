// `npm run bench:acp`: how soon `agents acp` answers an editor that has just started it: from the spawn to
// the answer of `initialize`, and to the answer of `session/new` (sent right after), beside a bare
// `node -e 0` and `agents --help` (bench/stdio-server.mjs). No service is needed: neither request sends
// anything (the key is a placeholder, never used). Options: --runs N (default 30), --warmup N (default 3).
import { benchStdioServer, frame } from './stdio-server.mjs';

await benchStdioServer({
  command: 'acp',
  names: ['initialize', 'session/new'],
  extraEnv: { AGENTS_BASE_URL: 'http://127.0.0.1:9', AGENTS_API_KEY: 'bench-placeholder-key' },
  first: frame({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'bench', version: '0' } },
  }),
  second: frame({ jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: '/', mcpServers: [] } }),
});

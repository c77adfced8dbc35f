// `npm run bench:mcp`: how soon `agents mcp` answers a client that has just started it: from the spawn to
// the answer of `initialize`, and to the answer of `tools/list` (sent right after `initialized`), beside a
// bare `node -e 0` and `agents --help` (bench/stdio-server.mjs). No key or service is needed: neither
// request sends anything. Options: --runs N (default 30), --warmup N (default 3).
import { benchStdioServer, frame } from './stdio-server.mjs';

await benchStdioServer({
  command: 'mcp',
  names: ['initialize', 'tools/list'],
  first: frame({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
  }),
  second:
    frame({ jsonrpc: '2.0', method: 'notifications/initialized' }) +
    frame({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
});

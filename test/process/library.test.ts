// The library as a program installs it: the packed tarball, unpacked into a consumer's node_modules. The slow
// tools run once each here, on one worker: API Extractor (the types rolled up into this run's build, and the
// API report held against the committed one), publint and Are the Types Wrong, and tsc once per module
// resolution (in one tsc --build) over a strict consumer and every code block of docs/sdk.md. Then the import itself: what it
// loads, what it leaves on the process, require() of it, and a child that waits on a reply ending by itself.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/run-cli.js';
import { BUILD, consumerOf, packBuild, run, type Ran } from '../support/library-package.js';
import { ownEmulator } from '../support/emulator.js';
import { KEY } from '../support/key.js';
import { redisSkipReason, startRedis } from '../support/redis.js';
import { titled } from '../support/tools.js';

/** Without redis-server the child's Redis half is left out (CI installs it: there a missing one fails). */
const redisSkip = redisSkipReason();

const scratch = mkdtempSync(join(tmpdir(), 'agents-library-'));
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
let report = '';
let pkg = { dir: '', tarball: '' };
let consumer = '';
/** The slow tools, started together once the package is made; each test awaits its own. */
let reference: Promise<Ran & { to: string }>;
let linted: Promise<[Ran, Ran]>;
let compiled: Promise<Ran>;

beforeAll(async () => {
  const types = await run(process.execPath, ['scripts/library-types.mjs', '--out', BUILD.dist], ROOT);
  if (types.code !== 0) throw new Error(`library types: ${types.stdout}${types.stderr}`);
  report = types.stdout.trim().split('\n').at(-1) ?? '';
  pkg = await packBuild(scratch);
  consumer = await consumerOf(pkg.tarball);
  const to = join(scratch, 'sdk-reference.md');
  reference = run(
    process.execPath,
    ['scripts/sdk-reference.mjs', '--out', BUILD.dist, '--to', to],
    ROOT,
  ).then((r) => ({ ...r, to }));
  // esm-only: the package is ES modules alone; a require() of it works on Node 22.12 and later (require of
  // an ES module, checked below), which attw's TypeScript does not model for CommonJS callers.
  linted = Promise.all([
    run(bin('publint'), ['run', pkg.dir, '--strict', '--pack', 'false'], pkg.dir),
    run(
      bin('attw'),
      [pkg.tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-emoji', '--no-color'],
      scratch,
    ),
  ]);
  compiled = compileConsumer();
}, 120_000);

// The consumer lives under .test-build (inside the checkout, for @types/node): removed with the run's scratch.
afterAll(() => {
  for (const dir of [consumer, scratch]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * Writes the consumer and the docs' blocks, one tsconfig per module resolution, and checks the three in one
 * `tsc --build`: its projects share the files they read and parse (@types/node, the package's types), so the
 * three cost 2.6 s of CPU where three tsc processes took 6.5 s; each project is still resolved and checked
 * under its own options, and --verbose names the project before its errors.
 */
function compileConsumer(): Promise<Ran> {
  const src = join(consumer, 'src');
  mkdirSync(src);
  writeFileSync(join(src, 'consumer.ts'), CONSUMER);
  docBlocks().forEach((block, i) => writeFileSync(join(src, `doc-${i + 1}.ts`), block));
  const configs = MODES.map(([module, resolution]) => {
    const config = join(consumer, `tsconfig.${resolution}.json`);
    writeFileSync(
      config,
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noUncheckedIndexedAccess: true,
          target: 'ES2022',
          lib: ['ES2023'],
          types: ['node'],
          module,
          moduleResolution: resolution,
          noEmit: true,
          // @types/node is not ours to check (it is most of tsc's time); dist/index.d.ts was checked by
          // API Extractor, and every use of it here is checked in full.
          skipLibCheck: true,
        },
        include: ['src'],
      }),
    );
    return config;
  });
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  // --force: every project is checked, whatever build info a run before left.
  return run(process.execPath, [tsc, '--build', '--force', '--verbose', ...configs], consumer);
}

/** The module resolutions a consumer may use, each with the `module` it goes with. */
const MODES = [
  ['node16', 'node16'],
  ['nodenext', 'nodenext'],
  ['esnext', 'bundler'],
] as const;

/** The ```ts blocks of docs/sdk.md and the README. */
function docBlocks(): string[] {
  return ['docs/sdk.md', 'README.md'].flatMap((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  });
}

/** A strict program that uses every method and reads every field a program would branch on. */
const CONSUMER = `import { Agents, AgentsError, SchemaMismatchError, TimeoutError, type Reply, type Turn } from 'agents-cli';

export async function everything(agents: Agents, signal: AbortSignal): Promise<string[]> {
  const turn: Turn = await agents.create({ agent: 'claude', message: 'hi', timeout: '5m', signal });
  const next = await agents.send(turn.sessionId, 'more', { outputSchema: { type: 'object' }, schemaRetries: 1 });
  const reply: Reply = await agents.wait(next, { timeout: 60_000 });
  const lines = [reply.text, ...reply.pullRequests.map((p) => p.url), String(reply.output)];
  for await (const m of agents.follow(turn, { tools: true })) lines.push(m.kind, m.text, m.tool?.name ?? '');
  for await (const r of agents.replies([turn, next.sessionId])) lines.push(r.ok ? r.reply.text : r.error.message);
  const view = await agents.show(turn.sessionId, { tools: true });
  lines.push(view.session.title, String(view.turns[0]?.messages.length), view.runningThreadId ?? '');
  lines.push((await agents.plan(turn.sessionId)).text, String((await agents.artifact(turn.sessionId, turn.threadId)).bytes.length));
  return lines;
}

export function branch(err: unknown): string {
  if (err instanceof TimeoutError) return \`\${err.sessionId ?? ''} \${err.threadId ?? ''} \${err.exitCode}\`;
  if (err instanceof SchemaMismatchError) return err.errors.map((e) => e.path).join() + err.attempts;
  if (err instanceof AgentsError) return \`\${err.exitCode} \${err.status ?? ''} \${err.hint ?? ''}\`;
  return '';
}

export const fromConfig: Promise<Agents> = Agents.fromConfig({ profile: 'work' });
`;

describe('the library, packed', () => {
  it('its API report is the committed api/agents-cli.api.md (npm run api writes it)', () => {
    expect(
      readFileSync(report, 'utf8'),
      'the public API changed: run `npm run api` and commit the report',
    ).toBe(readFileSync(join(ROOT, 'api', 'agents-cli.api.md'), 'utf8'));
  });

  it('docs/sdk-reference.md is what TypeDoc makes of the TSDoc (npm run docs writes it)', async () => {
    const made = await reference;
    expect(made.code, made.stdout + made.stderr).toBe(0);
    expect(readFileSync(made.to, 'utf8'), 'the reference is stale: run `npm run build && npm run docs`').toBe(
      readFileSync(join(ROOT, 'docs', 'sdk-reference.md'), 'utf8'),
    );
  });

  it('publint and Are the Types Wrong find nothing', async () => {
    const [lint, attw] = await linted;
    expect(lint.code, lint.stdout + lint.stderr).toBe(0);
    expect(lint.stdout).toContain('All good');
    expect(attw.code, attw.stdout + attw.stderr).toBe(0);
  });

  it('a strict TypeScript consumer and the code of docs/sdk.md compile under node16, nodenext and bundler', async () => {
    expect(readdirSync(join(consumer, 'src')).length).toBeGreaterThan(8);
    const ran = await compiled;
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    // tsc --build says which projects it checked: all three, none skipped as up to date.
    for (const [, resolution] of MODES)
      expect(ran.stdout).toContain(`Building project '${join(consumer, `tsconfig.${resolution}.json`)}'`);
  });

  it('import loads none of the CLI, leaves nothing on the process, and require() works', async () => {
    const probe = join(consumer, 'probe.mjs');
    writeFileSync(
      probe,
      `const before = process.listenerCount('SIGINT') + process.listenerCount('SIGTERM') + process.listenerCount('exit');
const files = [];
(await import('node:module')).registerHooks({ load(url, c, next) { if (url.startsWith('file:')) files.push(url); return next(url, c); } });
const lib = await import('agents-cli');
new lib.Agents({ apiKey: 'k', baseUrl: 'https://api.example.com' });
const after = process.listenerCount('SIGINT') + process.listenerCount('SIGTERM') + process.listenerCount('exit');
console.log(JSON.stringify({ files, listeners: after - before, exports: Object.keys(lib) }));
`,
    );
    const [imported, required] = await Promise.all([
      run(process.execPath, [probe], consumer),
      run(
        process.execPath,
        ['-e', "const m = require('agents-cli'); console.log(typeof m.Agents, typeof m.TimeoutError)"],
        consumer,
      ),
    ]);
    expect(imported.code, imported.stderr).toBe(0);
    const got = JSON.parse(imported.stdout) as { files: string[]; listeners: number; exports: string[] };
    expect(got.listeners).toBe(0);
    expect(got.exports).toContain('Agents');
    expect(imported.stderr).toBe('');
    // What went into each file the import read (esbuild's metafile of this run's build): no CLI code.
    const meta = JSON.parse(readFileSync(join(BUILD.work, 'library-meta.json'), 'utf8')) as {
      outputs: Record<string, { inputs: Record<string, unknown> }>;
    };
    const read = got.files.map((u) =>
      relative(join(consumer, 'node_modules', 'agents-cli', 'dist'), new URL(u).pathname),
    );
    expect(read).toContain('index.js');
    const inputs = Object.entries(meta.outputs)
      .filter(([out]) => read.some((r) => out.endsWith(`dist/${r}`)))
      .flatMap(([, o]) => Object.keys(o.inputs));
    expect(inputs.length).toBeGreaterThan(10);
    const cli = inputs.filter((p) =>
      /node_modules\/(commander|chalk|ora|@inquirer|marked|marked-terminal)\/|src\/(output|commands|program|cli\.ts)/.test(
        p,
      ),
    );
    expect(cli).toEqual([]);
    expect(required.code, required.stderr).toBe(0);
    expect(required.stdout.trim()).toBe('function function');
  });

  it(
    titled(
      'a child that waits on a reply ends by itself once it has it, its budget in a file or in Redis',
      redisSkip,
    ),
    async () => {
      const [em, redis] = await Promise.all([ownEmulator(), redisSkip ? undefined : startRedis()]);
      try {
        const script = join(consumer, 'wait.mjs');
        writeFileSync(
          script,
          `import { Agents } from 'agents-cli';
const [url, key, dir, redis] = process.argv.slice(2);
const agents = new Agents({ apiKey: key, baseUrl: url, budget: { dir, ...(redis ? { url: redis } : {}) } });
const turn = await agents.create({ agent: 'claude', message: '[[reply:done]]' });
console.log((await agents.wait(turn)).text);
`,
        );
        // No process.exit in the script: it ends when nothing is left on the event loop (no timer, socket,
        // file or Redis connection held). A hang is the guard's kill (code null), not 0.
        const stores = [
          [join(scratch, 'budget')],
          ...(redis ? [[join(scratch, 'budget-r'), redis.url]] : []),
        ];
        const runs = await Promise.all(
          stores.map((args) => run(process.execPath, [script, em.url, KEY, ...args], consumer, 60_000)),
        );
        expect(runs).toHaveLength(redisSkip ? 1 : 2);
        for (const r of runs)
          expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({
            code: 0,
            stdout: 'done\n',
            stderr: '',
          });
      } finally {
        await Promise.all([em.close(), redis?.stop()]);
      }
    },
  );
});

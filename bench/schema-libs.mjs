// What a schema library costs on the path every request takes: each candidate's Session, Message and
// message-page schemas (the checks src/core/api/answers.ts made by hand before src/core/api/schemas/), bundled as the
// CLI is (esbuild, `shipped`), then in fresh Node processes, interleaved: the time to import the bundle,
// to check one Session and a page of 100 messages the first time (V8 compiling the checker), and the
// bundle's bytes. Candidates that are not installed are skipped with the command that installs them (only
// the chosen one is a devDependency): `npm install --no-save @sinclair/typebox` to measure TypeBox too.
// `node bench/schema-libs.mjs [--runs N]`; figures and the choice in bench/README.md.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { shipped } from '../scripts/esbuild-options.mjs';
import { root } from './bundle.mjs';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg === -1 ? 31 : Number(process.argv[runsArg + 1]);
const UUID = '/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i';

// Each candidate: the package it needs, and a module exporting check(session, page) that throws on a refusal.
const CANDIDATES = {
  // What ships: the records' modules, their wording and the HttpError they throw (src/core/api/schemas/).
  'src/core/api/schemas (valibot)': {
    pkg: 'valibot',
    source: `
      import { asSession, asMessagePage } from ${JSON.stringify(join(root, 'src/core/api/schemas/index.ts'))};
      export function check(s, p) { asSession(s); asMessagePage(p, s.id); }`,
  },
  valibot: {
    pkg: 'valibot',
    source: `
      import * as v from 'valibot';
      const uuid = v.pipe(v.string(), v.regex(${UUID}));
      const opaque = v.pipe(v.string(), v.minLength(1), v.maxLength(200));
      const text = v.nullish(v.string());
      const Session = v.looseObject({ id: uuid, title: text, session_html_url: text,
        thread_id: v.optional(v.nullable(uuid)), plan_artifact_ids: v.nullish(v.array(uuid)) });
      const Message = v.looseObject({ id: opaque, task_id: v.nullish(opaque), chat_id: v.optional(uuid),
        chat_thread_id: v.nullish(uuid), message: v.string() });
      const Page = v.looseObject({ items: v.array(Message),
        meta: v.looseObject({ total: v.number(), total_pages: v.number() }) });
      export function check(s, p) { v.parse(Session, s); v.parse(Page, p); }`,
  },
  'zod/mini': {
    pkg: 'zod',
    source: `
      import * as z from 'zod/mini';
      const uuid = z.string().check(z.regex(${UUID}));
      const opaque = z.string().check(z.minLength(1), z.maxLength(200));
      const text = z.nullish(z.string());
      const Session = z.looseObject({ id: uuid, title: text, session_html_url: text,
        thread_id: z.optional(z.nullable(uuid)), plan_artifact_ids: z.nullish(z.array(uuid)) });
      const Message = z.looseObject({ id: opaque, task_id: z.nullish(opaque), chat_id: z.optional(uuid),
        chat_thread_id: z.nullish(uuid), message: z.string() });
      const Page = z.looseObject({ items: z.array(Message),
        meta: z.looseObject({ total: z.number(), total_pages: z.number() }) });
      export function check(s, p) { Session.parse(s); Page.parse(p); }`,
  },
  ...Object.fromEntries(
    [
      ['TypeBox Value.Check', 'Value.Check(Session, s) && Value.Check(Page, p)'],
      ['TypeBox compiled', 'CS.Check(s) && CP.Check(p)'],
    ].map(([name, body]) => [
      name,
      {
        pkg: '@sinclair/typebox',
        source: `
          import { Type as T } from '@sinclair/typebox';
          import { Value } from '@sinclair/typebox/value';
          import { TypeCompiler } from '@sinclair/typebox/compiler';
          const uuid = T.String({ pattern: ${JSON.stringify(UUID.slice(1, -2))} });
          const opaque = T.String({ minLength: 1, maxLength: 200 });
          const text = T.Optional(T.Union([T.String(), T.Null()]));
          const Session = T.Object({ id: uuid, title: text, session_html_url: text,
            thread_id: T.Optional(T.Union([uuid, T.Null()])), plan_artifact_ids: T.Optional(T.Union([T.Array(uuid), T.Null()])) });
          const Message = T.Object({ id: opaque, task_id: T.Optional(T.Union([opaque, T.Null()])),
            chat_id: T.Optional(uuid), chat_thread_id: T.Optional(T.Union([uuid, T.Null()])), message: T.String() });
          const Page = T.Object({ items: T.Array(Message), meta: T.Object({ total: T.Number(), total_pages: T.Number() }) });
          let CS, CP;
          export function check(s, p) {
            ${name.includes('compiled') ? 'CS ??= TypeCompiler.Compile(Session); CP ??= TypeCompiler.Compile(Page);' : ''}
            if (!(${body})) throw new Error('refused');
          }`,
      },
    ]),
  ),
};

// Read from node_modules directly: not every package exports its package.json.
const manifest = (pkg) => join(root, 'node_modules', pkg, 'package.json');
const installed = (pkg) => pkg === undefined || existsSync(manifest(pkg));
const versionOf = (pkg) => (pkg ? JSON.parse(readFileSync(manifest(pkg), 'utf8')).version : '');

const cache = join(root, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const out = mkdtempSync(join(cache, 'bench-schema-libs-'));
process.on('exit', () => rmSync(out, { recursive: true, force: true }));

// The records checked: a live-service Session and a page of 100 messages, as the emulator answers.
const sid = '6f1c2a0e-8b7d-4c3e-9a51-0d2e4f6a8b9c';
const session = {
  id: sid,
  title: 'Fix the flaky test',
  pull_requests: [{ url: 'https://github.com/o/r/pull/1', status: 'open' }],
  source_url: null,
  is_archived: false,
  is_private: false,
  created_at: '2026-11-25T00:00:00.000Z',
  updated_at: '2026-11-25T00:00:00.000Z',
  thread_id: null,
  session_html_url: `https://app.invalid/app/w/sessions/${sid}`,
  _links: { self: { href: 'x' }, messages: { href: 'y' }, thread: null, final_message: null },
  plan_artifact_ids: [],
  session_group_id: null,
};
const page = {
  items: Array.from({ length: 100 }, (_, i) => ({
    id: `7a1c2a0e-8b7d-4c3e-9a51-0d2e4f6a8${String(i).padStart(3, '0')}`,
    chat_id: sid,
    chat_thread_id: '8b1c2a0e-8b7d-4c3e-9a51-0d2e4f6a8b9c',
    task_id: 'task-1',
    role: 'assistant',
    type: 'message',
    message: `step ${i} `.repeat(20),
    ts: 1764000000 + i,
    created_at: '2026-11-25T00:00:00.000Z',
    updated_at: '2026-11-25T00:00:00.000Z',
  })),
  meta: { total: 100, page: 1, limit: 100, total_pages: 1 },
};
writeFileSync(join(out, 'records.json'), JSON.stringify({ session, page }));
// One run: the import, then the first check and a second (warm) one, in ms.
const runner = join(out, 'run.mjs');
writeFileSync(
  runner,
  `const { session, page } = JSON.parse((await import('node:fs')).readFileSync(${JSON.stringify(join(out, 'records.json'))}, 'utf8'));
   const t0 = performance.now();
   const m = await import(process.argv[2]);
   const t1 = performance.now();
   m.check(session, page);
   const t2 = performance.now();
   m.check(session, page);
   const t3 = performance.now();
   console.log(JSON.stringify({ load: t1 - t0, first: t2 - t1, warm: t3 - t2 }));`,
);

const measured = [];
for (const [name, c] of Object.entries(CANDIDATES)) {
  if (!installed(c.pkg)) {
    console.log(`${name}: not installed (npm install --no-save ${c.pkg}); skipped`);
    continue;
  }
  const file = join(out, `${measured.length}.mjs`);
  await build({
    ...shipped,
    stdin: { contents: c.source, resolveDir: root, loader: 'ts' },
    outfile: file,
    nodePaths: [join(root, 'node_modules')],
  });
  const bytes = statSync(file).size;
  measured.push({
    name,
    version: versionOf(c.pkg),
    file,
    bytes,
    gzip: gzipSync(readFileSync(file)).length,
    runs: [],
  });
}
// Interleaved rounds, so that what else the machine does falls on every candidate alike.
for (let i = 0; i < RUNS; i++) {
  for (const m of measured) {
    m.runs.push(JSON.parse(execFileSync(process.execPath, [runner, m.file], { encoding: 'utf8' })));
  }
}
const median = (xs) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => x.toFixed(2).padStart(6);
console.log(`Node ${process.version}, ${RUNS} runs each, medians (ms)`);
console.log('| candidate | bytes (gzip) | import | first check | import + first | warm check |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const m of measured) {
  const load = median(m.runs.map((r) => r.load));
  const first = median(m.runs.map((r) => r.first));
  const both = median(m.runs.map((r) => r.load + r.first));
  const warm = median(m.runs.map((r) => r.warm));
  const label = m.version ? `${m.name} ${m.version}` : m.name;
  console.log(
    `| ${label} | ${m.bytes} (${m.gzip}) | ${ms(load)} | ${ms(first)} | ${ms(both)} | ${ms(warm)} |`,
  );
}

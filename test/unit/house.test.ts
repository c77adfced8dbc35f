// The house's rules, read from the code: file and function sizes, the eight folders of src/ and what sits in
// src/cli/commands, which layer may import which, no import cycles, and the load rule (what a command's first
// file may import statically, where `import()` may be: docs/architecture.md's "Loading"). A rule broken here is a review comment
// the next change would otherwise have to hear.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

const files = walk(SRC);
const rel = (p: string) => relative(SRC, p);
/** The shell text the completion generators return is one long string by nature. */
const EXEMPT = new Set(['cli/completion/bash.ts', 'cli/completion/zsh.ts', 'cli/completion/fish.ts']);

/** Every function-like node of a file with its line count. */
function functions(file: string): { name: string; lines: number }[] {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
      out.push({ name: `${rel(file)}:${start + 1} ${name}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The src/ files a file imports (relative specifiers, static and dynamic), resolved to .ts paths. */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return specs.map((s) => resolve(dirname(file), s).replace(/\.js$/, '.ts'));
}

/** An import of a file: its target (a src/ path, or a package or Node module by name) and how it loads. */
interface Edge {
  target: string;
  kind: 'static' | 'type' | 'lazy';
}

/** Every import of `file`, from its syntax: `import type` and imports of types alone are 'type'. */
function edges(file: string): Edge[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const target = (spec: string) =>
    spec.startsWith('.') ? resolve(dirname(file), spec).replace(/\.js$/, '.ts') : spec;
  const out: Edge[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      const c = n.importClause;
      const named = c?.namedBindings;
      const typesAlone =
        c !== undefined &&
        (c.isTypeOnly ||
          (c.name === undefined &&
            named !== undefined &&
            ts.isNamedImports(named) &&
            named.elements.every((e) => e.isTypeOnly)));
      out.push({ target: target(n.moduleSpecifier.text), kind: typesAlone ? 'type' : 'static' });
    } else if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
      out.push({ target: target(n.moduleSpecifier.text), kind: n.isTypeOnly ? 'type' : 'static' });
    } else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [spec] = n.arguments;
      out.push({ target: spec && ts.isStringLiteral(spec) ? target(spec.text) : '(computed)', kind: 'lazy' });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

const isNodeModule = (name: string) => name.startsWith('node:');

/** The core's one door for the faces, and the library's public entry. */
const CORE_DOOR = join(SRC, 'core', 'index.ts');
const SDK_DOOR = join(SRC, 'sdk', 'index.ts');

/** The names `file` imports or re-exports from `target`; `values`: those that load code (no types). */
function namesFrom(file: string, target: string, values = false): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  return sf.statements.flatMap((n) => {
    const decl = ts.isImportDeclaration(n) || ts.isExportDeclaration(n) ? n : undefined;
    if (decl?.moduleSpecifier === undefined || !ts.isStringLiteral(decl.moduleSpecifier)) return [];
    if (resolve(dirname(file), decl.moduleSpecifier.text).replace(/\.js$/, '.ts') !== target) return [];
    const typeOnly = ts.isImportDeclaration(decl) ? decl.importClause?.isTypeOnly : decl.isTypeOnly;
    if (values && typeOnly) return [];
    const named = ts.isImportDeclaration(decl) ? decl.importClause?.namedBindings : decl.exportClause;
    if (named === undefined || !(ts.isNamedImports(named) || ts.isNamedExports(named))) return ['(all)'];
    return named.elements
      .filter((e) => !(values && e.isTypeOnly))
      .map((e) => (e.propertyName ?? e.name).text);
  });
}

/**
 * The files behind the names `file` imports through the core's door (the door lists every name, and the
 * build leaves out a core module none of whose names is used: scripts/esbuild-options.mjs). `values`: only
 * the names that load code.
 */
function throughDoor(file: string, values = false): string[] {
  const sf = ts.createSourceFile(CORE_DOOR, readFileSync(CORE_DOOR, 'utf8'), ts.ScriptTarget.Latest, true);
  const from = new Map<string, string>();
  for (const n of sf.statements) {
    if (!ts.isExportDeclaration(n) || !n.moduleSpecifier || !ts.isStringLiteral(n.moduleSpecifier)) continue;
    const at = resolve(dirname(CORE_DOOR), n.moduleSpecifier.text).replace(/\.js$/, '.ts');
    if (n.exportClause && ts.isNamedExports(n.exportClause))
      for (const e of n.exportClause.elements) from.set(e.name.text, at);
  }
  return namesFrom(file, CORE_DOOR, values).map((name) => from.get(name) ?? `${CORE_DOOR} (${name})`);
}

describe('the house', () => {
  it('has no file under src/ over 400 lines', () => {
    const long = files
      .filter((f) => !EXEMPT.has(rel(f)))
      .map((f) => ({ f: rel(f), n: readFileSync(f, 'utf8').split('\n').length }))
      .filter((x) => x.n > 400);
    expect(long).toEqual([]);
  });

  it('has no function under src/ over 100 lines', () => {
    const long = files
      .filter((f) => !EXEMPT.has(rel(f)))
      .flatMap(functions)
      .filter((x) => x.lines > 100);
    expect(long).toEqual([]);
  });

  it('keeps eight folders and no file at the root of src/, and only folders in src/cli/commands', () => {
    // The wings of docs/architecture.md: the faces (cli, action, mcp, acp), the library (sdk), the core that
    // talks to the service, the emulator, and the leaves (util).
    const root = readdirSync(SRC);
    expect(root.filter((n) => statSync(join(SRC, n)).isFile())).toEqual([]);
    expect(root.sort()).toEqual(['acp', 'action', 'cli', 'core', 'emulator', 'mcp', 'sdk', 'util']);
    const loose = readdirSync(join(SRC, 'cli', 'commands')).filter((n) =>
      statSync(join(SRC, 'cli', 'commands', n)).isFile(),
    );
    expect(loose).toEqual([]);
  });

  it('lets the core know no face: nothing in src/core imports src/cli, src/sdk, src/action, src/mcp, src/acp or src/emulator, and src/util imports nothing above it (issue 47)', () => {
    // The core takes plain options (core/sessions/session-work.ts) and reports through events; each face
    // adapts to it. Type imports count: a type of a face's is that face's vocabulary in the core.
    const above = (from: string, to: string) =>
      (from.startsWith('core/') && /^(cli|sdk|action|mcp|acp|emulator)\//.test(to)) ||
      (from.startsWith('util/') && !to.startsWith('util/'));
    const bad = files.flatMap((f) =>
      imports(f)
        .filter((t) => above(rel(f), rel(t)))
        .map((t) => `${rel(f)} -> ${rel(t)}`),
    );
    expect(bad).toEqual([]);
  });

  it('lets nothing in src/core/sessions import from src/cli/output, nor the client path import the emulator', () => {
    const bad = files.flatMap((f) =>
      imports(f)
        .filter((t) => {
          const from = rel(f);
          const to = rel(t);
          if (from.startsWith('core/sessions/') && to.startsWith('cli/output/')) return true;
          return (
            !from.startsWith('emulator/') &&
            !from.startsWith('cli/commands/emulator/') &&
            to.startsWith('emulator/')
          );
        })
        .map((t) => `${rel(f)} -> ${rel(t)}`),
    );
    expect(bad).toEqual([]);
  });

  it("lets the Action reach the service only through the library's public entry (issue 37)", () => {
    // Everything the Action's files reach, not going through src/sdk/index.ts: none of it may be the HTTP
    // client, the session work, the CLI's program, or the library's insides.
    // Through the core's door (src/core/index.ts), only the files that export the names the Action imports.
    const entry = join(SRC, 'sdk', 'index.ts');
    const seen = new Set<string>();
    const todo = files.filter((f) => rel(f).startsWith('action/'));
    while (todo.length > 0) {
      const f = todo.pop()!;
      if (seen.has(f)) continue;
      seen.add(f);
      for (const t of imports(f)) {
        if (t === CORE_DOOR) todo.push(...throughDoor(f));
        else if (t !== entry && files.includes(t)) todo.push(t);
      }
    }
    const banned =
      /^(cli\/(main\.ts|program\/|commands\/|run\/|chat\/)|mcp\/|acp\/|core\/sessions\/|sdk\/|core\/poll\/follow|core\/api\/(client|exchange|response|plain-http|undici-http)|core\/budget\/(shared|redis-store|file-store))/;
    expect([...seen].map(rel).filter((r) => banned.test(r))).toEqual([]);
    expect(imports(join(SRC, 'action', 'turn.ts'))).toContain(entry);
  });

  it('lets every face (the CLI and chat, the Action, `agents mcp`, `agents acp`) reach the core and the library only through their doors (issue 47)', () => {
    // A face (the CLI and chat among them) imports src/core through src/core/index.ts alone and src/sdk
    // through src/sdk/index.ts alone; the Action, mcp and acp take nothing of the CLI. The run hosting mcp
    // and acp is given as the core's Host (src/core/sessions/host.ts), which the CLI adapts its run to
    // (cli/run/host.ts).
    const past = (from: string, to: string) =>
      (to.startsWith('core/') && to !== rel(CORE_DOOR)) ||
      (to.startsWith('sdk/') && to !== rel(SDK_DOOR)) ||
      (/^(action|mcp|acp)\//.test(from) && to.startsWith('cli/'));
    const bad = files
      .filter((f) => /^(action|mcp|acp|cli)\//.test(rel(f)))
      .flatMap((f) =>
        imports(f)
          .filter((t) => past(rel(f), rel(t)))
          .map((t) => `${rel(f)} -> ${rel(t)}`),
      );
    expect(bad).toEqual([]);
  });

  it('imports only downwards, from layer to layer as docs/architecture.md draws them', () => {
    // Top to bottom; a folder imports its own files and any folder on a lower line.
    const LAYERS = [
      ['action'],
      ['cli/main.ts', 'cli/help.ts'],
      ['cli/program'],
      ['cli/commands'],
      ['cli/chat', 'mcp', 'acp'],
      // The CLI's run as the host of `agents mcp` and `agents acp`, over the library's entry.
      ['cli/run/host.ts'],
      ['sdk'],
      ['cli/input'],
      ['cli/run'],
      // The presenter knows no command: a command's own items and how they print are in its folder.
      ['cli/output'],
      ['cli/completion', 'cli/git', 'cli/types'],
      // The core, below every layer of the CLI: it knows no face.
      // The core's door for the faces (src/core/index.ts), over every part of the core it names.
      ['core/index.ts'],
      ['core/sessions'],
      ['core/state'],
      ['core/config'],
      ['core/io'],
      ['core/events', 'core/poll'],
      ['core/conversation', 'core/errors', 'emulator'],
      ['core/api'],
      ['core/budget'],
      ['util'],
    ];
    // A file's layer: the most specific entry that names it or a folder above it.
    const entries = LAYERS.flatMap((l, i) => l.map((name) => ({ name, i })));
    entries.sort((a, b) => b.name.length - a.name.length);
    const layerOf = (file: string) => {
      const r = rel(file);
      const hit = entries.find((e) => r === e.name || r.startsWith(`${e.name}/`));
      expect(hit, `${r} is in no layer`).toBeDefined();
      return { top: hit!.name, i: hit!.i };
    };
    const up = files.flatMap((f) =>
      imports(f)
        .filter((t) => files.includes(t))
        .filter((t) => {
          const [a, b] = [layerOf(f), layerOf(t)];
          return a.top !== b.top && b.i <= a.i;
        })
        .map((t) => `${rel(f)} -> ${rel(t)}`),
    );
    expect(up).toEqual([]);
  });

  it('has no import cycle between files', () => {
    const graph = new Map(files.map((f) => [f, imports(f).filter((t) => files.includes(t))]));
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (f: string, path: string[]): void => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        cycles.push([...path.slice(path.indexOf(f)), f].map(rel).join(' -> '));
        return;
      }
      state.set(f, 'open');
      for (const t of graph.get(f) ?? []) visit(t, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of files) visit(f, []);
    expect(cycles).toEqual([]);
  });

  it("loads by the rule: a command's first file imports only what parses a command line, and import() is at the doors alone", () => {
    // What the first file (cli/main.ts, which builds the program from every command's spec.ts) reaches by
    // static imports: every command line, a usage error included, loads all of it.
    const FIRST_FILE_MAY =
      /^(commander$|node:|cli\/program\/|cli\/commands\/[^/]+\/(?!run\.ts$)[^/]+\.ts$|cli\/input\/|core\/errors\/|core\/config\/(env|validators|notify-setting)\.ts$|emulator\/directive-table\.ts$|core\/io\/|util\/|core\/state\/(known-sessions|history)\.ts$|core\/api\/(types|errors|summary|schemas\/message-kinds)\.ts$|core\/sessions\/(output-schema|structured-output|refs)\.ts$)/;
    const reached = new Set<string>();
    const todo = [join(SRC, 'cli', 'main.ts')];
    while (todo.length > 0) {
      const f = todo.pop()!;
      if (reached.has(f)) continue;
      reached.add(f);
      if (!files.includes(f)) continue;
      for (const e of edges(f))
        if (e.kind === 'static') todo.push(...(e.target === CORE_DOOR ? throughDoor(f, true) : [e.target]));
    }
    const name = (t: string) => (files.includes(t) ? rel(t) : t);
    expect([...reached].map(name).filter((t) => t !== 'cli/main.ts' && !FIRST_FILE_MAY.test(t))).toEqual([]);
    // Where import() may be: a command's spec.ts loading its run.ts, cli.ts loading the run
    // (run/run-command.ts), a library (a package: loaded where it is used, by the run that uses it), and
    // undici's wire (api/undici-http.ts, for a proxy or a caller's dispatcher). Anything else, and Node's
    // own modules, is a static import.
    const door = (from: string, to: string) =>
      (/^cli\/commands\/[^/]+\/spec\.ts$/.test(from) && to === from.replace(/spec\.ts$/, 'run.ts')) ||
      (from === 'cli/main.ts' && to === 'cli/run/run-command.ts') ||
      to === 'core/api/undici-http.ts';
    const stray = files.flatMap((f) =>
      edges(f)
        .filter((e) => e.kind === 'lazy')
        .filter((e) =>
          files.includes(e.target)
            ? !door(rel(f), rel(e.target))
            : e.target.startsWith('/') || e.target === '(computed)' || isNodeModule(e.target),
        )
        .map((e) => `${rel(f)} -> ${name(e.target)}`),
    );
    expect(stray).toEqual([]);
  });
});

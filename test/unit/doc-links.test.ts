// Every relative link and #anchor in the README and docs/ leads somewhere: the file exists, and the anchor
// is a heading of the page it points into (GitHub's slugs) or an <a id>/<a name> in it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Lexer, marked, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** The pages checked: the README, CONTRIBUTING, bench/README.md and every page under docs/. */
function pages(): string[] {
  const docs = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? docs(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
    );
  const top = ['README.md', 'CONTRIBUTING.md', 'bench/README.md'].map((f) => join(ROOT, f));
  return [...top.filter((f) => existsSync(f)), ...docs(join(ROOT, 'docs'))];
}

/** A heading's text as GitHub shows it: code spans, links and emphasis reduced to their words. */
function plain(tokens: Token[] = []): string {
  return tokens
    .map((t) => ('tokens' in t && t.tokens ? plain(t.tokens) : 'text' in t ? String(t.text) : ''))
    .join('');
}

/** GitHub's anchor for a heading (github-slugger): lower case, punctuation but - and _ gone, spaces to -. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

interface Page {
  anchors: Set<string>;
  links: string[];
}

const parsed = new Map<string, Page>();

/** A page's anchors (a repeated heading gets -1, -2, … as on GitHub) and the targets of its links. */
function parse(file: string): Page {
  let page = parsed.get(file);
  if (page) return page;
  const tokens = new Lexer().lex(readFileSync(file, 'utf8'));
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const links: string[] = [];
  void marked.walkTokens(tokens, (t) => {
    if (t.type === 'heading') {
      const base = slug(plain((t as Tokens.Heading).tokens));
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    } else if (t.type === 'link' || t.type === 'image') {
      links.push((t as Tokens.Link).href);
    } else if (t.type === 'html') {
      for (const m of (t as Tokens.HTML).text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
    }
  });
  page = { anchors, links };
  parsed.set(file, page);
  return page;
}

/** What is wrong with one link of `file`, or undefined when it leads somewhere. */
function broken(file: string, href: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return undefined; // not relative
  const [path = '', hash] = href.split('#', 2) as [string, string | undefined];
  const target = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
  if (!existsSync(target)) return `${href}: no such file`;
  if (hash === undefined) return undefined;
  if (statSync(target).isDirectory() || !target.endsWith('.md')) return `${href}: an anchor into a non-page`;
  return parse(target).anchors.has(decodeURIComponent(hash)) ? undefined : `${href}: no such anchor`;
}

describe('links in the README and docs/', () => {
  it('GitHub slugs: punctuation gone, spaces and case as GitHub makes them', () => {
    expect(slug('`agents plan` and `agents artifact`')).toBe('agents-plan-and-agents-artifact');
    expect(slug('The service: Blocks as it answers today')).toBe('the-service-blocks-as-it-answers-today');
    expect(slug('Login, logout and config')).toBe('login-logout-and-config');
    expect(slug('AGENTS_BUDGET_URL, a fleet')).toBe('agents_budget_url-a-fleet');
  });

  it('every relative link and anchor leads to a file and a heading that exist', () => {
    const files = pages();
    expect(files.map((f) => relative(ROOT, f))).toContain('README.md');
    const problems = files.flatMap((file) =>
      parse(file)
        .links.map((href) => broken(file, href))
        .filter((p) => p !== undefined)
        .map((p) => `${relative(ROOT, file)}: ${p}`),
    );
    expect(problems).toEqual([]);
  });
});

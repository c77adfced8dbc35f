// Bad input, table-driven: every command and every option given a wrong value, a missing one, or one that
// conflicts with another. Each row runs the program in-process (runMain) against its own emulator on a real
// socket and must end with exit 2, exactly one `error:` line on stderr (plus at most one `hint:` line),
// nothing on stdout, and no request having reached the emulator: a usage error is found before anything is
// sent. Inputs that are valid by design (session addresses of other shapes, a broken config file that no
// setting is read from) are checked the other way round further down: they must reach the emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { cliEnv, type CliResult } from '../../support/run-cli.js';
import { runMain } from '../../support/main.js';
import { KEY } from '../../support/key.js';
import { ownEmulator } from '../../support/emulator.js';

const U = '0b5e8f3c-1d2a-4c3b-9e8f-7a6b5c4d3e2f';

// Files the rows point at, made once in beforeAll.
const DIR = mkdtempSync(join(tmpdir(), 'agents-badinput-'));
const F = {
  dir: join(DIR, 'a-directory'),
  missing: join(DIR, 'missing.txt'),
  loop: join(DIR, 'loop'), // a symlink to itself: ELOOP, unreadable even for root
  notDir: join(DIR, 'message.txt', 'child'), // ENOTDIR
  message: join(DIR, 'message.txt'),
  empty: join(DIR, 'empty.txt'),
  blank: join(DIR, 'blank.txt'),
  notJson: join(DIR, 'not.json'),
  truncatedJson: join(DIR, 'truncated.json'),
  array: join(DIR, 'array.json'),
  string: join(DIR, 'string.json'),
  nullJson: join(DIR, 'null.json'),
  emptyObject: join(DIR, 'empty-object.json'),
  unknownField: join(DIR, 'unknown-field.json'),
  idNumber: join(DIR, 'id-number.json'),
  idNotUuid: join(DIR, 'id-not-uuid.json'),
  configValuesArray: join(DIR, 'config-values-array.json'),
  mcpObject: join(DIR, 'mcp-object.json'),
  strategyNumber: join(DIR, 'strategy-number.json'),
  emptyJsonFile: join(DIR, 'empty.json'),
};

beforeAll(() => {
  mkdirSync(F.dir);
  symlinkSync(F.loop, F.loop);
  writeFileSync(F.message, 'a perfectly good message');
  writeFileSync(F.empty, '');
  writeFileSync(F.blank, ' \n\t \r\n  ');
  writeFileSync(F.notJson, 'id: nope');
  writeFileSync(F.truncatedJson, '{"id": "');
  writeFileSync(F.array, '[]');
  writeFileSync(F.string, '"claude"');
  writeFileSync(F.nullJson, 'null');
  writeFileSync(F.emptyObject, '{}');
  writeFileSync(F.unknownField, JSON.stringify({ id: U, agent: 'claude' }));
  writeFileSync(F.idNumber, JSON.stringify({ id: 5 }));
  writeFileSync(F.idNotUuid, JSON.stringify({ id: 'profile-1' }));
  writeFileSync(F.configValuesArray, JSON.stringify({ config_values: [1, 2] }));
  writeFileSync(F.mcpObject, JSON.stringify({ mcp_servers: { a: 1 } }));
  writeFileSync(F.strategyNumber, JSON.stringify({ config_merge_strategy: 3 }));
  writeFileSync(F.emptyJsonFile, '');
});
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

interface Row {
  /** Command under test (for the per-command figures). */
  cmd: string;
  /** What is wrong, for the test name. */
  why: string;
  args: string[];
  /** The error line must match this: the row fails for the reason it names, not another. */
  error: RegExp;
  /** Written to stdin, then closed (default: closed with nothing written). */
  input?: string;
  /** Extra environment (on top of AGENTS_BASE_URL and AGENTS_API_KEY pointing at the emulator). */
  env?: NodeJS.ProcessEnv;
  /** Contents of config.json in the row's config dir. */
  config?: string;
  /** The error line must name the row's config file by its full path. */
  namesConfigFile?: boolean;
}

const rows: Row[] = [];
const add = (cmd: string, why: string, args: string[], error: RegExp, more: Partial<Row> = {}) =>
  rows.push({ cmd, why, args, error, ...more });

// ── Values that are wrong the same way wherever they appear ──
const BAD_UUIDS: [string, string][] = [
  ['a word', 'nope'],
  ['empty', ''],
  ['one digit short', U.slice(0, 35)],
  ['one digit long', `${U}0`],
  ['braces', `{${U}}`],
  ['urn form', `urn:uuid:${U}`],
  ['no dashes', U.replaceAll('-', '')],
  ['non-hex digit', `g${U.slice(1)}`],
];
const BAD_SESSION_REFS: [string, string][] = [
  ...BAD_UUIDS,
  ['whitespace only', '   '],
  ['LAST in capitals', 'LAST'],
  ['latest', 'latest'],
  ['trailing slash on a UUID', `${U}/`],
  ['dashboard address with no UUID', 'https://agents.example.com/app/sessions/not-a-uuid'],
  ['dashboard address over ftp', `ftp://agents.example.com/app/sessions/${U}`],
  ['dashboard path without a host', `/app/sessions/${U}`],
  ['dashboard address with no session segment', `https://agents.example.com/app/${U}`],
  ['address with "session" for "sessions"', `https://agents.example.com/app/session/${U}`],
];
// Valid by design: any http(s) address whose path holds /sessions/<uuid>. These were rows above once
// ('address without /app', 'address below the session'); now each must reach the emulator (see the end).
const ACCEPTED_SESSION_REFS: [string, (id: string) => string][] = [
  ['address without /app', (id) => `https://agents.example.com/sessions/${id}`],
  ['address below the session', (id) => `https://agents.example.com/app/sessions/${id}/messages`],
  ['dashboard address', (id) => `https://agents.example.com/app/sessions/${id}`],
  ['dashboard address with a workspace', (id) => `https://agents.example.com/app/my-team/sessions/${id}`],
  ['API address', (id) => `http://127.0.0.1:9/rest/v1/sessions/${id}`],
  ['UUID in capitals', (id) => id.toUpperCase()],
];
const BAD_DURATIONS: [string, string][] = [
  ['empty', ''],
  ['zero', '0'],
  ['zero seconds', '0s'],
  ['negative', '-1'],
  ['unknown unit', '1x'],
  ['exponent', '1e3'],
  ['trailing bare number', '10m5'],
  ['space inside', '5 m'],
  ['unit alone', 'm'],
  ['a word', 'soon'],
  ['over 7 days', '8d'],
  ['huge', '99999999999999999999999'],
  ['Infinity', 'Infinity'],
];
const BAD_COUNTS: [string, string][] = [
  ['negative', '-1'],
  ['fraction', '1.5'],
  ['a word', 'abc'],
  ['exponent', '1e9'],
  ['empty', ''],
  ['hex', '0x10'],
];
const BAD_BASE_URLS: [string, string, RegExp][] = [
  ['relative path', '/api', /not a valid URL/],
  ['host without scheme', 'agents.example.com', /not a valid URL|absolute/],
  ['ftp', 'ftp://agents.example.com', /http:\/\/ or https:\/\//],
  ['file', 'file:///etc/passwd', /http:\/\/ or https:\/\//],
  ['credentials', 'https://user:secret@agents.example.com', /user name or password/],
  ['query', 'https://agents.example.com/?workspace=1', /query/],
  ['fragment', 'https://agents.example.com/#top', /fragment/],
  ['with /rest/v1', 'https://agents.example.com/rest/v1', /\/rest\/v1/],
  ['with /rest/v1/', 'https://agents.example.com/rest/v1/', /\/rest\/v1/],
  ['empty', '', /not a valid URL/],
  ['spaces', 'https://agents example.com', /not a valid URL/],
];
const BAD_PROFILE_NAMES: [string, string][] = [
  ['empty', ''],
  ['space', 'my work'],
  ['slash', 'a/b'],
  ['dot', 'a.b'],
  ['__proto__', '__proto__'],
  ['constructor', 'constructor'],
  ['65 characters', 'p'.repeat(65)],
  ['non-ASCII', 'prøfil'],
];
const BAD_PROFILE_FILES: [string, string, RegExp][] = [
  ['a directory', F.dir, /EISDIR/],
  ['a missing file', F.missing, /ENOENT/],
  ['a symlink loop', F.loop, /ELOOP/],
  ['a path through a file', F.notDir, /ENOTDIR/],
  ['not JSON', F.notJson, /not valid JSON/],
  ['truncated JSON', F.truncatedJson, /not valid JSON/],
  ['an empty file', F.emptyJsonFile, /not valid JSON/],
  ['an array', F.array, /must be a JSON object/],
  ['a string', F.string, /must be a JSON object/],
  ['null', F.nullJson, /must be a JSON object/],
  ['an empty object', F.emptyObject, /profile is empty/],
  ['an unknown field', F.unknownField, /unknown profile field "agent"/],
  ['a numeric id', F.idNumber, /"id" must be a UUID/],
  ['an id that is no UUID', F.idNotUuid, /"id" must be a UUID/],
  ['config_values an array', F.configValuesArray, /"config_values" must be an object/],
  ['mcp_servers an object', F.mcpObject, /"mcp_servers" must be an array/],
  ['config_merge_strategy a number', F.strategyNumber, /"config_merge_strategy" must be a string/],
];
const BAD_MESSAGE_FILES: [string, string, RegExp][] = [
  ['a directory', F.dir, /EISDIR/],
  ['a missing file', F.missing, /ENOENT/],
  ['a symlink loop', F.loop, /ELOOP/],
  ['a path through a file', F.notDir, /ENOTDIR/],
  ['an empty file', F.empty, /is empty/],
  ['a whitespace-only file', F.blank, /is empty/],
];
const INVALID_VALUE = /argument .* is invalid/;
// Every variant goes through one option of one command; the same parser elsewhere gets the first few
// (the parsers themselves are covered value by value in properties.test.ts).
type Pair = [string, string];
const few = <T>(list: T[], n = 3): T[] => list.slice(0, n);
const NOT_SESSION = /not a session/;

// ── create ──
{
  const c = (why: string, args: string[], error: RegExp, more?: Partial<Row>) =>
    add('create', why, ['create', ...args], error, more);
  for (const [why, v] of BAD_UUIDS) c(`--agent-id ${why}`, ['--agent-id', v, 'hi'], INVALID_VALUE);
  for (const [why, v] of few(BAD_UUIDS)) {
    c(`--agent-profile ${why}`, ['--agent-profile', v, 'hi'], INVALID_VALUE);
    c(`--artifact ${why}`, ['-a', 'claude', '--artifact', v, 'hi'], INVALID_VALUE);
  }
  c('second --artifact bad', ['-a', 'claude', '--artifact', U, '--artifact', 'x', 'hi'], INVALID_VALUE);
  for (const [why, v] of BAD_DURATIONS)
    c(`--timeout ${why}`, ['-a', 'claude', '--wait', '--timeout', v, 'hi'], INVALID_VALUE);
  for (const agent of ['nobody', 'CLAUDE', '', ' claude', 'gpt']) {
    c(`--agent ${JSON.stringify(agent)}`, ['--agent', agent, 'hi'], /is invalid: allowed choices are claude/);
  }
  c('AGENTS_AGENT unknown', ['hi'], /unknown agent in AGENTS_AGENT "nobody"/, {
    env: { AGENTS_AGENT: 'nobody' },
  });
  c('no agent anywhere (not a terminal)', ['hi'], /no agent given/);
  c('message args empty string', ['-a', 'claude', ''], /message from the arguments is empty/);
  c(
    'message args whitespace only',
    ['-a', 'claude', '  ', '\t', '\n'],
    /message from the arguments is empty/,
  );
  c('message "-" with whitespace stdin', ['-a', 'claude', '-'], /standard input is empty/, {
    input: ' \n \t',
  });
  c('message "-" with empty stdin', ['-a', 'claude', '-'], /standard input is empty/);
  c('no message, whitespace stdin', ['-a', 'claude'], /standard input is empty/, { input: '\n\n' });
  c('no message, empty stdin', ['-a', 'claude'], /standard input is empty/);
  c('--file - with whitespace stdin', ['-a', 'claude', '--file', '-'], /standard input is empty/, {
    input: '   ',
  });
  for (const [why, p, err] of BAD_MESSAGE_FILES) c(`--file ${why}`, ['-a', 'claude', '--file', p], err);
  for (const [why, p, err] of BAD_PROFILE_FILES)
    c(`--agent-profile-file ${why}`, ['--agent-profile-file', p, 'hi'], err);
  // Conflicts.
  c('--wait with --follow', ['-a', 'claude', '--wait', '--follow', 'hi'], /one of --wait and --follow/);
  c('-w with -f', ['-a', 'claude', '-w', '-f', 'hi'], /one of --wait and --follow/);
  c('--agent with --agent-id', ['-a', 'claude', '--agent-id', U, 'hi'], /only one of --agent/);
  c('--agent with --agent-profile', ['-a', 'claude', '--agent-profile', U, 'hi'], /only one of --agent/);
  c(
    '--agent with --agent-profile-file',
    ['-a', 'claude', '--agent-profile-file', F.message, 'hi'],
    /only one of --agent/,
  );
  c('--agent-id with --agent-profile', ['--agent-id', U, '--agent-profile', U, 'hi'], /only one of --agent/);
  c(
    '--agent-profile with --agent-profile-file',
    ['--agent-profile', U, '--agent-profile-file', F.emptyObject, 'hi'],
    /only one of --agent/,
  );
  c(
    '--output without --wait',
    ['-a', 'claude', '--output', join(DIR, 'out.md'), 'hi'],
    /--output needs --wait/,
  );
  c(
    '--output with --follow',
    ['-a', 'claude', '--follow', '-o', join(DIR, 'out.md'), 'hi'],
    /--output needs --wait/,
  );
  c(
    '--timeout without --wait or --follow',
    ['-a', 'claude', '--timeout', '5m', 'hi'],
    /--timeout needs --wait or --follow/,
  );
  c(
    '--output in a missing directory',
    ['-a', 'claude', '-w', '-o', join(F.missing, 'out.md'), 'hi'],
    /cannot write --output/,
  );
  c(
    '--output an existing directory',
    ['-a', 'claude', '-w', '-o', F.dir, 'hi'],
    /--output needs a file name/,
  );
  c(
    '--output ending in a slash',
    ['-a', 'claude', '-w', '-o', `${join(DIR, 'new')}/`, 'hi'],
    /--output needs a file name/,
  );
  c('--output empty', ['-a', 'claude', '-w', '-o', '', 'hi'], /--output needs a file name/);
  c(
    '--file with message args',
    ['-a', 'claude', '--file', F.message, 'hi'],
    /arguments or with --file, not both/,
  );
  c('--file - with message "-"', ['-a', 'claude', '--file', '-', '-'], /arguments or with --file, not both/, {
    input: 'x',
  });
  // Unknown options, missing option values.
  c('unknown option', ['-a', 'claude', '--frobnicate', 'hi'], /unknown option '--frobnicate'/);
  c('misspelt option', ['--agnet', 'claude', 'hi'], /unknown option '--agnet'/);
  c('a send-only option (--yes)', ['-a', 'claude', '--yes', 'hi'], /unknown option '--yes'/);
  c('a value on a switch (--private=yes)', ['-a', 'claude', '--private=yes', 'hi'], /unknown option/);
  for (const opt of [
    '--agent',
    '--agent-id',
    '--agent-profile',
    '--agent-profile-file',
    '--artifact',
    '--timeout',
    '--output',
    '--file',
  ]) {
    c(`${opt} without its value`, ['-a', 'claude', 'hi', opt], /argument missing/);
  }
}

// ── send ──
{
  const s = (why: string, args: string[], error: RegExp, more?: Partial<Row>) =>
    add('send', why, ['send', ...args], error, more);
  for (const [why, v] of few(BAD_SESSION_REFS, 4)) s(`session ${why}`, [v, 'hi'], NOT_SESSION);
  s('session "last" with none recorded', ['last', 'hi'], /no "last" session/);
  s('missing session', [], /missing required argument 'session'/);
  for (const [why, v] of few(BAD_UUIDS)) {
    s(`--agent-profile ${why}`, [U, '--agent-profile', v, 'hi'], INVALID_VALUE);
    s(`--artifact ${why}`, [U, '--artifact', v, 'hi'], INVALID_VALUE);
  }
  for (const [why, v] of few(BAD_DURATIONS, 4))
    s(`--timeout ${why}`, [U, '--follow', '--timeout', v, 'hi'], INVALID_VALUE);
  s('message args whitespace only', [U, ' ', '\t'], /message from the arguments is empty/);
  s('message "-" with whitespace stdin', [U, '-'], /standard input is empty/, { input: '\r\n' });
  s('no message, empty stdin', [U], /standard input is empty/);
  for (const [why, p, err] of few(BAD_MESSAGE_FILES)) s(`--file ${why}`, [U, '--file', p], err);
  for (const [why, p, err] of few(BAD_PROFILE_FILES, 5))
    s(`--agent-profile-file ${why}`, [U, '--agent-profile-file', p, 'hi'], err);
  s('--wait with --follow', [U, '--wait', '--follow', 'hi'], /one of --wait and --follow/);
  s(
    '--agent-profile with --agent-profile-file',
    [U, '--agent-profile', U, '--agent-profile-file', F.emptyObject, 'hi'],
    /only one of --agent-profile/,
  );
  s('--output without --wait', [U, '-o', join(DIR, 'out.md'), 'hi'], /--output needs --wait/);
  s(
    '--timeout without --wait or --follow',
    [U, '--timeout', '90s', 'hi'],
    /--timeout needs --wait or --follow/,
  );
  s('--output an existing directory', [U, '--wait', '-o', F.dir, 'hi'], /--output needs a file name/);
  s('--file with message args', [U, '--file', F.message, 'hi'], /not both/);
  s('a create-only option (--agent)', [U, '--agent', 'claude', 'hi'], /unknown option '--agent'/);
  s('a create-only option (--agent-id)', [U, '--agent-id', U, 'hi'], /unknown option '--agent-id'/);
  s('a create-only option (--private)', [U, '--private', 'hi'], /unknown option '--private'/);
  s('misspelt option', [U, '--wiat', 'hi'], /unknown option '--wiat'/);
  for (const opt of [
    '--agent-profile',
    '--agent-profile-file',
    '--artifact',
    '--timeout',
    '--output',
    '--file',
  ]) {
    s(`${opt} without its value`, [U, 'hi', opt], /argument missing/);
  }
}

// ── show ──
{
  const s = (why: string, args: string[], error: RegExp, more?: Partial<Row>) =>
    add('show', why, ['show', ...args], error, more);
  for (const [why, v] of BAD_SESSION_REFS) s(`session ${why}`, [v], NOT_SESSION);
  s('session "last" with none recorded', ['last'], /no "last" session/);
  s('missing session', [], /missing required argument 'session'/);
  s('two sessions', [U, U], /too many arguments/);
  for (const [why, v] of few(BAD_UUIDS)) s(`--thread ${why}`, [U, '--thread', v], INVALID_VALUE);
  for (const [why, v] of [
    ...BAD_COUNTS,
    ['zero', '0'],
    ['over 100000', '100001'],
    ['1e9 spelt out', '1000000000'],
  ] as Pair[]) {
    s(`--limit ${why}`, [U, '--limit', v], INVALID_VALUE);
  }
  s('--all with --limit', [U, '--all', '--limit', '5'], /cannot be used with/);
  s('--limit with --all', [U, '--limit', '5', '--all'], /cannot be used with/);
  s('--wait (not a show option)', [U, '--wait'], /unknown option '--wait'/);
  s('--timeout that is no duration', [U, '--timeout', 'soon'], /--timeout/);
  s('misspelt option', [U, '--tool'], /unknown option '--tool'/);
  for (const opt of ['--thread', '--limit']) s(`${opt} without its value`, [U, opt], /argument missing/);
}

// ── tail ──
{
  const t = (why: string, args: string[], error: RegExp, more?: Partial<Row>) =>
    add('tail', why, ['tail', ...args], error, more);
  for (const [why, v] of few(BAD_SESSION_REFS, 4)) t(`session ${why}`, [v], NOT_SESSION);
  t('session "last" with none recorded', ['last'], /no "last" session/);
  t('missing session', [], /missing required argument 'session'/);
  t('two sessions', [U, U], /too many arguments/);
  for (const [why, v] of few(BAD_UUIDS)) t(`--thread ${why}`, [U, '--thread', v], INVALID_VALUE);
  for (const [why, v] of [...BAD_COUNTS, ['over 10000', '10001']] as Pair[])
    t(`-n ${why}`, [U, '-n', v], INVALID_VALUE);
  t('--lines negative', [U, '--lines', '-5'], INVALID_VALUE);
  for (const [why, v] of few(BAD_DURATIONS, 4)) t(`--timeout ${why}`, [U, '--timeout', v], INVALID_VALUE);
  t('a value on a switch (--until-final=1)', [U, '--until-final=1'], /unknown option/);
  t('--follow (not a tail option)', [U, '--follow'], /unknown option '--follow'/);
  for (const v of ['yesterday', '10x', '2025-13-45T00:00:00Z', '2025-06-01T09:00:00+25:99', '0', '8d', ''])
    t(`--since ${JSON.stringify(v)}`, [U, '--since', v], /--since/);
  t('--since without its value', [U, '--since'], /argument missing/);
  t('--limit (show, not tail)', [U, '--limit', '5'], /unknown option '--limit'/);
  for (const opt of ['-n', '--thread', '--timeout'])
    t(`${opt} without its value`, [U, opt], /argument missing/);
}

// ── config ──
{
  const k = (sub: string, why: string, args: string[], error: RegExp, more?: Partial<Row>) =>
    add(`config ${sub}`, why, ['config', sub, ...args], error, more);
  const unknownKeys = ['nope', 'API-KEY', 'apikey', 'base_url', 'profile', '', '__proto__'];
  for (const key of unknownKeys) k('get', `unknown key ${JSON.stringify(key)}`, [key], /unknown config key/);
  for (const key of few(unknownKeys)) {
    k('set', `unknown key ${JSON.stringify(key)}`, [key, 'x'], /unknown config key/);
    k('unset', `unknown key ${JSON.stringify(key)}`, [key], /unknown config key/);
  }
  for (const [why, v, err] of few(BAD_BASE_URLS, 5)) k('set', `base-url ${why}`, ['base-url', v], err);
  for (const agent of ['nobody', 'CLAUDE', '', 'claude '])
    k('set', `agent ${JSON.stringify(agent)}`, ['agent', agent], /unknown agent/);
  k('set', 'api-key empty', ['api-key', ''], /API key is empty/);
  k('set', 'api-key with a space', ['api-key', 'a b'], /visible ASCII/);
  k('set', 'api-key with a newline', ['api-key', 'abc\ndef'], /visible ASCII/);
  k('set', 'api-key non-ASCII', ['api-key', 'clé-secrète'], /visible ASCII/);
  k('set', 'api-key over 4096 characters', ['api-key', 'k'.repeat(4097)], /too long/);
  k('get', 'missing key', [], /missing required argument 'key'/);
  k('set', 'missing key and value', [], /missing required argument 'key'/);
  k('set', 'missing value', ['agent'], /missing required argument 'value'/);
  k('unset', 'missing key', [], /missing required argument 'key'/);
  k('get', 'two keys', ['agent', 'base-url'], /too many arguments/);
  k('set', 'three arguments', ['agent', 'claude', 'codex'], /too many arguments/);
  k('list', 'an argument', ['agent'], /too many arguments/);
  k('path', 'an argument', ['x'], /too many arguments/);
  k('list', 'unknown option', ['--frob'], /unknown option '--frob'/);
  k('path', 'unknown option', ['--all'], /unknown option '--all'/);
  for (const [why, v] of few(BAD_PROFILE_NAMES)) {
    add('config list', `--profile ${why}`, ['--profile', v, 'config', 'list'], /invalid --profile/);
    add(
      'config set',
      `--profile ${why}`,
      ['--profile', v, 'config', 'set', 'agent', 'claude'],
      /invalid --profile/,
    );
  }
  add('config get', 'AGENTS_PROFILE bad', ['config', 'get', 'agent'], /invalid AGENTS_PROFILE/, {
    env: { AGENTS_PROFILE: 'a b' },
  });
  add('config list', 'a config file that is not JSON', ['config', 'list'], /is not valid JSON/, {
    config: '{"profiles":',
    namesConfigFile: true,
  });
  add('config get', 'a config file that is not JSON', ['config', 'get', 'agent'], /is not valid JSON/, {
    config: '{"profiles":',
    namesConfigFile: true,
  });
  add(
    'config set',
    'a config file of the wrong shape',
    ['config', 'set', 'agent', 'claude'],
    /expected shape/,
    {
      config: JSON.stringify({ profiles: { default: { agent: 'nobody' } } }),
      namesConfigFile: true,
    },
  );
  add('config', 'unknown subcommand', ['config', 'frob'], /unknown command 'frob'/);
  add('config', 'misspelt subcommand', ['config', 'lst'], /unknown command 'lst'/);
}

// ── login, logout ──
{
  const l = (why: string, args: string[], error: RegExp, more?: Partial<Row>) =>
    add('login', why, ['login', ...args], error, more);
  l('no terminal and no --with-key', [], /no terminal to ask for the key/);
  l('--with-key, empty stdin', ['--with-key'], /no API key on standard input/);
  l('--with-key, only a newline', ['--with-key'], /no API key on standard input/, { input: '\n' });
  l('--with-key, key with a space', ['--with-key'], /visible ASCII/, { input: 'abc def' });
  l('--with-key, key over two lines', ['--with-key'], /visible ASCII/, { input: 'abc\ndef\n' });
  l('--with-key, 70 KB on stdin', ['--with-key'], /too long to be an API key/, {
    input: 'k'.repeat(70 * 1024),
  });
  for (const [why, v, err] of few(BAD_BASE_URLS, 5)) {
    add('login', `--base-url ${why}`, ['--base-url', v, 'login', '--with-key'], err, { input: KEY });
  }
  l('AGENTS_BASE_URL over ftp', ['--with-key'], /AGENTS_BASE_URL must use http/, {
    input: KEY,
    env: { AGENTS_BASE_URL: 'ftp://agents.example.com' },
  });
  for (const [why, v] of few(BAD_PROFILE_NAMES, 2)) {
    add('login', `--profile ${why}`, ['--profile', v, 'login', '--with-key'], /invalid --profile/, {
      input: KEY,
    });
  }
  l('an argument', ['--with-key', 'my-key'], /too many arguments/, { input: KEY });
  l('a value on a switch (--with-key=abc)', ['--with-key=abc'], /unknown option/, { input: KEY });
  l('--key (no key on the command line)', ['--key', 'abc'], /unknown option '--key'/);

  const o = (why: string, args: string[], error: RegExp, more?: Partial<Row>) =>
    add('logout', why, ['logout', ...args], error, more);
  o('an argument', ['default'], /too many arguments/);
  o('unknown option', ['--all'], /unknown option '--all'/);
  for (const [why, v] of few(BAD_PROFILE_NAMES)) {
    add('logout', `--profile ${why}`, ['--profile', v, 'logout'], /invalid --profile/);
  }
  o('AGENTS_PROFILE bad', [], /invalid AGENTS_PROFILE/, { env: { AGENTS_PROFILE: '../etc' } });
}

// ── emulator ── (nothing may start: stdout stays empty, where a started emulator prints its URL)
{
  const e = (why: string, args: string[], error: RegExp) =>
    add('emulator', why, ['emulator', ...args], error);
  for (const [why, v] of [...few(BAD_COUNTS), ['over 65535', '65536']] as Pair[])
    e(`--port ${why}`, ['--port', v], INVALID_VALUE);
  for (const v of ['', ' ', 'a b']) e(`--host ${JSON.stringify(v)}`, ['--host', v], INVALID_VALUE);
  for (const v of ['', 'a b', 'key:work space', 'k\tey'])
    e(`--key ${JSON.stringify(v)}`, ['--key', v], INVALID_VALUE);
  e('--forbidden-key with a space', ['--forbidden-key', 'a b'], INVALID_VALUE);
  e('the same key accepted and forbidden', ['--key', 'k1', '--forbidden-key', 'k1'], /given twice/);
  e('the same key twice', ['--key', 'k1:a', '--key', 'k1:b'], /given twice/);
  for (const [why, v] of [...few(BAD_COUNTS), ['over 1000000', '1000001']] as Pair[])
    e(`--rate-limit ${why}`, ['--rate-limit', v], INVALID_VALUE);
  for (const [why, v] of [
    ['negative', '-1'],
    ['a word', 'fast'],
    ['empty', ''],
    ['over 1000', '1001'],
    ['NaN', 'NaN'],
  ] as Pair[]) {
    e(`--time-scale ${why}`, ['--time-scale', v], INVALID_VALUE);
  }
  for (const [why, v] of [
    ['over 1', '2'],
    ['negative', '-0.1'],
    ['a word', 'half'],
    ['empty', ''],
  ] as Pair[]) {
    e(`--fault-rate ${why}`, ['--fault-rate', v, '--fault', '503'], INVALID_VALUE);
  }
  e('--fault unknown mode', ['--fault-rate', '0.5', '--fault', '418'], /is invalid: allowed choices/);
  e('--fault without --fault-rate', ['--fault', '503'], /go together/);
  e('--fault-rate without --fault', ['--fault-rate', '0.5'], /go together/);
  e('--fault-seed negative', ['--fault-seed', '-1'], INVALID_VALUE);
  e('--fault-seed over 2^32-1', ['--fault-seed', '4294967296'], INVALID_VALUE);
  e('--slow-ms a word', ['--slow-ms', 'abc'], INVALID_VALUE);
  e('--slow-ms over 600000', ['--slow-ms', '600001'], INVALID_VALUE);
  e('an argument', ['4010'], /too many arguments/);
  e('unknown option', ['--tls'], /unknown option '--tls'/);
  for (const opt of ['--port', '--host', '--key', '--time-scale', '--fault-rate'])
    e(`${opt} without its value`, [opt], /argument missing/);
}

// ── global options, the environment, the config file (through a command that would talk to the service) ──
{
  const g = (why: string, args: string[], error: RegExp, more?: Partial<Row>) =>
    add('global', why, args, error, more);
  for (const [why, v, err] of BAD_BASE_URLS) g(`--base-url ${why}`, ['--base-url', v, 'show', U], err);
  g(
    '--base-url over ftp before create',
    ['--base-url', 'ftp://x', 'create', '-a', 'claude', 'hi'],
    /http:\/\/ or https:\/\//,
  );
  g('AGENTS_BASE_URL with /rest/v1', ['tail', U], /AGENTS_BASE_URL must not end with \/rest\/v1/, {
    env: { AGENTS_BASE_URL: 'https://agents.example.com/rest/v1' },
  });
  g('AGENTS_API_KEY with a space', ['show', U], /AGENTS_API_KEY must be visible ASCII/, {
    env: { AGENTS_API_KEY: 'a b' },
  });
  g('AGENTS_API_KEY with a newline', ['send', U, 'hi'], /AGENTS_API_KEY must be visible ASCII/, {
    env: { AGENTS_API_KEY: 'abc\r\nX-Injected: 1' },
  });
  for (const [why, v] of BAD_PROFILE_NAMES)
    g(`--profile ${why}`, ['--profile', v, 'show', U], /invalid --profile/);
  g('AGENTS_PROFILE bad', ['create', '-a', 'claude', 'hi'], /invalid AGENTS_PROFILE/, {
    env: { AGENTS_PROFILE: 'x/y' },
  });
  // A broken config file blocks a run only when a setting has to come from it: here the key, the base URL
  // or the agent is left to the file (the rows' environment gives the others). The error names the file.
  // That the same broken files block nothing when flags and the environment give everything is checked
  // below ('a broken config file that is not needed'); unknown keys in a profile are ignored on read.
  const NO_KEY = { AGENTS_API_KEY: undefined };
  const NO_BASE_URL = { AGENTS_BASE_URL: undefined };
  const fileRow = (why: string, args: string[], error: RegExp, config: string, env: NodeJS.ProcessEnv) =>
    g(why, args, error, { config, env, namesConfigFile: true });
  fileRow('config file not JSON, key needed', ['show', U], /is not valid JSON/, 'not json', NO_KEY);
  fileRow('config file truncated, key needed', ['tail', U], /is not valid JSON/, '{"profiles": {', NO_KEY);
  fileRow('config file empty, key needed', ['send', U, 'hi'], /is not valid JSON/, '', NO_KEY);
  fileRow(
    'config file not JSON, base URL needed',
    ['create', '-a', 'claude', 'hi'],
    /is not valid JSON/,
    'not json',
    NO_BASE_URL,
  );
  fileRow(
    'config file an array, base URL needed',
    ['create', '-a', 'claude', 'hi'],
    /expected shape/,
    '[]',
    NO_BASE_URL,
  );
  fileRow('config file a string, key needed', ['show', U], /expected shape.*top level/, '"profiles"', NO_KEY);
  fileRow(
    'config file with profiles an array, key needed',
    ['tail', U],
    /expected shape.*`profiles` must be an object/,
    JSON.stringify({ profiles: [] }),
    NO_KEY,
  );
  fileRow(
    'config file with a profile that is no object, key needed',
    ['tail', U],
    /expected shape.*`profiles\/default` must be an object/,
    JSON.stringify({ profiles: { default: 'x' } }),
    NO_KEY,
  );
  // Only the agent is left to the file: create without --agent reads it, and a broken file stops it.
  fileRow('config file not JSON, agent needed', ['create', 'hi'], /is not valid JSON/, 'not json', {});
  fileRow('config file an array, agent needed', ['create', 'hi'], /expected shape/, '[]', {});
  fileRow(
    'config file not JSON under --profile, key needed',
    ['--profile', 'work', 'show', U],
    /is not valid JSON/,
    '{',
    NO_KEY,
  );
  // A well-formed file with a value that is not allowed: the value is judged as it is read.
  g('config file with a bad stored agent', ['create', 'hi'], /unknown agent in the config "gpt"/, {
    config: JSON.stringify({ profiles: { default: { agent: 'gpt' } } }),
  });
  // A profile named on purpose that the file lacks, when a setting would have come from it.
  g(
    '--profile the file does not have',
    ['--profile', 'nope', 'show', U],
    /no profile "nope" \(from --profile\) in the config file; known: default, work/,
    {
      config: JSON.stringify({ profiles: { work: { agent: 'codex' }, default: { agent: 'claude' } } }),
      env: NO_KEY,
    },
  );
  g(
    'AGENTS_PROFILE the file does not have',
    ['tail', U],
    /no profile "nope" \(from AGENTS_PROFILE\) in the config file; known: default$/,
    {
      config: JSON.stringify({ profiles: { default: { agent: 'claude' } } }),
      env: { ...NO_KEY, AGENTS_PROFILE: 'nope' },
    },
  );
  g(
    '--profile with no config file at all',
    ['--profile', 'nope', 'send', U, 'hi'],
    /no profile "nope" \(from --profile\) in the config file; there are none yet/,
    { env: NO_BASE_URL },
  );
  g('--json=1', ['--json=1', 'show', U], /unknown option '--json=1'/);
  g('--profile without its value', ['show', U, '--profile'], /argument missing/);
  g('--base-url without its value', ['show', U, '--base-url'], /argument missing/);
  g('unknown global option', ['--verbose', 'show', U], /unknown option '--verbose'/);
  g('unknown command', ['frobnicate'], /unknown command 'frobnicate'/);
  g('misspelt command (with a hint)', ['creat', '-a', 'claude', 'hi'], /unknown command 'creat'/);
  g('a flag given as the command', ['--wait', 'show', U], /unknown option '--wait'/);
  // Values with line breaks and escape sequences: still one error line, the characters made visible.
  g('a line break in an option value', ['tail', U, '--timeout', '1\nx'], /argument '1\\nx' is invalid/);
  g('an escape sequence in an option value', ['show', U, '--thread', '\u001b[2J'], /argument '\\u001b\[2J'/);
  g('a line break in a command name', ['cre\nate'], /unknown command 'cre\\nate'/);
  g('a line break in an option name', ['create', '--fo\no'], /unknown option '--fo\\no'/);
  g('a line break in a session', ['show', 'abc\ndef'], /not a session: "abc\\ndef"/);
  g(
    'a line break in a --file path',
    ['create', '-a', 'claude', '--file', '/nope\n/x'],
    /--file \/nope\\n\/x: ENOENT/,
  );
  g('a bidi override in a --file path', ['create', '-a', 'claude', '--file', '/nope\u202e.txt'], /\\u202e/);
}

/** Rows per command, for the report. */
export const ROW_COUNTS = rows.reduce<Record<string, number>>(
  (m, r) => ((m[r.cmd] = (m[r.cmd] ?? 0) + 1), m),
  {},
);

/** In a row's `config`, stands for its emulator's base URL. */
const EMULATOR_URL = '@EMULATOR_URL@';

interface RowRun {
  r: CliResult;
  /** Requests the emulator received. */
  requests: number;
  /** The row's config file (written only when the row has `config`). */
  configPath: string;
}

/** Runs one row in-process against an emulator of its own, with its own config dir. */
async function runRow(row: Pick<Row, 'args' | 'env' | 'input' | 'config'>): Promise<RowRun> {
  const em = await ownEmulator();
  try {
    const env = cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY, ...row.env });
    const configPath = join(env.AGENTS_CONFIG_DIR ?? '', 'config.json');
    if (row.config !== undefined) writeFileSync(configPath, row.config.replaceAll(EMULATOR_URL, em.url));
    const r = await runMain(row.args, {
      env,
      ...(row.input === undefined ? {} : { input: row.input }),
      killAfterMs: 15_000,
    });
    return { r, requests: em.stats().requests, configPath };
  } finally {
    await em.close();
  }
}

describe('bad input: exit 2, one error line, nothing on stdout, nothing sent', () => {
  it('has rows for every command', () => {
    const commands = ['create', 'send', 'show', 'tail', 'login', 'logout', 'emulator', 'global'];
    commands.push('config list', 'config get', 'config set', 'config unset', 'config path');
    for (const c of commands) expect(ROW_COUNTS[c] ?? 0, c).toBeGreaterThanOrEqual(2);
    expect(rows.length).toBeGreaterThan(300);
  });

  it.concurrent.each(rows.map((r) => [`${r.cmd}: ${r.why}`, r] as const))('%s', async (_name, row) => {
    const { r, requests, configPath } = await runRow(row);
    const lines = r.stderr.replace(/\n$/, '').split('\n');
    // One object, so a failing row shows everything at once.
    expect({
      code: r.code,
      stdout: r.stdout,
      lineCount: lines.length <= 2,
      first: /^error: \S/.test(lines[0] ?? ''),
      second: lines.length < 2 || /^hint: \S/.test(lines[1] ?? ''),
      reason: row.error.test(lines[0] ?? ''),
      namesFile: row.namesConfigFile !== true || (lines[0] ?? '').includes(`the config file ${configPath} `),
      // No control character but the line ends: nothing that could drive the terminal.
      // eslint-disable-next-line no-control-regex
      plain: !/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(r.stderr),
      requests,
      stderr: r.stderr,
    }).toEqual({
      code: 2,
      stdout: '',
      lineCount: true,
      first: true,
      second: true,
      reason: true,
      namesFile: true,
      plain: true,
      requests: 0,
      stderr: r.stderr,
    });
  });
});

// The rows above prove something only if the same commands, with the bad value put right, do reach the
// emulator: otherwise "no request" could come from a harness that never connects.
describe('controls: the same setup with good values does reach the emulator', () => {
  // Written once, before the concurrent rows: rewriting it in each row let one run read it half-written.
  writeFileSync(join(DIR, 'good-profile.json'), JSON.stringify({ id: U }));
  const goodFile = (profile: Record<string, string>, name = 'default') =>
    JSON.stringify({ profiles: { [name]: profile } });
  it.concurrent.each<[string, string[], Partial<Row>?]>([
    ['create', ['create', '-a', 'claude', 'hi']],
    ['create with a profile file', ['create', '--agent-profile-file', join(DIR, 'good-profile.json'), 'hi']],
    ['send', ['send', U, 'hi']],
    ['show', ['show', U, '--limit', '5']],
    ['tail', ['tail', U, '-n', '0', '--timeout', '1s']],
    ['login', ['login', '--with-key']],
    // The config-file rows, with a good file: the setting left to the file is read from it.
    [
      'show, the key from the config file',
      ['show', U],
      { env: { AGENTS_API_KEY: undefined }, config: goodFile({ 'api-key': KEY }) },
    ],
    // Once a row ('config file with an unknown key'): unknown keys in a profile are now ignored on read.
    [
      'tail, the key from a profile that also has unknown keys',
      ['tail', U, '-n', '0', '--timeout', '1s'],
      { env: { AGENTS_API_KEY: undefined }, config: goodFile({ 'api-key': KEY, token: 'x', base_url: 'y' }) },
    ],
    [
      'create, the base URL from the config file',
      ['create', '-a', 'claude', 'hi'],
      { env: { AGENTS_BASE_URL: undefined }, config: goodFile({ 'base-url': EMULATOR_URL }) },
    ],
    ['create, the agent from the config file', ['create', 'hi'], { config: goodFile({ agent: 'claude' }) }],
    [
      '--profile the file has',
      ['--profile', 'work', 'tail', U, '-n', '0', '--timeout', '1s'],
      { env: { AGENTS_API_KEY: undefined }, config: goodFile({ 'api-key': KEY }, 'work') },
    ],
  ])('%s', async (_name, args, more = {}) => {
    const { r, requests } = await runRow({ args, input: KEY, ...more });
    expect(r.code).not.toBe(2);
    expect(requests).toBeGreaterThan(0);
  });
});

// Combinations of options and the files they name are checked in the parse step, with the argument
// parsers: before any setting is read. With no key and no base URL anywhere (which would be exit 3 and
// exit 2 with other lines), each of these still ends on its own usage error.
describe('the parse step: bad files and combinations come before the settings', () => {
  const NO_SETTINGS = { AGENTS_API_KEY: undefined, AGENTS_BASE_URL: undefined };
  it.concurrent.each<[string, string[], RegExp]>([
    [
      'create --file missing',
      ['create', '-a', 'claude', '--file', F.missing],
      /cannot read --file .*: ENOENT$/,
    ],
    [
      'create --file a directory',
      ['create', '-a', 'claude', '--file', F.dir],
      /cannot read --file .*: EISDIR$/,
    ],
    [
      'create --agent-profile-file not JSON',
      ['create', '--agent-profile-file', F.notJson, 'hi'],
      /not valid JSON/,
    ],
    ['create --file with message args', ['create', '-a', 'claude', '--file', F.message, 'hi'], /not both/],
    ['send --agent-profile-file missing', ['send', U, '--agent-profile-file', F.missing, 'hi'], /ENOENT/],
    ['send last --file missing', ['send', 'last', '--file', F.missing], /cannot read --file .*: ENOENT$/],
    ['artifact -o a directory', ['artifact', U, U, '-o', F.dir], /-o needs a file name/],
  ])('%s', async (_name, args, error) => {
    const { r, requests } = await runRow({ args, env: NO_SETTINGS });
    expect({
      code: r.code,
      stdout: r.stdout,
      requests,
      line: error.test(r.stderr.split('\n')[0] ?? ''),
    }).toEqual({
      code: 2,
      stdout: '',
      requests: 0,
      line: true,
    });
  });
});

describe('no subcommand: help on stderr, exit 2, nothing on stdout, nothing sent', () => {
  it.concurrent.each([[[]], [['config']]] as const)('agents %j', async (args) => {
    const { r, requests } = await runRow({ args: [...args] });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Usage: agents/);
    expect(requests).toBe(0);
  });
});

const FIRST_MESSAGE = 'the first message of the session under test';

interface SessionSetup {
  id: string;
  em: RunningEmulator;
  configPath: string;
  run: (args: string[]) => Promise<CliResult>;
}

/**
 * An emulator with one session in it (its turn maybe still running), runs of the program against it, and
 * then `config` written to the run's config file: the session is made before the file exists.
 */
async function withSession(
  config: string | undefined,
  body: (s: SessionSetup) => Promise<void>,
): Promise<void> {
  const em = await ownEmulator();
  try {
    const env = cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY });
    const run = (args: string[]) => runMain(args, { env });
    const created = await run(['create', '-a', 'claude', FIRST_MESSAGE]);
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const configPath = join(env.AGENTS_CONFIG_DIR ?? '', 'config.json');
    if (config !== undefined) writeFileSync(configPath, config);
    em.resetStats();
    await body({ id, em, configPath, run });
  } finally {
    await em.close();
  }
}

// Valid by design (any http(s) address whose path holds /sessions/<uuid>): each form names the session it
// holds, so `tail` and `show` of a real session succeed through it.
describe('accepted session references reach the emulator and name the session', () => {
  it.concurrent.each(ACCEPTED_SESSION_REFS)('%s', async (_why, ref) => {
    await withSession(undefined, async ({ id, em, run }) => {
      const tailed = await run(['tail', ref(id), '--until-final']);
      expect(tailed.code, tailed.stderr).toBe(0);
      expect(tailed.stdout).not.toBe('');
      expect(em.stats().byRoute['GET /sessions/:id/messages']).toBeGreaterThan(0);
      const shown = await run(['show', ref(id), '--json']);
      expect(shown.code, shown.stderr).toBe(0);
      expect((JSON.parse(shown.stdout) as { session: { id: string } }).session.id).toBe(id);
      expect(em.stats().byRoute['GET /sessions/:id']).toBe(1);
    });
  });
});

// The other half of the config-file rows: with the key and the base URL from the environment (and the
// agent from --agent), no setting is read from the file, so a broken one blocks nothing and is left as it was.
describe('a broken config file that is not needed blocks nothing', () => {
  const BROKEN: [string, string][] = [
    ['not JSON', 'not json'],
    ['truncated', '{"profiles": {'],
    ['empty', ''],
    ['an array', '[]'],
    ['profiles an array', JSON.stringify({ profiles: [] })],
    ['a profile that is no object', JSON.stringify({ profiles: { default: 'x' } })],
  ];
  it.concurrent.each(BROKEN)('%s: tail, show, send and create still work', async (_why, config) => {
    await withSession(config, async ({ id, em, configPath, run }) => {
      const tailed = await run(['tail', id, '-n', '1', '--until-final']);
      expect(tailed.code, tailed.stderr).toBe(0);
      expect(tailed.stdout).not.toBe('');
      const shown = await run(['show', id]);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain(FIRST_MESSAGE);
      const sent = await run(['send', id, '--wait', 'again']);
      expect(sent.code, sent.stderr).toBe(0);
      const created = await run(['create', '-a', 'codex', 'another']);
      expect(created.code, created.stderr).toBe(0);
      expect(em.stats().byRoute).toMatchObject({ 'POST /sessions': 1, 'POST /sessions/:id/messages': 1 });
      expect(readFileSync(configPath, 'utf8')).toBe(config);
    });
  });
});

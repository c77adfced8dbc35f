// Every input and output action.yml names is read or written by the Action's code, and the code reads and
// writes no other (issue 32). Outputs written by a real run are checked in test/process/action.test.ts.
import { describe, expect, it } from 'vitest';
import { INPUT_NAMES, parseInputs, type InputName } from '../../src/action/inputs.js';
import { OUTPUT_NAMES } from '../../src/action/run-action.js';
import { endOutputs, idOutputs, replied } from '../../src/action/result.js';
import type { Message, Reply } from '../../src/sdk/index.js';
import { declared } from '../support/action.js';

describe("action.yml's names and the code's", () => {
  it('the inputs: the ones the code reads are the ones action.yml declares, and each is read', () => {
    expect([...INPUT_NAMES]).toEqual(declared('inputs'));
    const given: Partial<Record<InputName, string>> = {
      blocks_api_key: 'k',
      prompt: 'hello',
      agent: 'claude',
    };
    const asked = new Set<string>();
    parseInputs((name) => {
      asked.add(name);
      return given[name] ?? '';
    }, process.cwd());
    expect([...asked].sort()).toEqual(declared('inputs').sort());
  });

  it('the outputs: action.yml declares the ones the code writes', () => {
    expect([...OUTPUT_NAMES]).toEqual(declared('outputs'));
  });

  it('a reply checked against a schema: structured_output and the rest, each a name action.yml declares', () => {
    const [sessionId, threadId] = [crypto.randomUUID(), crypto.randomUUID()];
    const message = { id: 'm1', role: 'assistant', type: 'final_message', message: '{"ok":true}' } as Message;
    const reply: Reply = {
      sessionId,
      threadId,
      text: message.message,
      message,
      pullRequests: [{ url: 'https://github.com/o/r/pull/1', status: 'open' }],
      url: undefined,
      output: { ok: true },
      attempts: 1,
    };
    const turn = { sessionId, threadId, url: undefined };
    const out = { ...idOutputs(turn), ...endOutputs(replied(reply), turn) };
    expect(out).toMatchObject({
      session_id: sessionId,
      final_message: '{"ok":true}',
      pull_requests: '["https://github.com/o/r/pull/1"]',
      status: 'completed',
      structured_output: '{"ok":true}',
    });
    // `result`: the final Message's fields, then the result's (what `--wait --json` prints).
    expect(JSON.parse(out.result ?? '')).toMatchObject({
      id: 'm1',
      session_id: sessionId,
      schema_attempts: 1,
      pull_requests: [{ url: 'https://github.com/o/r/pull/1', status: 'open' }],
    });
    for (const name of Object.keys(out)) expect(OUTPUT_NAMES).toContain(name);
  });
});

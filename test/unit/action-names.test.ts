// Every input and output action.yml names is read or written by the Action's code, and the code reads and
// writes no other (issue 32). Outputs written by a real run are checked in test/process/action.test.ts.
import { describe, expect, it } from 'vitest';
import { INPUT_NAMES, parseInputs, type InputName } from '../../src/action/inputs.js';
import { actionOutputs, OUTPUT_NAMES } from '../../src/action/run-action.js';
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

  it('structured_output is written from the result when a schema gave one', () => {
    const given: Partial<Record<InputName, string>> = { blocks_api_key: 'k', prompt: 'p', agent: 'claude' };
    const inputs = parseInputs((n) => given[n] ?? '', '.');
    const out = actionOutputs(
      inputs,
      { status: 'completed', structured_output: { ok: true } },
      'completed',
      new Map(),
    );
    expect(out).toEqual({
      result: '{"status":"completed","structured_output":{"ok":true}}',
      structured_output: '{"ok":true}',
      status: 'completed',
    });
    for (const name of Object.keys(out)) expect(OUTPUT_NAMES).toContain(name);
  });
});

// agents completion: the script is written from the program itself, so it knows this version's options.
import type { Command } from 'commander';
import type { Context } from '../../run/context.js';
import { readKnownSessions } from '../../../core/state/known-sessions.js';
import type { Item } from '../../output/items.js';
import { flatten } from '../../../util/text.js';
import { bash, commandTree, fish, zsh } from '../../completion/generators.js';

export function completion(program: Command, shell: 'bash' | 'zsh' | 'fish'): Item {
  const spec = commandTree(program);
  const script = shell === 'bash' ? bash(spec) : shell === 'zsh' ? zsh(spec) : fish(spec);
  return { kind: 'value', text: script.replace(/\n$/, ''), json: script };
}

export async function completeWords(ctx: Context, what: string): Promise<Item> {
  if (what !== 'sessions') return { kind: 'value', text: undefined, json: [] };
  const known = await readKnownSessions(await ctx.history());
  const text = known.map((s) => `${s.id}\t${flatten(s.title ?? '', 80).replace(/\t/g, ' ')}`).join('\n');
  return { kind: 'value', text: known.length ? text : undefined, json: known.map((s) => s.id) };
}

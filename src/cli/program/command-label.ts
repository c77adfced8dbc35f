// What a run is, in a few words for `agents budget` to show beside its waiting requests: the command and
// the long names of the options given on its command line (`create --wait --json`), never their values,
// which may be a prompt or a key.
import type { Command } from 'commander';

/** Options given on the command line alone (not by default or env). */
export function commandLabel(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c !== null && c.parent !== null; c = c.parent) names.unshift(c.name());
  const given = cmd.options
    .filter((o) => cmd.getOptionValueSource(o.attributeName()) === 'cli')
    .map((o) => o.long ?? o.short ?? '')
    .filter((n) => n !== '' && !/^--(no-)?(json|quiet|color|debug|profile|base-url)$/.test(n));
  return [...names, ...given].join(' ');
}

import { UserError } from '../errors.js';

/**
 * `--system NAME=FILE` (or `--agent`) arguments → [name, file] pairs. A bare FILE is named after
 * its file name; two systems with one name are refused, since every output is keyed by name.
 */
export function parseSystemSpecs(args: readonly string[], flag = 'system'): [string, string][] {
  const specs = args.map((arg): [string, string] => {
    const eq = arg.indexOf('=');
    if (eq > 0) return [arg.slice(0, eq), arg.slice(eq + 1)];
    const base = arg.split(/[\\/]/).pop() ?? arg;
    return [base.replace(/\.[^.]+$/, ''), arg];
  });
  const names = new Set<string>();
  for (const [name] of specs) {
    if (names.has(name)) throw new UserError(`two ${flag === 'agent' ? 'agents' : 'systems'} are named "${name}"; give each --${flag} a distinct NAME=`);
    names.add(name);
  }
  return specs;
}

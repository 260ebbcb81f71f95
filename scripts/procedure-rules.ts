/**
 * Writes the screens' map of who may call each procedure (src/client/lib/procedure-rules.ts) from the rules the
 * router's procedures carry: the client cannot load the router, so it reads this copy, which the typecheck holds to
 * the router's types. Run after adding a procedure or changing its builder: `npm run procedure-rules`.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AnyRouter } from '@trpc/server/unstable-core-do-not-import';
import { proceduresOf } from '../src/server/procedures';
import { appRouter } from '../src/server/routers/_app';
import type { ProcedureMeta } from '../src/server/trpc';

export const PROCEDURE_RULES_FILE = 'src/client/lib/procedure-rules.ts';

/** The map's source text for a router: one line a procedure, sorted by path, so that a change reads as one line. */
export function procedureRulesSource(router: AnyRouter): string {
  const lines = proceduresOf(router)
    .map(({ path, procedure }) => {
      const rule = (procedure._def.meta as ProcedureMeta | undefined)?.allow;
      if (!rule) throw new Error(`${path} n’a pas de règle : construisez-la avec readProcedure, writeProcedure… (server/trpc.ts)`);
      return `  '${path}': '${rule}',`;
    })
    .sort();
  return [
    '// Written by `npm run procedure-rules` from the rules the procedures carry (server/trpc.ts): do not edit by hand.',
    "import type { ProcedureRulesOf } from '../../server/procedures';",
    "import type { AppRouter } from '../../server/routers/_app';",
    '',
    '/** Who may call each procedure, by its dotted path: the typecheck holds it to the router. */',
    'export const PROCEDURE_RULES = {',
    ...lines,
    '} as const satisfies ProcedureRulesOf<AppRouter>;',
    '',
    "/** A procedure's dotted path: the screens name one (`useCan('documents.create')`) and a typo fails to compile. */",
    'export type Procedure = keyof typeof PROCEDURE_RULES;',
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(PROCEDURE_RULES_FILE, procedureRulesSource(appRouter));
  console.log(`${PROCEDURE_RULES_FILE} écrit`);
}

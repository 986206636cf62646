/**
 * The `render` step: `pnpm bench:react` (test/bench/react-render.ts) in a child process: the server render
 * of a product page with 20 reviews and JSON-LD by the components, next to the same markup written by
 * hand in JSX and as template strings.
 */
import { join } from 'node:path'
import { measure, ROOT } from './lib.ts'
import { buildPackages } from './next-step.ts'
import { progress, type StepContext, type StepResult } from './step.ts'

export async function runRenderStep(context: StepContext): Promise<StepResult> {
  await buildPackages(context.echo)
  progress('render: a product page with 20 reviews and JSON-LD')
  const run = await measure(process.execPath, [join(ROOT, 'test/bench/react-render.ts'), '--runs', '300'], {
    echo: context.echo,
  })
  if (run.code !== 0) throw new Error(`react-render exited with ${run.code}: ${run.stderr}`)
  return { rows: [], notes: ['', ...run.stdout.trim().split('\n')] }
}

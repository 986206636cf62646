import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url))

function run(args: string[], { untilOutput }: { untilOutput?: RegExp } = {}) {
  const child = spawn(process.execPath, ['--conditions=@verified-reviews/source', CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk
    if (untilOutput?.test(stdout)) child.kill('SIGTERM')
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk
  })
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

describe('cli', () => {
  it('prints the origin and credentials once listening, and stops on SIGTERM', async () => {
    const result = await run(['--port', '0', '--client-id', 'cli-id', '--seed', '2'], {
      untilOutput: /state/,
    })
    expect(result.stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/)
    expect(result.stdout).toContain('cli-id')
    expect(result.code).toBe(0)
  })

  it('warns on stderr when bound to every interface, and prints the real address', async () => {
    const result = await run(['--port', '0', '--host', '0.0.0.0'], { untilOutput: /state/ })
    expect(result.stdout).toMatch(
      /listening on 0\.0\.0\.0:(\d+) \(every interface; http:\/\/127\.0\.0\.1:\1 from this machine\)/,
    )
    expect(result.stderr).toMatch(/Warning: .* listens on 0\.0\.0\.0:\d+, every network interface/)
    expect(result.code).toBe(0)
  })

  it('gives no warning on loopback', async () => {
    const result = await run(['--port', '0'], { untilOutput: /state/ })
    expect(result.stderr).toBe('')
  })

  it('exits with 2 and names --allowed-host when one is not a host name', async () => {
    const result = await run(['--allowed-host', 'sandbox', '--allowed-host', 'http://x'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--allowed-host [1] must be a host name')
  })

  it('exits with 2 and names a flag with a bad value', async () => {
    const result = await run(['--rate-limit', 'fast'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--rate-limit')
  })

  it('exits with 2 and names a value the sandbox refuses', async () => {
    const result = await run(['--website-id', 'not-a-uuid'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--website-id must be a uuid')
  })

  it('generates the catalogue size asked for with --products and --reviews', async () => {
    const result = await run(['--port', '0', '--products', '300', '--reviews', '4000'], {
      untilOutput: /state/,
    })
    expect(result.stdout).toContain('300 products, 4000 product reviews')
    expect(result.code).toBe(0)
  })

  it('exits with 2 and names --products when it is out of range', async () => {
    const result = await run(['--products', '0'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--products must be an integer from 1 to 1000000')
  })

  it('exits with 2 on an unknown flag', async () => {
    const result = await run(['--prot', '4010'])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('--prot')
  })
})

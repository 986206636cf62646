// `engines.node` and each README claim only the Node.js major that CI runs: the root devDependency `node`.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))

interface Manifest {
  name: string
  engines?: { node?: string }
  devDependencies?: Record<string, string>
}

async function manifest(folder: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as Manifest
}

async function packageFolders(): Promise<string[]> {
  const entries = await readdir(join(root, 'packages'), { withFileTypes: true })
  return entries.filter((entry) => entry.isDirectory()).map((entry) => join(root, 'packages', entry.name))
}

async function testedMajor(): Promise<number> {
  const range = (await manifest(root)).devDependencies?.node
  const major = /^\D*(\d+)/.exec(range ?? '')?.[1]
  if (major === undefined) throw new Error('the root package.json has no devDependency `node`')
  return Number(major)
}

describe('the Node.js versions a package claims', () => {
  it('are the major CI runs, in every package.json', async () => {
    const major = await testedMajor()
    for (const folder of await packageFolders()) {
      const { name, engines } = await manifest(folder)
      expect(engines?.node, name).toBe(`>=${major}`)
    }
  })

  it('are the same in every README, which names no other major', async () => {
    const major = await testedMajor()
    for (const folder of await packageFolders()) {
      const readme = await readFile(join(folder, 'README.md'), 'utf8')
      expect(readme, folder).toContain(`Node ${major} or later`)
      const claims = [...readme.matchAll(/\bNode(?:\.js)? (\d+)(?:\.\d+)*(?:\+| or later)/g)]
      expect(
        claims.map((claim) => claim[0]),
        folder,
      ).toEqual(claims.map(() => `Node ${major} or later`))
    }
  })
})

import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { markedBlocks } from './readme-blocks.ts'

const ROOT = join(import.meta.dirname, '../..')

function readmes(): string[] {
  const found = [join(ROOT, 'README.md')]
  for (const folder of ['packages', 'examples']) {
    for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
      if (entry.isDirectory()) found.push(join(ROOT, folder, entry.name, 'README.md'))
    }
  }
  return found.filter((file) => {
    try {
      readFileSync(file)
      return true
    } catch {
      return false
    }
  })
}

describe('README code blocks marked as example files', () => {
  it.each(readmes().map((file) => [relative(ROOT, file)]))(
    '%s: each marked block equals its file',
    (readme) => {
      for (const block of markedBlocks(readFileSync(join(ROOT, readme), 'utf8'))) {
        expect(block.file, `${readme}:${block.line}`).toMatch(/^examples\//)
        expect(block.text, `${readme}:${block.line} differs from ${block.file}`).toBe(
          readFileSync(join(ROOT, block.file), 'utf8'),
        )
      }
    },
  )
})

describe('markedBlocks', () => {
  it('reads the block after each marker, whole', () => {
    const markdown = [
      '# A',
      '<!-- example: examples/a/x.ts -->',
      '```ts',
      'one',
      '',
      'two',
      '```',
      'text',
      '',
    ].join('\n')
    expect(markedBlocks(markdown)).toEqual([{ file: 'examples/a/x.ts', line: 3, text: 'one\n\ntwo\n' }])
  })

  it('refuses a marker without its block', () => {
    expect(() => markedBlocks('<!-- example: examples/a/x.ts -->\ntext\n')).toThrow(
      /not followed by a code block/,
    )
  })
})

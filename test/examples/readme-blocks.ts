// A README's code block marked `<!-- example: examples/<app>/<file> -->` on the line before it shows that
// file whole: its text must equal the file's, so a quick start that stops working fails CI with its example.

/** One marked block: the file it names and the text between its fences. */
export interface MarkedBlock {
  file: string
  line: number
  text: string
}

const MARKER = /^<!--\s*example:\s*(\S+)\s*-->\s*$/

/** The marked blocks of a Markdown text; a marker not followed by a fenced block throws. */
export function markedBlocks(markdown: string): MarkedBlock[] {
  const lines = markdown.split('\n')
  const blocks: MarkedBlock[] = []
  for (let index = 0; index < lines.length; index++) {
    const file = MARKER.exec(lines[index] ?? '')?.[1]
    if (file === undefined) continue
    const fence = /^(`{3,}|~{3,})/.exec(lines[index + 1] ?? '')?.[1]
    if (fence === undefined)
      throw new Error(`line ${index + 1}: the example marker of ${file} is not followed by a code block`)
    const end = lines.findIndex((text, at) => at > index + 1 && text.trimEnd() === fence)
    if (end === -1) throw new Error(`line ${index + 2}: the code block of ${file} has no closing fence`)
    blocks.push({ file, line: index + 2, text: `${lines.slice(index + 2, end).join('\n')}\n` })
    index = end
  }
  return blocks
}

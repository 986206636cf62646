import type { ReactNode } from 'react'
import type { HeadingLevel } from '../types.ts'

export type { HeadingLevel }

/** The level below `level`, kept at `h6` at most. */
export function subLevel(level: HeadingLevel): HeadingLevel {
  return level < 6 ? ((level + 1) as HeadingLevel) : 6
}

export function Heading(props: { level: HeadingLevel; className: string; children: ReactNode }) {
  const Tag = `h${props.level}` as const
  return <Tag className={props.className}>{props.children}</Tag>
}

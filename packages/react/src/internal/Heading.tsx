import type { HeadingLevel } from '@verified-reviews/core/internal'
import type { ReactNode } from 'react'

export function Heading(props: { level: HeadingLevel; className?: string; children: ReactNode }) {
  const Tag = `h${props.level}` as const
  return <Tag className={props.className}>{props.children}</Tag>
}

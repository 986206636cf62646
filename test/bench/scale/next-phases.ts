/**
 * The phases of a `next build` as its own output times them: where a build's time goes (the compilation,
 * the type check, the static pages), so that a difference between builds can be placed without a profiler.
 */
import { stripVTControlCharacters } from 'node:util'
import type { Measured } from './lib.ts'

/** Seconds of each phase `next build` printed; undefined for a phase it did not print. */
export interface NextPhases {
  /** "Compiled successfully in …": Turbopack's compilation. */
  compile: number | undefined
  /** "Finished TypeScript in …": the type check. */
  typescript: number | undefined
  /** "Generating static pages using N workers (…) in …": the prerendering of the pages. */
  pages: number | undefined
}

/** A duration as Next.js prints one (`950ms`, `15.9s`, `5.1min`), in seconds. */
function durationSeconds(amount: string, unit: string): number {
  const value = Number(amount)
  return unit === 'ms' ? value / 1000 : unit === 'min' ? value * 60 : value
}

function phase(output: string, pattern: RegExp): number | undefined {
  const found = pattern.exec(output)
  return found === null ? undefined : durationSeconds(found[1] as string, found[2] as string)
}

/** The phases of one `next build` from its output (stdout; colours allowed). */
export function nextPhases(output: string): NextPhases {
  // `next build` writes its ticks and durations in colour.
  const text = stripVTControlCharacters(output)
  const duration = String.raw`([0-9]+(?:\.[0-9]+)?)(ms|s|min)\b`
  return {
    compile: phase(text, new RegExp(`Compiled successfully in ${duration}`)),
    typescript: phase(text, new RegExp(`Finished TypeScript in ${duration}`)),
    // The last progress line of the pages is the one with their time.
    pages: phase(text, new RegExp(String.raw`Generating static pages using [^\n\r]*\) in ${duration}`)),
  }
}

/** One line: each build's phases (compilation / type check / static pages), as `next build` timed them. */
export function nextPhasesNote(name: string, builds: Record<string, Measured>): string {
  const shown = (value: number | undefined) => (value === undefined ? '?' : value.toFixed(1))
  return `${name}, phases as next build timed them (compilation / TypeScript / static pages): ${Object.entries(
    builds,
  )
    .map(([label, run]) => {
      const { compile, typescript, pages } = nextPhases(run.stdout)
      return `${label} ${shown(compile)} / ${shown(typescript)} / ${shown(pages)} s`
    })
    .join('; ')}`
}

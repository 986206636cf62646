import type { InjectProgress } from './inject-directory.ts'

/** The part of a stream the progress display writes to (`process.stderr`). */
export interface ProgressStream {
  isTTY?: boolean
  columns?: number
  write(text: string): unknown
}

const LABELS: Readonly<Record<InjectProgress['phase'], string>> = {
  scan: 'Reading pages',
  fetch: 'Fetching ratings and reviews',
  write: 'Adding JSON-LD',
}

const BAR_WIDTH = 24

/**
 * A progress display for {@link InjectProgress} events: on a terminal, one line redrawn in place with a
 * bar; elsewhere (a CI log, a pipe), one line when each phase starts and when it ends, so logs stay short.
 * Call `end()` once the run is over to finish the line.
 */
export function createProgressBar(stream: ProgressStream): {
  update(progress: InjectProgress): void
  end(): void
} {
  let drawn = false
  let lastPhase: InjectProgress['phase'] | undefined
  let lastLine = ''
  return {
    update(progress) {
      const { phase, done, total } = progress
      if (stream.isTTY !== true) {
        if (phase !== lastPhase) stream.write(`${LABELS[phase]}…\n`)
        if (done === total && total > 0 && phase !== 'fetch')
          stream.write(`${LABELS[phase]}: ${done}/${total}\n`)
        lastPhase = phase
        return
      }
      const ratio = total === 0 ? 1 : done / total
      const filled = Math.round(ratio * BAR_WIDTH)
      const bar = `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}`
      // A terminal that reports no width (0 or none) gets 80 columns.
      const width = stream.columns !== undefined && stream.columns > 0 ? stream.columns : 80
      const line = `${LABELS[phase].padEnd(28)} ${bar} ${done}/${total}`.slice(0, width - 1)
      if (line === lastLine) return
      // Each phase keeps its finished line; the phase under way redraws its own line in place.
      if (drawn && phase !== lastPhase) stream.write('\n')
      stream.write(`\r\u001b[2K${line}`)
      drawn = true
      lastPhase = phase
      lastLine = line
    },
    end() {
      if (drawn) stream.write('\n')
      drawn = false
    },
  }
}

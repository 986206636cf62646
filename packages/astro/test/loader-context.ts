import type { AstroConfig, AstroIntegrationLogger } from 'astro'
import type { DataStore, Loader, LoaderContext, MetaStore } from 'astro/loaders'

type Entry = Parameters<DataStore['set']>[0]

/** What a test reads back from a {@link loaderContext}: the collection, its meta and the logger's lines. */
export interface TestCollection {
  /** What the loader is given, for a test of a part of it (`parseData` runs no schema). */
  context: LoaderContext
  entries: Map<string, Entry>
  /** The ids of the entries set, in order, each time the store changed. */
  sets: string[]
  metadata: Map<string, string>
  lines: { info: string[]; warn: string[]; error: string[] }
  /** Runs the loader over this collection, as Astro runs it at the start of a build. */
  load(loader: Loader): Promise<void>
}

/** A stand-in for Astro's integration and loader logger that keeps every line, by level. */
export function keepingLogger(): { lines: TestCollection['lines']; logger: AstroIntegrationLogger } {
  const lines = { info: [] as string[], warn: [] as string[], error: [] as string[] }
  const logger = {
    info: (line: string) => lines.info.push(line),
    warn: (line: string) => lines.warn.push(line),
    error: (line: string) => lines.error.push(line),
    debug: () => {},
    fork: () => logger,
    label: 'test',
    options: {},
  }
  return { lines, logger: logger as unknown as AstroIntegrationLogger }
}

/**
 * An in-memory stand-in for what Astro gives a content loader at the start of `astro build` (no file
 * watcher): a collection store and meta store kept between the runs of the test, the loader's logger, the
 * Astro config's `root`, and `parseData` that runs the loader's schema.
 */
export function loaderContext(root: URL = new URL('file:///')): TestCollection {
  const entries = new Map<string, Entry>()
  const sets: string[] = []
  const metadata = new Map<string, string>()
  const { lines, logger } = keepingLogger()
  const store = {
    get: (id: string) => entries.get(id),
    entries: () => [...entries],
    set: (entry: Entry) => {
      if (entries.get(entry.id)?.digest === entry.digest) return false
      sets.push(entry.id)
      entries.set(entry.id, entry)
      return true
    },
    values: () => [...entries.values()],
    keys: () => [...entries.keys()],
    delete: (id: string) => entries.delete(id),
    clear: () => entries.clear(),
    has: (id: string) => entries.has(id),
  } as unknown as DataStore
  const meta: MetaStore = {
    get: (key) => metadata.get(key),
    set: (key, value) => metadata.set(key, value),
    has: (key) => metadata.has(key),
    delete: (key) => metadata.delete(key),
  }
  const contextWith = (schema: unknown): LoaderContext => ({
    collection: 'reviews',
    store,
    meta,
    logger: logger as LoaderContext['logger'],
    config: { root } as AstroConfig,
    parseData: async ({ id, data }) => {
      const parsed = (
        schema as { safeParse?: (value: unknown) => { success: boolean } } | undefined
      )?.safeParse?.(data)
      if (parsed !== undefined && !parsed.success) throw new Error(`entry ${id} does not match the schema`)
      return data
    },
    renderMarkdown: async () => ({ html: '' }),
    generateDigest: (data) => JSON.stringify(data),
  })
  return {
    context: contextWith(undefined),
    entries,
    sets,
    metadata,
    lines,
    load: (loader) => loader.load(contextWith('schema' in loader ? loader.schema : undefined)),
  }
}

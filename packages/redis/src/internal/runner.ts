import { createHash } from 'node:crypto'
import { ErrorReply, RESP_TYPES } from 'redis'
import { RedisUnavailableError } from '../redis-unavailable-error.ts'

/**
 * What the stores need of a node-redis client: `createClient()` of `redis` (version 5 or 6) fits,
 * with RESP 2 (its default).
 */
export interface RedisCommandClient {
  readonly isOpen: boolean
  readonly isReady: boolean
  connect(): Promise<unknown>
  /**
   * Sends a command. Arguments may be bytes (the review store's stored reviews); with `typeMapping` of
   * bulk strings (`$`, 36) to `Buffer`, the strings of the reply are bytes too.
   */
  sendCommand(
    args: readonly (string | Buffer)[],
    options?: { typeMapping?: Record<number, unknown> },
  ): Promise<unknown>
  on(event: 'error' | 'ready', listener: (error?: unknown) => void): unknown
  close(): Promise<unknown>
  destroy(): void
}

/** Where log lines of a connection go: a console, or your logger. */
export interface RedisLogger {
  warn(message: string): void
  info?(message: string): void
}

/** A Lua script, sent by its SHA-1 once Redis knows it. */
export interface Script {
  readonly source: string
  readonly sha: string
}

export function defineScript(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') }
}

/** How the stores send commands: with a timeout, and failing at once while Redis is unavailable. */
export interface Runner {
  readonly prefix: string
  /**
   * Sends one command; throws {@link RedisUnavailableError} when Redis does not answer within
   * `timeout` (the connection's `commandTimeout` by default). With `bytes`, the reply's strings are
   * `Buffer`s (for values that are not UTF-8 text).
   */
  send(args: readonly (string | Buffer)[], timeout?: number, bytes?: boolean): Promise<unknown>
  /** Runs a script (EVALSHA, then EVAL when Redis does not know it yet). */
  script(
    script: Script,
    keys: readonly string[],
    args: readonly (string | Buffer)[],
    bytes?: boolean,
  ): Promise<unknown>
  available(): boolean
  /** Calls `listener` each time Redis answers again after an outage. */
  onRecovery(listener: () => Promise<void> | void): void
  close(): void
}

interface RunnerOptions {
  client: RedisCommandClient
  prefix: string
  commandTimeout: number
  connectTimeout: number
  retryInterval: number
  logger: RedisLogger
  /** The server, for log lines (no credentials). */
  where: string
}

class CommandTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`)
  }
}

/** Redis answered with an error (a wrong type, an unknown script): it is up, the command is wrong. */
function isReplyError(error: unknown): boolean {
  if (error instanceof ErrorReply) return true
  // A client from another copy of node-redis has its own classes.
  const name = (error as { constructor?: { name?: string } } | null)?.constructor?.name
  return name === 'ErrorReply' || name === 'SimpleError' || name === 'BlobError'
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  // A command that times out is still answered later (or fails): never an unhandled rejection.
  promise.catch(() => {})
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new CommandTimeout(ms)), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })
}

/** Replies whose strings are bytes. */
const BYTES = { typeMapping: { [RESP_TYPES.BLOB_STRING]: Buffer } }

export function createRunner(options: RunnerOptions): Runner {
  const { client, logger, where, commandTimeout, connectTimeout, retryInterval } = options
  let down = false
  // Outages so far: a command sent before the current one began cannot end it (its answer was already
  // on its way), so it counts only when it was sent during the outage.
  let outages = 0
  let retryAt = 0
  let closed = false
  let connecting: Promise<void> | undefined
  const recoveryListeners: (() => Promise<void> | void)[] = []

  const markDown = (error: unknown): void => {
    if (closed) return
    retryAt = Date.now() + retryInterval
    if (down) return
    down = true
    outages++
    const reason = error instanceof Error ? error.message || error.name : String(error)
    logger.warn(
      `[@verified-reviews/redis] Redis at ${where} is unavailable (${reason}): each instance uses its own ` +
        `cache, token and rate budget until Redis answers again (tried every ${retryInterval} ms).`,
    )
  }

  const markUp = (sentDuring: number): void => {
    if (!down || sentDuring !== outages) return
    down = false
    logger.info?.(`[@verified-reviews/redis] Redis at ${where} answers again: the state is shared again.`)
    for (const listener of recoveryListeners) {
      Promise.resolve()
        .then(listener)
        .catch(() => {})
    }
  }

  client.on('error', (error) => markDown(error))
  client.on('ready', () => {
    // Reconnected: the next command tries Redis at once.
    if (down) retryAt = 0
  })

  const ready = async (): Promise<void> => {
    if (client.isReady) return
    if (!client.isOpen && connecting === undefined) {
      // Resolves once connected; node-redis goes on reconnecting in the background meanwhile.
      const attempt = client.connect().then(
        () => {},
        () => {},
      )
      connecting = attempt
      attempt.finally(() => {
        if (connecting === attempt) connecting = undefined
      })
    }
    if (connecting !== undefined) await withTimeout(connecting, connectTimeout)
  }

  const send = async (
    args: readonly (string | Buffer)[],
    timeout = commandTimeout,
    bytes = false,
  ): Promise<unknown> => {
    if (closed) throw new RedisUnavailableError('the Redis connection is closed')
    if (down) {
      if (Date.now() < retryAt) throw new RedisUnavailableError(`Redis at ${where} is unavailable`)
      // This command tries Redis again; the others keep failing at once until it has answered.
      retryAt = Date.now() + retryInterval
    }
    const sentDuring = outages
    try {
      await ready()
      const reply = await withTimeout(
        bytes ? client.sendCommand(args, BYTES) : client.sendCommand(args),
        timeout,
      )
      markUp(sentDuring)
      return reply
    } catch (error) {
      if (isReplyError(error)) {
        markUp(sentDuring)
        throw error
      }
      markDown(error)
      throw new RedisUnavailableError(
        `Redis at ${where} did not answer ${String(args[0])}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      )
    }
  }

  return {
    prefix: options.prefix,
    send,
    async script(script, keys, args, bytes = false) {
      const rest = [String(keys.length), ...keys, ...args]
      try {
        return await send(['EVALSHA', script.sha, ...rest], undefined, bytes)
      } catch (error) {
        if (!(isReplyError(error) && String((error as Error).message).startsWith('NOSCRIPT'))) throw error
        return send(['EVAL', script.source, ...rest], undefined, bytes)
      }
    },
    available: () => !down && !closed,
    onRecovery(listener) {
      recoveryListeners.push(listener)
    },
    close() {
      closed = true
    },
  }
}

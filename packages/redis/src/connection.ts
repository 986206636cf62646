import { ValidationError } from '@verified-reviews/core'
import { createClient } from 'redis'
import { positive } from './internal/check.ts'
import { createRunner, type RedisCommandClient, type RedisLogger, type Runner } from './internal/runner.ts'

export type { RedisCommandClient, RedisLogger } from './internal/runner.ts'

/** Options of {@link createRedisConnection}. */
export interface RedisConnectionOptions {
  /**
   * Address of the Redis server, `redis[s]://[[user][:password]@]host[:port][/db]`.
   * @default process.env.REDIS_URL, else 'redis://127.0.0.1:6379'
   */
  url?: string
  /**
   * A node-redis client of your own, instead of `url` (for TLS options, Sentinel credentials and so
   * on). It is connected on first use when it is not open, and it stays yours: {@link RedisConnection.close}
   * leaves it open.
   * @default a client of `url` that rejects commands at once while it is disconnected
   */
  client?: RedisCommandClient
  /**
   * Prefix of every key this package writes, so that several sites (or a staging and a production)
   * share one Redis. For Redis Cluster, put a hash tag in it (`'{vr}:'`) so that the keys a script
   * touches live in one slot.
   * @default 'vr:'
   */
  prefix?: string
  /**
   * Milliseconds a command may take. A command that takes longer (a hung server), or that fails to
   * reach Redis, makes the connection count as unavailable: the stores then use their local fallback.
   * @default 500
   */
  commandTimeout?: number
  /**
   * Milliseconds the first connection (and each reconnection) may take before Redis counts as
   * unavailable.
   * @default 2000
   */
  connectTimeout?: number
  /**
   * Milliseconds, after a failure, during which Redis is not asked again (commands fail at once and
   * the stores use their fallback); then one command tries it again.
   * @default 2000
   */
  retryInterval?: number
  /**
   * Where the one warning of an outage goes (and, with `info`, the line when Redis answers again).
   * @default console
   */
  logger?: RedisLogger
}

/**
 * A connection to Redis shared by the stores of this package. It counts Redis as unavailable from a
 * failed or slow command until Redis answers again, so that the stores fall back at once instead of
 * waiting on every call, and warns once per outage.
 */
export interface RedisConnection {
  /** The node-redis client, for commands of your own. */
  readonly client: RedisCommandClient
  /** Prefix of every key this package writes. */
  readonly prefix: string
  /** False from a failed or slow command until Redis answers again. */
  readonly available: boolean
  /** Closes the client this connection created (a client you passed stays open). */
  close(): Promise<void>
}

const runners = new WeakMap<RedisConnection, Runner>()

/** `REDIS_URL`, when it is set and not empty: the one place this package reads the environment. */
export function redisUrlFromEnvironment(): string | undefined {
  const value = process.env.REDIS_URL
  return value === '' ? undefined : value
}

/**
 * Opens (lazily, on the first command) a connection to Redis for the stores of this package.
 *
 * @example
 * ```ts
 * import { createRedisConnection } from '@verified-reviews/redis'
 * export const redis = createRedisConnection({ url: process.env.REDIS_URL })
 * ```
 */
export function createRedisConnection(options: RedisConnectionOptions = {}): RedisConnection {
  const prefix = options.prefix ?? 'vr:'
  if (typeof prefix !== 'string') {
    throw new ValidationError([{ field: 'prefix', message: 'must be a string' }])
  }
  const commandTimeout = positive('commandTimeout', options.commandTimeout ?? 500)
  const retryInterval = positive('retryInterval', options.retryInterval ?? 2000)
  const connectTimeout = positive('connectTimeout', options.connectTimeout ?? 2000)
  const url = options.url ?? redisUrlFromEnvironment() ?? 'redis://127.0.0.1:6379'
  const own = options.client === undefined
  const client: RedisCommandClient =
    options.client ??
    (createClient({
      url,
      // Commands fail at once while the connection is down, so that the stores fall back without waiting.
      disableOfflineQueue: true,
      socket: {
        connectTimeout,
        reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, retryInterval),
      },
    }) as unknown as RedisCommandClient)
  const runner = createRunner({
    client,
    prefix,
    commandTimeout,
    connectTimeout,
    retryInterval,
    logger: options.logger ?? console,
    where: options.client === undefined ? describeUrl(url) : 'the given client',
  })
  const connection: RedisConnection = {
    client,
    prefix,
    get available() {
      return runner.available()
    },
    async close() {
      runner.close()
      if (!own) return
      if (client.isReady) await client.close().catch(() => client.destroy())
      else if (client.isOpen) client.destroy()
    },
  }
  runners.set(connection, runner)
  return connection
}

/** The command runner of a connection, for the stores of this package. */
export function runnerOf(connection: RedisConnection): Runner {
  const runner = runners.get(connection)
  if (runner === undefined) {
    throw new ValidationError([
      { field: 'connection', message: 'must be a connection made by createRedisConnection()' },
    ])
  }
  return runner
}

/** Host and port of a Redis address, without its credentials, for log lines. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`
  } catch {
    return 'Redis'
  }
}

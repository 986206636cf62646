import { randomUUID } from 'node:crypto'
import type { SharedLock } from '@verified-reviews/core'
import { defineScript, type Runner } from './runner.ts'

// Only the holder (whose random token the lock holds) frees or extends it: an expired lock taken since
// by another instance is left alone.
const RELEASE = defineScript(
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
)
const RENEW = defineScript(
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0",
)

/**
 * Takes the lock `key` with `SET NX PX`: it expires after `ttl` milliseconds unless released first, so a
 * crashed holder frees it. With `renew`, the lock is extended every third of `ttl` while it is held, for
 * work that may outlast `ttl` (a build prefetch). Resolves undefined when another instance holds it.
 */
export async function takeLock(
  runner: Runner,
  key: string,
  ttl: number,
  options: { renew?: boolean } = {},
): Promise<SharedLock | undefined> {
  const token = randomUUID()
  const reply = await runner.send(['SET', key, token, 'NX', 'PX', String(Math.max(1, Math.ceil(ttl)))])
  if (reply !== 'OK') return undefined
  let timer: ReturnType<typeof setInterval> | undefined
  if (options.renew === true) {
    timer = setInterval(
      () => {
        runner.script(RENEW, [key], [token, String(Math.ceil(ttl))]).catch(() => {})
      },
      Math.max(1, Math.floor(ttl / 3)),
    )
    timer.unref()
  }
  let released = false
  return {
    async release() {
      if (released) return
      released = true
      clearInterval(timer)
      await runner.script(RELEASE, [key], [token])
    },
  }
}

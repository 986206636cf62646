import type { PurchaseEventInput, PurchaseEventRejection } from '@verified-reviews/core'
import type {
  NewOutboxEntry,
  OutboxDeadLetter,
  OutboxEntry,
  OutboxStats,
  OutboxStore,
} from '@verified-reviews/core/outbox'
import { type RedisConnection, runnerOf } from './connection.ts'
import { defineScript } from './internal/runner.ts'

/** Options of {@link createRedisOutboxStore}. */
export interface RedisOutboxStoreOptions {
  /**
   * Names this outbox under the connection's prefix.
   * @default 'outbox'
   */
  name?: string
  /**
   * The clock of claims and backoffs, in milliseconds since the epoch. Every server's clock should
   * agree to within a small part of a claim's lease.
   * @default Date.now
   */
  now?: () => number
}

/*
 * Layout, under `<prefix><name>:`:
 *   seq           the last id given
 *   x:<id>        hash of a waiting entry: w (website), k (order key), g (order queue), ref (reference
 *                 key), a (attempts), q (added at), n (next attempt at), u (claimed until, 0 if not),
 *                 o (owner of the claim), err (last error), ev (the event, JSON never decoded in Lua)
 *   o:<website\norder>  list of the ids waiting in that order, oldest first
 *   due           sorted set of the first entry of every order, scored by when it can be claimed
 *                 (the later of its next attempt and its claim's end): a claim that expires makes
 *                 its entry due again by itself
 *   leased        sorted set of claimed ids, scored by the end of their claim (for the stats)
 *   refs          hash reference key -> id of the waiting entry (one entry per reference)
 *   d:<id>        hash of a dead letter: the entry's fields plus da (set aside at), rs (reasons, JSON)
 *   dead          list of dead-letter ids, in the order they were set aside
 * Each operation is one script, so two servers that claim at once never get the same entry.
 */

/** Removes entry `id` from its order; the next one of the order becomes due. Shared by COMPLETE and DEAD. */
const REMOVE = `
local function remove(base, id)
  local key = base .. 'x:' .. id
  local g = redis.call('HGET', key, 'g')
  if not g then return false end
  local ref = redis.call('HGET', key, 'ref')
  if redis.call('HGET', base .. 'refs', ref) == id then redis.call('HDEL', base .. 'refs', ref) end
  redis.call('ZREM', base .. 'due', id)
  redis.call('ZREM', base .. 'leased', id)
  local queue = base .. 'o:' .. g
  local head = redis.call('LINDEX', queue, 0)
  redis.call('LREM', queue, 1, id)
  if head == id then
    local next = redis.call('LINDEX', queue, 0)
    if next then
      local fields = redis.call('HMGET', base .. 'x:' .. next, 'n', 'u')
      redis.call('ZADD', base .. 'due', math.max(tonumber(fields[1]), tonumber(fields[2])), next)
    end
  end
  return true
end
`

/** ARGV: base, now, then website, order key, reference key, order queue, event JSON of each entry. */
const ADD = defineScript(`
local base, now = ARGV[1], ARGV[2]
local out = {}
for i = 3, #ARGV, 5 do
  local ref = ARGV[i + 2]
  local id = redis.call('HGET', base .. 'refs', ref)
  if not id then
    id = tostring(redis.call('INCR', base .. 'seq'))
    local g = ARGV[i + 3]
    redis.call('HSET', base .. 'x:' .. id, 'w', ARGV[i], 'k', ARGV[i + 1], 'g', g, 'ref', ref,
      'a', '0', 'q', now, 'n', now, 'u', '0', 'ev', ARGV[i + 4])
    redis.call('HSET', base .. 'refs', ref, id)
    if redis.call('RPUSH', base .. 'o:' .. g, id) == 1 then redis.call('ZADD', base .. 'due', now, id) end
  end
  table.insert(out, id)
  table.insert(out, redis.call('HGETALL', base .. 'x:' .. id))
end
return out
`)

/** ARGV: base, now, owner, claimed until, limit, then the ids to claim among (none: any). */
const CLAIM = defineScript(`
local base, now, owner, untilAt, limit = ARGV[1], tonumber(ARGV[2]), ARGV[3], ARGV[4], tonumber(ARGV[5])
local only = nil
local heads = {}
if #ARGV > 5 then
  only = {}
  local seen = {}
  for i = 6, #ARGV do
    only[ARGV[i]] = true
    local g = redis.call('HGET', base .. 'x:' .. ARGV[i], 'g')
    if g and not seen[g] then
      seen[g] = true
      local head = redis.call('LINDEX', base .. 'o:' .. g, 0)
      if head then table.insert(heads, head) end
    end
  end
else
  heads = redis.call('ZRANGEBYSCORE', base .. 'due', '-inf', now, 'LIMIT', 0, limit)
end
local taken, claimedHeads = {}, {}
for _, head in ipairs(heads) do
  if #taken >= limit then break end
  local score = redis.call('ZSCORE', base .. 'due', head)
  if score and tonumber(score) <= now and (not only or only[head]) then
    table.insert(claimedHeads, head)
    local g = redis.call('HGET', base .. 'x:' .. head, 'g')
    for _, id in ipairs(redis.call('LRANGE', base .. 'o:' .. g, 0, limit - #taken - 1)) do
      if only and not only[id] then break end
      if tonumber(redis.call('HGET', base .. 'x:' .. id, 'n')) > now then break end
      table.insert(taken, id)
    end
  end
end
for _, head in ipairs(claimedHeads) do redis.call('ZADD', base .. 'due', untilAt, head) end
local out = {}
for _, id in ipairs(taken) do
  local key = base .. 'x:' .. id
  redis.call('HSET', key, 'o', owner, 'u', untilAt)
  redis.call('ZADD', base .. 'leased', untilAt, id)
  table.insert(out, id)
  table.insert(out, redis.call('HGETALL', key))
end
return out
`)

/** ARGV: base, then the ids. */
const COMPLETE = defineScript(`${REMOVE}
local base = ARGV[1]
for i = 2, #ARGV do
  if remove(base, ARGV[i]) then redis.call('DEL', base .. 'x:' .. ARGV[i]) end
end
return 1
`)

/** ARGV: base, owner, next attempt at, '1' to count an attempt, the error, then the ids. */
const RELEASE = defineScript(`
local base, owner, at, failed, err = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
for i = 6, #ARGV do
  local id = ARGV[i]
  local key = base .. 'x:' .. id
  if redis.call('HGET', key, 'o') == owner then
    redis.call('HDEL', key, 'o')
    redis.call('HSET', key, 'u', '0', 'n', at)
    if failed == '1' then
      redis.call('HINCRBY', key, 'a', 1)
      redis.call('HSET', key, 'err', err)
    end
    redis.call('ZREM', base .. 'leased', id)
    if redis.call('LINDEX', base .. 'o:' .. redis.call('HGET', key, 'g'), 0) == id then
      redis.call('ZADD', base .. 'due', at, id)
    end
  end
end
return 1
`)

/** ARGV: base, now, then id and reasons JSON of each entry. */
const DEAD = defineScript(`${REMOVE}
local base, now = ARGV[1], ARGV[2]
for i = 3, #ARGV, 2 do
  local id = ARGV[i]
  if remove(base, id) then
    local dead = base .. 'd:' .. id
    redis.call('RENAME', base .. 'x:' .. id, dead)
    redis.call('HDEL', dead, 'o', 'u')
    redis.call('HSET', dead, 'da', now, 'rs', ARGV[i + 1])
    redis.call('RPUSH', base .. 'dead', id)
  end
end
return 1
`)

/** ARGV: base. */
const DEAD_LETTERS = defineScript(`
local base = ARGV[1]
local out = {}
for _, id in ipairs(redis.call('LRANGE', base .. 'dead', 0, -1)) do
  table.insert(out, id)
  table.insert(out, redis.call('HGETALL', base .. 'd:' .. id))
end
return out
`)

/** ARGV: base, then the ids. */
const FORGET = defineScript(`
local base = ARGV[1]
for i = 2, #ARGV do
  if redis.call('DEL', base .. 'd:' .. ARGV[i]) == 1 then redis.call('LREM', base .. 'dead', 1, ARGV[i]) end
end
return 1
`)

/** ARGV: base, now. Answers pending, leased, dead letters, and the first due score (or false). */
const STATS = defineScript(`
local base, now = ARGV[1], ARGV[2]
local first = redis.call('ZRANGE', base .. 'due', 0, 0, 'WITHSCORES')
return { redis.call('HLEN', base .. 'refs'), redis.call('ZCOUNT', base .. 'leased', '(' .. now, '+inf'),
  redis.call('LLEN', base .. 'dead'), first[2] or false }
`)

function fieldsOf(flat: unknown): Map<string, string> {
  const fields = new Map<string, string>()
  const list = flat as string[]
  for (let index = 0; index + 1 < list.length; index += 2)
    fields.set(list[index] as string, list[index + 1] as string)
  return fields
}

function entryOf(id: string, fields: Map<string, string>): OutboxEntry {
  const entry: OutboxEntry = {
    id,
    websiteId: fields.get('w') as string,
    orderKey: fields.get('k') as string,
    event: JSON.parse(fields.get('ev') as string) as PurchaseEventInput,
    attempts: Number(fields.get('a')),
    enqueuedAt: Number(fields.get('q')),
    nextAttemptAt: Number(fields.get('n')),
  }
  const error = fields.get('err')
  if (error !== undefined) entry.lastError = error
  return entry
}

/** The pairs id, HGETALL of a script's answer, as entries. */
function entriesOf(answer: unknown): OutboxEntry[] {
  const flat = answer as unknown[]
  const entries: OutboxEntry[] = []
  for (let index = 0; index + 1 < flat.length; index += 2) {
    entries.push(entryOf(flat[index] as string, fieldsOf(flat[index + 1])))
  }
  return entries
}

/** Entries written by one script call at most, so that no call holds Redis long. */
const BATCH = 500

/**
 * An `OutboxStore` (of `@verified-reviews/core/outbox`) in Redis, for purchase events that several
 * servers or serverless functions record and drain: `sendPurchaseEvents`, `drainOutbox`, the Next
 * package's `submitPurchaseEvent({ outbox })` and `createOutboxDrainRoute({ store })`. Every operation
 * is one Lua script, so a claim is atomic: two drainers never get the same event, and a claim whose
 * drainer died expires by itself (its entry is due again once the lease ends). Each order's events
 * wait in a list, and only the first of each order is in the set of due entries, so a claim costs the
 * events it takes, not the size of the outbox.
 *
 * Durability is Redis's: run it with persistence (`appendonly yes`, `appendfsync everysec` or
 * `always`) for an outbox. While Redis is unavailable, each method throws `RedisUnavailableError`:
 * `sendPurchaseEvents` then sends the events directly (with a warning), and a drain fails until Redis
 * is back, losing nothing it holds.
 */
export function createRedisOutboxStore(
  connection: RedisConnection,
  options: RedisOutboxStoreOptions = {},
): OutboxStore {
  const runner = runnerOf(connection)
  const base = `${runner.prefix}${options.name ?? 'outbox'}:`
  const now = options.now ?? Date.now
  const run = (script: Parameters<typeof runner.script>[0], args: readonly string[]) =>
    runner.script(script, [], [base, ...args])

  return {
    async add(news: readonly NewOutboxEntry[]) {
      const added: OutboxEntry[] = []
      for (let start = 0; start < news.length; start += BATCH) {
        const args = [String(now())]
        for (const item of news.slice(start, start + BATCH)) {
          const website = item.websiteId.toLowerCase()
          args.push(
            item.websiteId,
            item.orderKey,
            `${website}\n${item.event.purchase_reference}`,
            `${website}\n${item.orderKey}`,
            JSON.stringify(item.event),
          )
        }
        added.push(...entriesOf(await run(ADD, args)))
      }
      return added
    },
    async claim(claim) {
      const args = [String(now()), claim.owner, String(now() + claim.leaseMs), String(claim.limit)]
      if (claim.ids !== undefined) {
        if (claim.ids.length === 0) return []
        args.push(...claim.ids)
      }
      return entriesOf(await run(CLAIM, args))
    },
    async complete(ids) {
      for (let start = 0; start < ids.length; start += BATCH) {
        await run(COMPLETE, ids.slice(start, start + BATCH))
      }
    },
    async release(owner, ids, release) {
      const at = String(now() + Math.max(0, release.delayMs))
      const failed = release.error === undefined ? ['0', ''] : ['1', release.error]
      for (let start = 0; start < ids.length; start += BATCH) {
        await run(RELEASE, [owner, at, ...failed, ...ids.slice(start, start + BATCH)])
      }
    },
    async deadLetter(items) {
      for (let start = 0; start < items.length; start += BATCH) {
        const args = [String(now())]
        for (const item of items.slice(start, start + BATCH)) args.push(item.id, JSON.stringify(item.reasons))
        await run(DEAD, args)
      }
    },
    async deadLetters() {
      const flat = (await run(DEAD_LETTERS, [])) as unknown[]
      const dead: OutboxDeadLetter[] = []
      for (let index = 0; index + 1 < flat.length; index += 2) {
        const fields = fieldsOf(flat[index + 1])
        dead.push({
          ...entryOf(flat[index] as string, fields),
          deadAt: Number(fields.get('da')),
          reasons: JSON.parse(fields.get('rs') as string) as PurchaseEventRejection[],
        })
      }
      return dead
    },
    async removeDeadLetters(ids) {
      if (ids.length > 0) await run(FORGET, ids)
    },
    async stats(): Promise<OutboxStats> {
      const [pending, leased, deadLetters, next] = (await run(STATS, [String(now())])) as [
        number,
        number,
        number,
        string | null,
      ]
      return {
        pending: Number(pending),
        leased: Number(leased),
        deadLetters: Number(deadLetters),
        nextAttemptAt: next === null || next === undefined ? undefined : Number(next),
      }
    },
  }
}

import { describeOutboxStore } from '../../../../../test/fixtures/outbox-store.ts'
import { createMemoryOutboxStore } from './memory-store.ts'

describeOutboxStore('createMemoryOutboxStore', async (clock) => ({
  store: createMemoryOutboxStore({ now: () => clock.now }),
}))

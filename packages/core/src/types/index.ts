export * from './genesis.ts'
export * from './legacy.ts'
export * from './published.ts'
export * from './purchase-events.ts'

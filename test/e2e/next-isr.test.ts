import { join } from 'node:path'
import { describeProductSite } from './product-site.ts'

// A site without Cache Components (the README's ISR alternative): built from the shared prefetch, then revalidated.
describeProductSite('a site with ISR (no Cache Components)', join(import.meta.dirname, 'next-isr'))

import { join } from 'node:path'
import { describeProductSite } from './product-site.ts'

// A site with Cache Components on (the README's example): built from the shared prefetch, then revalidated.
describeProductSite('a site with Cache Components', join(import.meta.dirname, 'next-cache-components'))

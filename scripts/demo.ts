// `pnpm demo`: the storefront demos are not built yet, so this starts the sandbox alone and says so.
import { createSandbox } from '@verified-reviews/sandbox'

const port = Number(process.env.PORT ?? 4010)
const sandbox = await createSandbox({ port })

console.log(`Verified Reviews sandbox listening at ${sandbox.origin}`)
console.log('The Next.js and Astro demo apps do not exist yet, so `pnpm demo` runs the sandbox alone.')
console.log('')
console.log(`  client id      ${sandbox.clientId}`)
console.log(`  client secret  ${sandbox.clientSecret}`)
console.log(`  website id     ${sandbox.websiteId}`)
console.log('')
console.log('Try it:')
console.log(
  `  TOKEN=$(curl -s -u ${sandbox.clientId}:${sandbox.clientSecret} -d grant_type=client_credentials -d audience=verified-reviews ${sandbox.origin}/realms/skeepers/protocol/openid-connect/token | sed 's/.*"access_token":"\\([^"]*\\)".*/\\1/')`,
)
console.log(
  `  curl -i -H "Authorization: Bearer $TOKEN" '${sandbox.origin}/verified-reviews/v1/published/products/reviews?limit=2'`,
)
console.log('')
console.log('Press Ctrl+C to stop.')

const stop = async () => {
  await sandbox.close()
  process.exit(0)
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
